#include "common/output_path.hpp"

#include <unistd.h>

#include <filesystem>

namespace gemmlab::common {

std::string unwritable_because(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code error;
  if (path.empty()) return "no file name was given";
  if (fs::is_directory(path, error)) return "it is a directory";
  if (fs::exists(path, error)) return ::access(path.c_str(), W_OK) == 0 ? "" : "it is not writable";
  const fs::path folder = fs::path(path).has_parent_path() ? fs::path(path).parent_path() : fs::path(".");
  if (!fs::is_directory(folder, error)) return "the folder '" + folder.string() + "' does not exist";
  if (::access(folder.c_str(), W_OK) != 0) return "the folder '" + folder.string() + "' is not writable";
  return "";
}

}  // namespace gemmlab::common
