#pragma once
// Where the app finds its data (docs pages, recorded results: common/data_files.hpp, shared with the CLI) and keeps
// the user's settings.
#include <filesystem>

#include "common/data_files.hpp"

namespace gemmlab::desktop {

using common::data_roots;
using common::describe_roots;
using common::find_data_file;

// $XDG_CONFIG_HOME/gemmlab, else ~/.config/gemmlab; empty when neither variable is set.
std::filesystem::path config_dir();

}  // namespace gemmlab::desktop
