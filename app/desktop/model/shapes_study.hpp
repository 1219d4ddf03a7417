#pragma once
// What the Shapes panel shows: a sweep (gemmlab/gpu/sweep.hpp) of the user's shapes, predicted here by the model
// with no GPU, or a recorded sweep with its measurements (the LLM shapes on an H200, docs/sweep.md). Per shape the
// best rung, what the model predicts and what was measured beside cuBLAS, the tiles and how full the last wave is,
// and what cuBLAS ran there. Both kinds come through the sweep's JSON report, read by one function, so the panel
// draws one kind of row. The panel reads this type and calls its commands; it keeps no state.
#include <atomic>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "gemmlab/result.hpp"
#include "gemmlab/sim/device_profile.hpp"

namespace gemmlab::desktop {

// One shape of a sweep, its best rung: the fastest measured where the sweep was timed, else the fastest predicted.
struct ShapeRow {
  std::string label;
  int m = 0, n = 0, k = 0;
  std::string best_rung;
  // Its configuration (a sweep with --tuned may pick one the model ranked best), and the launch order it ran in where
  // the sweep had several.
  std::string best_config = "default";
  double predicted_tflops = 0;  // the best rung's prediction
  std::optional<double> measured_tflops, cublas_tflops, ratio_to_cublas;
  int tiles = 0, concurrent_blocks = 0, last_wave_tiles = 0;
  double waves = 0;
  std::string cublas_runs;  // cuBLAS decoded, where the sweep was timed
};

// The recorded sweep the panel offers without a GPU (relative to a data root): the LLM presets with the model's six
// best configurations of each rung beside its default, timed with the kernels as they are, each rung in its own
// launch order, rungs 17 to 24 (docs/sweep.md, run 23: the model of 2026-12-01 after its review choosing, kept
// uncompressed for the app).
inline const std::filesystem::path kRecordedSweep = "docs/results-data/sweep/sweep-llm-bf16-tuned6-run23.json";

class ShapesStudy {
 public:
  const std::string& shapes_text() const { return shapes_text_; }
  const std::vector<ShapeRow>& rows() const { return rows_; }
  // Where the rows come from: "predicted by the model for ..." or "recorded on ..., with its date and file".
  const std::string& source() const { return source_; }
  bool measured() const { return measured_; }
  const std::string& error() const { return error_; }

  void set_shapes_text(std::string text) { shapes_text_ = std::move(text); }
  // Beside each rung's default, the configurations of it the model ranks fastest for each shape (gemmlab-cli sweep
  // --tuned): 0 to kMaxTuned.
  static constexpr int kMaxTuned = 8;
  int tuned() const { return tuned_; }
  void set_tuned(int n) { tuned_ = n < 0 ? 0 : n > kMaxTuned ? kMaxTuned : n; }

  // The model's sweep of `shapes_text` over the rungs that take BF16 for `profile`, `tuned` picks of each beside its
  // default: a report's JSON and the line that says where it comes from. Touches no study, so it runs off the UI
  // thread (AppModel::predict_shapes, with `progress` and `cancel` from its job); errors name the bad shape.
  struct Predicted {
    std::string json, source;
  };
  static Result<Predicted> predict_report(const std::string& shapes_text, int tuned, const sim::DeviceProfile& profile,
                                          const std::function<void(double)>& progress = {},
                                          const std::atomic<bool>* cancel = nullptr);
  // Shows a prediction; an error (a bad shape, say) leaves the rows shown as they were and says why.
  Status show_predicted(const Result<Predicted>& predicted);
  // predict_report of this study's shapes and picks, shown: at once, on the calling thread.
  Status predict(const sim::DeviceProfile& profile);
  // A sweep's JSON report (gemmlab-cli sweep --json); the same, for a file that is not one.
  Status load_report(const std::filesystem::path& path);
  // The rows of a report's text (exposed for the tests).
  static Result<std::vector<ShapeRow>> rows_of(const std::string& json_text);

 private:
  Status show(const std::string& json_text, std::string source);

  std::string shapes_text_ = "llama3-8b-decode,llama3-8b-prefill";
  int tuned_ = 0;
  std::vector<ShapeRow> rows_;
  std::string source_;
  bool measured_ = false;
  std::string error_;
};

}  // namespace gemmlab::desktop
