// CuTe's layout notation: parsing, printing, and evaluating coordinates.
#include "gemmlab/lab/cute_layout.hpp"

#include <cctype>
#include <limits>

namespace gemmlab::lab {
namespace {

void flatten_into(const IntTuple& t, std::vector<std::int64_t>& out) {
  if (!t.tuple) {
    out.push_back(t.value);
    return;
  }
  for (const auto& child : t.children) flatten_into(child, out);
}

// A recursive-descent parser over CuTe's printed grammar:
//   tuple  := integer | '(' tuple (',' tuple)* ')'
//   integer := ['_'] ['-'] digits        (CuTe prints static integers as _64)
class Parser {
 public:
  explicit Parser(std::string_view text) : text_(text) {}

  Result<IntTuple> tuple(std::string_view what) {
    skip_spaces();
    if (done()) return error("expected " + std::string(what) + " (a number or '('), found the end of the text");
    if (peek() == '(') {
      ++at_;
      std::vector<IntTuple> elements;
      while (true) {
        auto element = tuple("a number or '(' inside the tuple");
        if (!element) return element;
        elements.push_back(std::move(*element));
        skip_spaces();
        if (done()) return error("expected ',' or ')' to continue the tuple, found the end of the text");
        if (peek() == ',') {
          ++at_;
          continue;
        }
        if (peek() == ')') {
          ++at_;
          break;
        }
        return error("expected ',' or ')' after a tuple element, found '" + std::string(1, peek()) + "'");
      }
      return IntTuple::of(std::move(elements));
    }
    return integer(what);
  }

  Result<IntTuple> integer(std::string_view what) {
    skip_spaces();
    const std::size_t start = at_;
    if (!done() && peek() == '_') ++at_;
    bool negative = false;
    if (!done() && peek() == '-') {
      negative = true;
      ++at_;
    }
    if (done() || !std::isdigit(static_cast<unsigned char>(peek()))) {
      at_ = start;
      return error("expected " + std::string(what) + ", found " +
                   (done() ? std::string("the end of the text") : "'" + std::string(1, peek()) + "'"));
    }
    std::int64_t value = 0;
    while (!done() && std::isdigit(static_cast<unsigned char>(peek()))) {
      const int digit = peek() - '0';
      if (value > (std::numeric_limits<std::int64_t>::max() - digit) / 10) {
        at_ = start;
        return error("the number starting here is too large");
      }
      value = value * 10 + digit;
      ++at_;
    }
    return IntTuple::leaf(negative ? -value : value);
  }

  void skip_spaces() {
    while (!done() && std::isspace(static_cast<unsigned char>(peek()))) ++at_;
  }
  bool done() const { return at_ >= text_.size(); }
  char peek() const { return text_[at_]; }
  void advance() { ++at_; }
  std::size_t position() const { return at_; }
  Error error(const std::string& what) const {
    return Error{"at character " + std::to_string(at_ + 1) + " of '" + std::string(text_) + "': " + what};
  }

