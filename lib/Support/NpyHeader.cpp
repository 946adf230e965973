//===- NpyHeader.cpp - .npy header dict parsing/printing ------------------===//

#include "NpyHeader.h"
#include "ptensor/Support/HostArray.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/Twine.h"

#include <limits>

using namespace ptensor;
using namespace ptensor::detail;

namespace {

/// Recursive-descent parser over the header text. Grammar (ws = ' ' | '\t'):
///   dict  := '{' ws [entry (ws ',' ws entry)* [ws ',']] ws '}' ws-or-nl*
///   entry := str ws ':' ws value
///   value := str | 'True' | 'False' | tuple
///   tuple := '(' ws ')' | '(' ws int ws ',' ws ')'
///          | '(' ws int (ws ',' ws int)+ [ws ','] ws ')'
///   int   := '0' | [1-9][0-9]* ['L']
///   str   := "'" [^'\\]* "'" | '"' [^"\\]* '"'
class HeaderParser {
public:
  explicit HeaderParser(llvm::StringRef text) : text(text) {}

  llvm::Expected<NpyHeaderDict> parse();

private:
  llvm::Error error(const llvm::Twine &what) const {
    llvm::StringRef shown = text.rtrim(" \n");
    std::string snippet = shown.size() > 120
                              ? (shown.take_front(120) + "...").str()
                              : shown.str();
    return llvm::createStringError("invalid header dict at column " +
                                   llvm::Twine(pos + 1) + ": " + what +
                                   "; header was: " + snippet);
  }
  bool atEnd() const { return pos >= text.size(); }
  char peek() const { return atEnd() ? '\0' : text[pos]; }
  void skipWs() {
    while (!atEnd() && (text[pos] == ' ' || text[pos] == '\t'))
      ++pos;
  }
  bool consume(char c) {
    if (peek() != c)
      return false;
    ++pos;
    return true;
  }

  llvm::Expected<std::string> parseString();
  llvm::Expected<bool> parseBool();
  llvm::Expected<int64_t> parseInt();
  llvm::Expected<llvm::SmallVector<int64_t, 4>> parseShape();

  llvm::StringRef text;
  size_t pos = 0;
};

} // namespace

llvm::Expected<std::string> HeaderParser::parseString() {
  char quote = peek();
  if (quote != '\'' && quote != '"')
    return error("expected a quoted string");
  size_t start = ++pos;
  while (!atEnd() && text[pos] != quote) {
    if (text[pos] == '\\' || text[pos] == '\n')
      return error("escape sequences and newlines are not supported in "
                   "strings");
    ++pos;
  }
  if (atEnd())
    return error("unterminated string");
  std::string value = text.slice(start, pos).str();
  ++pos; // closing quote
  return value;
}

llvm::Expected<bool> HeaderParser::parseBool() {
  llvm::StringRef rest = text.drop_front(pos);
  auto endsWord = [&](size_t len) {
    return rest.size() == len ||
           !(llvm::isAlnum(rest[len]) || rest[len] == '_');
  };
  if (rest.starts_with("True") && endsWord(4)) {
    pos += 4;
    return true;
  }
  if (rest.starts_with("False") && endsWord(5)) {
    pos += 5;
    return false;
  }
  return error("expected True or False for 'fortran_order'");
}

llvm::Expected<int64_t> HeaderParser::parseInt() {
  if (!llvm::isDigit(peek()))
    return error("expected a non-negative integer dimension");
  size_t start = pos;
  uint64_t value = 0;
  while (llvm::isDigit(peek())) {
    uint64_t digit = static_cast<uint64_t>(text[pos] - '0');
    if (value > (static_cast<uint64_t>(std::numeric_limits<int64_t>::max()) -
                 digit) /
                    10)
      return error("dimension does not fit in int64");
    value = value * 10 + digit;
    ++pos;
  }
  if (pos - start > 1 && text[start] == '0')
    return error("integer with leading zero");
  consume('L'); // Python 2 long suffix, written by very old numpy versions.
  if (llvm::isAlnum(peek()) || peek() == '_' || peek() == '.')
    return error("expected a non-negative integer dimension");
  return static_cast<int64_t>(value);
}

