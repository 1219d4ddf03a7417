#include "common/data_files.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <system_error>

#include "gemmlab/listed.hpp"

namespace gemmlab::common {
namespace {

std::filesystem::path executable_dir() {
  std::error_code error;
  const auto exe = std::filesystem::read_symlink("/proc/self/exe", error);
  return error ? std::filesystem::path{} : exe.parent_path();
}

}  // namespace

std::vector<std::filesystem::path> data_roots() {
  std::vector<std::filesystem::path> roots;
  const auto add = [&](const std::filesystem::path& root) {
    if (root.empty()) return;
    std::error_code error;
    const auto canonical = std::filesystem::weakly_canonical(root, error);
    const auto& chosen = error ? root : canonical;
    if (std::find(roots.begin(), roots.end(), chosen) == roots.end()) roots.push_back(chosen);
  };
  if (const char* env = std::getenv("GEMMLAB_DATA_DIR"); env && *env) add(env);
  if (const auto exe = executable_dir(); !exe.empty()) add(exe / ".." / "..");
#ifdef GEMMLAB_SOURCE_DIR
  add(GEMMLAB_SOURCE_DIR);
#endif
  return roots;
}

std::optional<std::filesystem::path> find_data_file(const std::vector<std::filesystem::path>& roots,
                                                    const std::filesystem::path& relative) {
  for (const auto& root : roots) {
    std::error_code error;
    if (std::filesystem::is_regular_file(root / relative, error)) return root / relative;
  }
  return std::nullopt;
}

std::string describe_roots(const std::vector<std::filesystem::path>& roots) {
  if (roots.empty()) return "no data folder (set GEMMLAB_DATA_DIR to the gemmlab checkout)";
  return listed(roots, [](const std::filesystem::path& root) { return root.string(); });
}

}  // namespace gemmlab::common