 private:
  std::string_view text_;
  std::size_t at_ = 0;
};

bool congruent(const IntTuple& a, const IntTuple& b) {
  if (a.tuple != b.tuple) return false;
  if (!a.tuple) return true;
  if (a.children.size() != b.children.size()) return false;
  for (std::size_t i = 0; i < a.children.size(); ++i)
    if (!congruent(a.children[i], b.children[i])) return false;
  return true;
}

// Colexicographic split of `index` over `shape`, each part times its stride.
std::int64_t offset_of(const IntTuple& shape, const IntTuple& stride, std::int64_t& index) {
  if (!shape.tuple) {
    const std::int64_t here = shape.value == 0 ? 0 : index % shape.value;
    index = shape.value == 0 ? 0 : index / shape.value;
    return here * stride.value;
  }
  std::int64_t offset = 0;
  for (std::size_t i = 0; i < shape.children.size(); ++i)
    offset += offset_of(shape.children[i], stride.children[i], index);
  return offset;
}

IntTuple strides_like(const IntTuple& shape, std::int64_t& next) {
  if (!shape.tuple) {
    const auto s = IntTuple::leaf(next);
    next *= shape.value;
    return s;
  }
  std::vector<IntTuple> out;
  for (const auto& child : shape.children) out.push_back(strides_like(child, next));
  return IntTuple::of(std::move(out));
}

Status check_shape(const IntTuple& shape, const IntTuple& stride) {
  const auto sizes = flatten(shape);
  for (const auto s : sizes)
    if (s <= 0)
      return Error{"every extent of a shape must be at least 1, but " + to_string(shape) + " has " + std::to_string(s)};
  (void)stride;
  return Ok{};
}

}  // namespace

std::vector<std::int64_t> flatten(const IntTuple& t) {
  std::vector<std::int64_t> out;
  flatten_into(t, out);
  return out;
}

std::int64_t product(const IntTuple& t) {
  std::int64_t p = 1;
  for (const auto v : flatten(t)) p *= v;
  return p;
}

std::string to_string(const IntTuple& t) {
  if (!t.tuple) return std::to_string(t.value);
  std::string out = "(";
  for (std::size_t i = 0; i < t.children.size(); ++i) {
    if (i) out += ',';
    out.append(to_string(t.children[i]));
  }
  out += ')';
  return out;
}

std::string to_cute_type(const IntTuple& t, std::string_view kind) {
  const auto leaf = [](std::int64_t v) { return v < 0 ? "Int<" + std::to_string(v) + ">" : "_" + std::to_string(v); };
  if (!t.tuple) return leaf(t.value);
  std::string out(kind);
  out += '<';
  for (std::size_t i = 0; i < t.children.size(); ++i) {
    if (i) out += ',';
    out.append(to_cute_type(t.children[i], kind));
  }
  out += '>';
  return out;
}

std::int64_t Layout::mode_offset(int mode, std::int64_t index) const {
  return offset_of(shape_of(mode), stride_of(mode), index);
}

std::int64_t Layout::at(std::int64_t index) const { return offset_of(shape, stride, index); }

std::string Layout::to_string() const { return lab::to_string(shape) + ":" + lab::to_string(stride); }

std::string Layout::to_cute() const {
  // A rank-1 leaf layout still needs Shape<> around it to be a CuTe type.
  const auto wrap = [](const IntTuple& t, std::string_view kind) {
    return t.tuple ? to_cute_type(t, kind) : std::string(kind) + "<" + to_cute_type(t, kind) + ">";
  };
  return "Layout<" + wrap(shape, "Shape") + ", " + wrap(stride, "Stride") + ">{}";
}

Result<IntTuple> parse_int_tuple(std::string_view text) {
  Parser parser(text);
  auto t = parser.tuple("a number or '('");
  if (!t) return t;
  parser.skip_spaces();
  if (!parser.done())
    return parser.error("expected the end of the tuple, found '" + std::string(1, parser.peek()) + "'");
  return t;
}

Result<Layout> parse_layout(std::string_view text) {
  Parser parser(text);
  auto shape = parser.tuple("a shape (a number or '(')");
  if (!shape) return shape.error();
  parser.skip_spaces();
  Layout layout{*shape, {}};
  if (parser.done()) {
    layout.stride = compact_column_major(layout.shape);
  } else {
    if (parser.peek() != ':')
      return parser.error("expected ':' between the shape and the stride, found '" + std::string(1, parser.peek()) +
                          "'");
    parser.advance();
    auto stride = parser.tuple("a stride (a number or '(')");
    if (!stride) return stride.error();
    parser.skip_spaces();
    if (!parser.done())
      return parser.error("expected the end of the layout, found '" + std::string(1, parser.peek()) + "'");
    layout.stride = *stride;
  }
  if (!congruent(layout.shape, layout.stride))
    return Error{"the shape " + to_string(layout.shape) + " and the stride " + to_string(layout.stride) +
                 " have different ranks or nesting; CuTe needs one stride for every extent of the shape"};
  if (auto ok = check_shape(layout.shape, layout.stride); !ok) return ok.error();
  return layout;
}

IntTuple compact_column_major(const IntTuple& shape) {
  std::int64_t next = 1;
  return strides_like(shape, next);
}

IntTuple compact_row_major(const IntTuple& shape) {
  if (!shape.tuple || shape.children.size() != 2) return compact_column_major(shape);
  std::int64_t next = 1;
  IntTuple columns = strides_like(shape.children[1], next);
  IntTuple rows = strides_like(shape.children[0], next);
  return IntTuple::of({rows, columns});
}

}  // namespace gemmlab::lab