llvm::Expected<llvm::SmallVector<int64_t, 4>> HeaderParser::parseShape() {
  if (!consume('('))
    return error("expected a tuple '(...)' for 'shape'");
  llvm::SmallVector<int64_t, 4> dims;
  skipWs();
  if (consume(')'))
    return dims;
  while (true) {
    llvm::Expected<int64_t> dim = parseInt();
    if (!dim)
      return dim.takeError();
    dims.push_back(*dim);
    skipWs();
    if (consume(')')) {
      if (dims.size() == 1)
        return error("'shape' is a parenthesized integer, not a tuple "
                     "(a 1-element tuple needs a trailing comma)");
      return dims;
    }
    if (!consume(','))
      return error("expected ',' or ')' in 'shape' tuple");
    skipWs();
    if (consume(')'))
      return dims;
  }
}

llvm::Expected<NpyHeaderDict> HeaderParser::parse() {
  NpyHeaderDict dict;
  bool seenDescr = false, seenFortran = false, seenShape = false;
  if (!consume('{'))
    return error("expected '{' at the start of the header");
  skipWs();
  while (!consume('}')) {
    llvm::Expected<std::string> key = parseString();
    if (!key)
      return key.takeError();
    skipWs();
    if (!consume(':'))
      return error("expected ':' after dict key '" + *key + "'");
    skipWs();
    bool *seen = nullptr;
    if (*key == "descr") {
      seen = &seenDescr;
      if (peek() == '[')
        return error("'descr' is a list, i.e. a structured dtype; structured "
                     "dtypes are not supported");
      llvm::Expected<std::string> descr = parseString();
      if (!descr)
        return descr.takeError();
      dict.descr = std::move(*descr);
    } else if (*key == "fortran_order") {
      seen = &seenFortran;
      llvm::Expected<bool> value = parseBool();
      if (!value)
        return value.takeError();
      dict.fortranOrder = *value;
    } else if (*key == "shape") {
      seen = &seenShape;
      auto shape = parseShape();
      if (!shape)
        return shape.takeError();
      dict.shape = std::move(*shape);
    } else {
      return error("unexpected key '" + *key +
                   "' (expected exactly 'descr', 'fortran_order', 'shape')");
    }
    if (*seen)
      return error("duplicate key '" + *key + "'");
    *seen = true;
    skipWs();
    if (consume('}'))
      break;
    if (!consume(','))
      return error("expected ',' or '}' after the value of '" + *key + "'");
    skipWs();
  }
  // numpy pads the header with spaces and ends it with a newline.
  for (; !atEnd(); ++pos)
    if (text[pos] != ' ' && text[pos] != '\t' && text[pos] != '\n' &&
        text[pos] != '\r')
      return error("unexpected text after the closing '}'");
  if (!seenDescr)
    return error("missing key 'descr'");
  if (!seenFortran)
    return error("missing key 'fortran_order'");
  if (!seenShape)
    return error("missing key 'shape'");
  return dict;
}

llvm::Expected<NpyHeaderDict>
ptensor::detail::parseNpyHeaderDict(llvm::StringRef text) {
  return HeaderParser(text).parse();
}

std::string
ptensor::detail::formatNpyHeaderDict(llvm::StringRef descr, bool fortranOrder,
                                     llvm::ArrayRef<int64_t> shape) {
  std::string header = "{'descr': '" + descr.str() +
                       "', 'fortran_order': " +
                       (fortranOrder ? "True" : "False") +
                       ", 'shape': " + shapeToString(shape) + ", }";
  // numpy leaves room to grow the outermost dimension in place
  // (GROWTH_AXIS_MAX_DIGITS = 21).
  if (!shape.empty()) {
    size_t digits =
        std::to_string(fortranOrder ? shape.back() : shape.front()).size();
    if (digits < 21)
      header.append(21 - digits, ' ');
  }
  return header;
}
