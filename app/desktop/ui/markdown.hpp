#pragma once
// Shows a docs page written in Markdown: headings, paragraphs, lists, tables and code blocks. Inline markup
// (`code`, **bold**, [links](...)) is shown as plain text; that is all the rung pages need.
#include <string>
#include <string_view>

namespace gemmlab::desktop::ui {

void markdown(std::string_view text);

// The text with inline markup removed: `code` -> code, **bold** -> bold, [text](url) -> text.
std::string plain_inline(std::string_view text);

}  // namespace gemmlab::desktop::ui
