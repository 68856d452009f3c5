#include "blk/Frontend/Lexer.h"

#include <cctype>
#include <cstdlib>

namespace blk {
namespace {

class Lexer {
public:
  Lexer(llvm::StringRef src, std::shared_ptr<std::string> file) : src(src), file(std::move(file)) {}

  std::vector<Token> run() {
    indents.push_back(0);
    while (pos < src.size() && tokens.empty_or_ok()) {
      if (atLineStart) {
        if (!handleIndentation())
          break;
        continue;
      }
      if (pos >= src.size())
        break;
      char c = src[pos];
      if (c == '#') {
        skipToEol();
        continue;
      }
      if (c == '\\' && peek(1) == '\n') { // explicit line joining
        advance(2);
        continue;
      }
      if (c == '\n') {
        if (depth == 0 && !lastIs(Tok::Newline) && !tokens.list.empty())
          push(Tok::Newline, "\n", here());
        advance(1);
        atLineStart = depth == 0; // inside brackets, lines join
        continue;
      }
      if (c == ' ' || c == '\t' || c == '\r') {
        advance(1);
        continue;
      }
      if (std::isalpha((unsigned char)c) || c == '_') {
        lexIdent();
      } else if (std::isdigit((unsigned char)c) || (c == '.' && std::isdigit((unsigned char)peek(1)))) {
        lexNumber();
      } else if (c == '"' || c == '\'') {
        lexString();
      } else {
        lexOperator();
      }
    }
    if (!tokens.failed) {
      if (!tokens.list.empty() && !lastIs(Tok::Newline))
        push(Tok::Newline, "\n", here());
      while (indents.size() > 1) {
        indents.pop_back();
        push(Tok::Dedent, "", here());
      }
      push(Tok::Eof, "", here());
    }
    return std::move(tokens.list);
  }

private:
  struct Tokens {
    std::vector<Token> list;
    bool failed = false;
    bool empty_or_ok() const { return !failed; }
  } tokens;

  llvm::StringRef src;
  std::shared_ptr<std::string> file;
  size_t pos = 0;
  unsigned line = 1, col = 1;
  int depth = 0; // bracket nesting
  bool atLineStart = true;
  std::vector<unsigned> indents;

  char peek(size_t k) const { return pos + k < src.size() ? src[pos + k] : '\0'; }
  ast::Loc here() const { return ast::Loc{file, line, col}; }
  bool lastIs(Tok k) const { return !tokens.list.empty() && tokens.list.back().kind == k; }
  void advance(size_t n) {
    for (size_t i = 0; i < n && pos < src.size(); ++i, ++pos) {
      if (src[pos] == '\n') {
        ++line;
        col = 1;
      } else {
        ++col;
      }
    }
  }
  void skipToEol() {
    while (pos < src.size() && src[pos] != '\n')
      advance(1);
  }
  Token &push(Tok kind, std::string text, ast::Loc loc) {
    tokens.list.push_back(Token{kind, std::move(text), std::move(loc)});
    return tokens.list.back();
  }
  void error(const std::string &msg, ast::Loc loc) {
    push(Tok::Error, msg, std::move(loc));
    tokens.failed = true;
  }

  /// At the start of a logical line: measure indentation, skip blank lines.
  bool handleIndentation() {
    unsigned width = 0;
    size_t p = pos;
    while (p < src.size() && (src[p] == ' ' || src[p] == '\t')) {
      width = src[p] == '\t' ? (width / 8 + 1) * 8 : width + 1;
      ++p;
    }
    if (p >= src.size() || src[p] == '\n' || src[p] == '#' || src[p] == '\r') {
      advance(p - pos);
      if (pos < src.size() && src[pos] == '#')
        skipToEol();
      if (pos < src.size()) {
        advance(1); // the newline of a blank line
        return true;
      }
      atLineStart = false;
      return true;
    }
    advance(p - pos);
    atLineStart = false;
    if (width > indents.back()) {
      indents.push_back(width);
      push(Tok::Indent, "", here());
    } else {
      while (width < indents.back()) {
        indents.pop_back();
        push(Tok::Dedent, "", here());
      }
      if (width != indents.back()) {
        error("inconsistent indentation: this line matches no enclosing block", here());
        return false;
      }
    }
    return true;
  }

  void lexIdent() {
    ast::Loc loc = here();
    size_t start = pos;
    while (pos < src.size() && (std::isalnum((unsigned char)src[pos]) || src[pos] == '_'))
      advance(1);
    push(Tok::Ident, src.slice(start, pos).str(), loc);
  }

  static bool isDigitOf(char c, int base) {
    switch (base) {
    case 2: return c == '0' || c == '1';
    case 8: return c >= '0' && c <= '7';
    case 16: return std::isxdigit((unsigned char)c);
    default: return std::isdigit((unsigned char)c);
    }
  }

