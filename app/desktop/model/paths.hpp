#pragma once
// Where the app finds its data (docs pages, recorded results) and keeps the user's settings.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace gemmlab::desktop {

// The folders that may hold gemmlab's data files (docs/, assets/), in the order they are searched:
// $GEMMLAB_DATA_DIR, the checkout the executable sits in (build/bin/gemmlab -> the checkout), and the source tree
// this binary was built from.
std::vector<std::filesystem::path> data_roots();

// The first root holding `relative`, joined with it.
std::optional<std::filesystem::path> find_data_file(const std::vector<std::filesystem::path>& roots,
                                                    const std::filesystem::path& relative);

// $XDG_CONFIG_HOME/gemmlab, else ~/.config/gemmlab; empty when neither variable is set.
std::filesystem::path config_dir();

// "a, b and c" for the message that says where a file was looked for.
std::string describe_roots(const std::vector<std::filesystem::path>& roots);

}  // namespace gemmlab::desktop
