#pragma once
// Every term a learner may not know, explained where it appears: term("wavefront") draws the word, dotted
// underlined, with its explanation as a tooltip. The explanations live in one table (glossary.cpp).
#include <string_view>

namespace gemmlab::desktop::ui {

// The explanation of a glossary term; empty when the term is not in the glossary.
std::string_view explain(std::string_view term);

// Draws `label` (default: the term itself) as inline text with the term's tooltip. Use ImGui::SameLine(0, 0)
// around it to embed it in a sentence.
void term(std::string_view term, std::string_view label = {});
// A "(?)" marker with the term's tooltip, placed after the previous item.
void term_marker(std::string_view term);
// Shows the term's tooltip when the previous item is hovered.
void term_tooltip_for_last_item(std::string_view term);

}  // namespace gemmlab::desktop::ui