  /// Digits of `base`, appended to `out` without the '_' separators, which
  /// Python allows only between digits (and after a base prefix). False on a
  /// misplaced '_'.
  bool scanDigits(int base, std::string &out, bool afterPrefix = false) {
    bool any = afterPrefix;
    while (pos < src.size()) {
      if (src[pos] == '_') {
        if (!any || !isDigitOf(peek(1), base))
          return false;
        advance(1);
        continue;
      }
      if (!isDigitOf(src[pos], base))
        break;
      out += src[pos];
      any = true;
      advance(1);
    }
    return true;
  }

  /// Integer literals are Python's: decimal, 0x hexadecimal, 0o octal, 0b
  /// binary, '_' between digits; a value must fit in 64 bits (unsigned).
  void lexNumber() {
    ast::Loc loc = here();
    size_t start = pos;
    const char *badUnderscore = "malformed number literal: '_' can only separate digits";
    auto endsWell = [&]() { return pos >= src.size() || !(std::isalnum((unsigned char)src[pos]) || src[pos] == '_'); };
    auto pushInt = [&](const std::string &digits, int base) {
      uint64_t v = 0;
      for (char c : digits) {
        unsigned d = std::isdigit((unsigned char)c) ? c - '0' : std::tolower((unsigned char)c) - 'a' + 10;
        if (v > (UINT64_MAX - d) / base)
          return error("integer literal does not fit in 64 bits", loc);
        v = v * base + d;
      }
      push(Tok::Int, src.slice(start, pos).str(), loc).intValue = v;
    };
    char p = std::tolower((unsigned char)peek(1));
    if (src[pos] == '0' && (p == 'x' || p == 'o' || p == 'b')) {
      int base = p == 'x' ? 16 : p == 'o' ? 8 : 2;
      advance(2);
      std::string digits;
      if (!scanDigits(base, digits, /*afterPrefix=*/true))
        return error(badUnderscore, loc);
      if (digits.empty() || !endsWell())
        return error(std::string("malformed ") + (base == 16 ? "hexadecimal" : base == 8 ? "octal" : "binary") +
                         " literal",
                     loc);
      return pushInt(digits, base);
    }
    std::string text;
    bool isFloat = false;
    if (!scanDigits(10, text))
      return error(badUnderscore, loc);
    if (pos < src.size() && src[pos] == '.') {
      isFloat = true;
      text += '.';
      advance(1);
      if (pos < src.size() && src[pos] == '_')
        return error(badUnderscore, loc);
      if (!scanDigits(10, text))
        return error(badUnderscore, loc);
    }
    if (pos < src.size() && (src[pos] == 'e' || src[pos] == 'E')) {
      isFloat = true;
      text += 'e';
      advance(1);
      if (pos < src.size() && (src[pos] == '+' || src[pos] == '-')) {
        text += src[pos];
        advance(1);
      }
      if (pos >= src.size() || !std::isdigit((unsigned char)src[pos]))
        return error("malformed exponent in number literal", loc);
      if (!scanDigits(10, text))
        return error(badUnderscore, loc);
    }
    if (!endsWell())
      return error("malformed number literal", loc);
    if (isFloat) {
      push(Tok::Float, text, loc).floatValue = std::strtod(text.c_str(), nullptr);
      return;
    }
    if (text.size() > 1 && text[0] == '0' && text.find_first_not_of('0') != std::string::npos)
      return error("leading zeros are not allowed in a decimal integer (write 0o17 for octal)", loc);
    pushInt(text, 10);
  }

  void lexString() {
    ast::Loc loc = here();
    char quote = src[pos];
    advance(1);
    std::string value;
    while (pos < src.size() && src[pos] != quote) {
      if (src[pos] == '\n')
        return error("unterminated string literal", loc);
      if (src[pos] == '\\' && pos + 1 < src.size()) {
        char e = src[pos + 1];
        value += e == 'n' ? '\n' : e == 't' ? '\t' : e;
        advance(2);
        continue;
      }
      value += src[pos];
      advance(1);
    }
    if (pos >= src.size())
      return error("unterminated string literal", loc);
    advance(1);
    push(Tok::String, value, loc);
  }

  void lexOperator() {
    ast::Loc loc = here();
    static const char *ops[] = {"//=", "<<=", ">>=", "**", "//", "<<", ">>", "<=", ">=", "==", "!=", "->",
                                "+=",  "-=",  "*=",  "/=", "%=", "&=", "|=", "^=", "+",  "-",  "*",  "/",
                                "%",   "&",   "|",   "^",  "~",  "<",  ">",  "=",  "(",  ")",  "[",  "]",
                                ",",   ":",   ".",   "@"};
    for (const char *op : ops) {
      if (src.substr(pos).starts_with(op)) {
        std::string text = op;
        if (text == "(" || text == "[")
          ++depth;
        if ((text == ")" || text == "]") && depth > 0)
          --depth;
        advance(text.size());
        push(Tok::Op, text, loc);
        return;
      }
    }
    error(std::string("unexpected character '") + src[pos] + "'", loc);
  }
};

} // namespace

std::vector<Token> lex(llvm::StringRef source, std::shared_ptr<std::string> file) {
  return Lexer(source, std::move(file)).run();
}

} // namespace blk
