#include "model/docs_page.hpp"

#include <cstdio>
#include <fstream>
#include <sstream>

#include "model/paths.hpp"

namespace gemmlab::desktop {

std::filesystem::path rung_docs_path(const RungInfo& rung) {
  char number[8];
  std::snprintf(number, sizeof number, "%02d", rung.number);
  return std::filesystem::path("docs") / "rungs" / (std::string(number) + "-" + std::string(rung.slug) + ".md");
}

DocsPage load_rung_docs(const RungInfo& rung, const std::vector<std::filesystem::path>& roots) {
  DocsPage page;
  const auto relative = rung_docs_path(rung);
  const auto found = find_data_file(roots, relative);
  if (!found) {
    page.message = "This rung has no notes page yet: " + relative.string() + " is not in " + describe_roots(roots) +
                   ".";
    return page;
  }
  std::ifstream in(*found, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  if (!in) {
    page.message = "Could not read " + found->string() + ".";
    return page;
  }
  page.found = true;
  page.path = *found;
  page.text = text.str();
  return page;
}

}  // namespace gemmlab::desktop
