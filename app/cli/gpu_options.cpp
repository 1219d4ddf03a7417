#include "gpu_options.hpp"

#include <algorithm>
#include <CLI/CLI.hpp>

#include "common/number_options.hpp"
#include "gemmlab/sim/launch_order.hpp"

#include <optional>

namespace gemmlab::cli {

CLI::Validator non_empty_list() {
  return common::non_empty_text("a comma-separated list, or leave the flag out for the defaults");
}

Result<std::vector<RungId>> parse_rung_list(const std::string& text) {
  std::vector<RungId> out;
  if (text.empty()) return out;
  // Every item between commas is read, an empty one too: "1," names an empty rung, as "64," names an empty size.
  std::string_view rest = text;
  while (true) {
    const std::size_t comma = rest.find(',');
    const std::string_view item = rest.substr(0, comma);
    const std::optional<RungId> rung = find_rung(item);
    if (!rung) {
      std::string message = "unknown rung '";
      message.append(item).append("' (give slugs or ladder numbers; gemmlab-cli list shows them)");
      return Error{message};
    }
    out.push_back(*rung);
    if (comma == std::string_view::npos) break;
    rest = rest.substr(comma + 1);
  }
  return out;
}

Result<GpuSelection> parse_gpu_selection(const std::string& rungs, const std::string& sizes, const std::string& order,
                                         std::vector<gpu::Shape> fallback_shapes, const std::string& inputs) {
  GpuSelection out;
  for (std::size_t start = 0; !inputs.empty() && start <= inputs.size();) {  // "fp32," ends in an empty item
    const std::size_t comma = std::min(inputs.find(',', start), inputs.size());
    const std::string name = inputs.substr(start, comma - start);
    const auto type = kernel::find_input(name);
    if (!type) return Error{"--inputs: '" + name + "' is not an input type (fp32, fp16, bf16)"};
    out.inputs.push_back(*type);
    start = comma + 1;
  }
  auto rung_list = parse_rung_list(rungs);
  if (!rung_list) return rung_list.error();
  out.rungs = std::move(*rung_list);
  if (sizes.empty()) {
    out.shapes = std::move(fallback_shapes);
  } else {
    auto shapes = gpu::parse_shapes(sizes);
    if (!shapes) return shapes.error();
    out.shapes = std::move(*shapes);
  }
  auto block_order = sim::parse_order(order);
  if (!block_order) return block_order.error();
  out.order = *block_order;
  return out;
}

}  // namespace gemmlab::cli
