#pragma once
// Where both faces find gemmlab's data files (docs/, assets/): the recorded results and reports the CLI and the
// desktop app show beside their predictions.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace gemmlab::common {

// The folders that may hold gemmlab's data files, in the order they are searched: $GEMMLAB_DATA_DIR, the checkout the
// executable sits in (build/bin/gemmlab -> the checkout), and the source tree this binary was built from.
std::vector<std::filesystem::path> data_roots();

// The first root holding `relative`, joined with it.
std::optional<std::filesystem::path> find_data_file(const std::vector<std::filesystem::path>& roots,
                                                    const std::filesystem::path& relative);

// "a, b and c" for the message that says where a file was looked for.
std::string describe_roots(const std::vector<std::filesystem::path>& roots);

}  // namespace gemmlab::common
