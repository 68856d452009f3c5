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

  void lexNumber() {
    ast::Loc loc = here();
    size_t start = pos;
    bool isFloat = false;
    if (src[pos] == '0' && (peek(1) == 'x' || peek(1) == 'X' || peek(1) == 'b' || peek(1) == 'B')) {
      int base = (peek(1) == 'x' || peek(1) == 'X') ? 16 : 2;
      advance(2);
      size_t digits = pos;
      while (pos < src.size() && (std::isxdigit((unsigned char)src[pos]) || src[pos] == '_'))
        advance(1);
      std::string text = src.slice(digits, pos).str();
      text.erase(std::remove(text.begin(), text.end(), '_'), text.end());
      if (text.empty())
        return error("malformed number literal", loc);
      push(Tok::Int, src.slice(start, pos).str(), loc).intValue = std::strtoull(text.c_str(), nullptr, base);
      return;
    }
    while (pos < src.size() && (std::isdigit((unsigned char)src[pos]) || src[pos] == '_'))
      advance(1);
    if (pos < src.size() && src[pos] == '.') {
      isFloat = true;
      advance(1);
      while (pos < src.size() && std::isdigit((unsigned char)src[pos]))
        advance(1);
    }
    if (pos < src.size() && (src[pos] == 'e' || src[pos] == 'E')) {
      isFloat = true;
      advance(1);
      if (pos < src.size() && (src[pos] == '+' || src[pos] == '-'))
        advance(1);
      if (pos >= src.size() || !std::isdigit((unsigned char)src[pos]))
        return error("malformed exponent in number literal", loc);
      while (pos < src.size() && std::isdigit((unsigned char)src[pos]))
        advance(1);
    }
    if (pos < src.size() && (std::isalpha((unsigned char)src[pos]) || src[pos] == '_'))
      return error("malformed number literal", loc);
    std::string text = src.slice(start, pos).str();
    text.erase(std::remove(text.begin(), text.end(), '_'), text.end());
    if (isFloat) {
      push(Tok::Float, text, loc).floatValue = std::strtod(text.c_str(), nullptr);
    } else {
      errno = 0;
      uint64_t v = std::strtoull(text.c_str(), nullptr, 10);
      if (errno == ERANGE)
        return error("integer literal does not fit in 64 bits", loc);
      push(Tok::Int, text, loc).intValue = v;
    }
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
