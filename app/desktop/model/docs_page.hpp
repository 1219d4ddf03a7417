#pragma once
// Each rung's notes page, docs/rungs/NN-slug.md, read from the data folders for the Ladder panel to show.
#include <filesystem>
#include <string>
#include <vector>

#include "gemmlab/rungs.hpp"

namespace gemmlab::desktop {

struct DocsPage {
  bool found = false;
  std::filesystem::path path;  // where it was read from
  std::string text;            // the Markdown source
  std::string message;         // when not found: where it was looked for
};

// "docs/rungs/03-smem-tiling.md"
std::filesystem::path rung_docs_path(const RungInfo& rung);
DocsPage load_rung_docs(const RungInfo& rung, const std::vector<std::filesystem::path>& roots);

}  // namespace gemmlab::desktop
