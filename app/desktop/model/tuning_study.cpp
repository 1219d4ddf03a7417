#include "model/tuning_study.hpp"

#include "gemmlab/file_io.hpp"
#include "model/paths.hpp"

namespace gemmlab::desktop {

Result<ShownStudy> load_recorded_study(const std::vector<std::filesystem::path>& roots, RungId rung,
                                       const sim::DeviceProfile& profile) {
  const std::filesystem::path file =
      std::filesystem::path("assets") / "tuning" / "h100" / (std::string(rung_info(rung).slug) + ".json");
  const auto path = find_data_file(roots, file);
  if (!path) return Error{"no recorded study for this rung: " + file.string() + " is not in " + describe_roots(roots)};
  auto text = read_input_file(path->string(), "tuning study");
  if (!text) return text.error();
  auto report = gpu::parse_tune_report_json(*text);
  if (!report) return Error{path->string() + ": " + report.error().message};
  // The file as the data folders name it, not the absolute path: the same words on every machine (and picture).
  std::string source = "recorded on the " + report->bench.device.name + ", " + report->bench.date_utc.substr(0, 10) +
                       " (" + file.string() + ")";
  ShownStudy shown{std::move(*report), std::move(source), std::nullopt, ""};
  // The recorded predictions are those of the model of that day: show today's, and keep the old score to compare.
  const double recorded_spearman = shown.report.spearman;
  if (auto rescored = gpu::repredict_tune(shown.report, profile); rescored) shown.recorded_spearman = recorded_spearman;
  else shown.rescore_error = rescored.error().message;
  return shown;
}

}  // namespace gemmlab::desktop
