// Splits .blk source into tokens, with Python's INDENT/DEDENT/NEWLINE for
// block structure (no NEWLINE inside brackets).
#ifndef BLK_FRONTEND_LEXER_H
#define BLK_FRONTEND_LEXER_H

#include "blk/Frontend/AST.h"

namespace blk {

enum class Tok { Eof, Newline, Indent, Dedent, Ident, Int, Float, String, Op, Error };

struct Token {
  Tok kind = Tok::Eof;
  std::string text; // identifier, operator, string contents, or the error message
  ast::Loc loc;
  uint64_t intValue = 0;
  double floatValue = 0;
};

/// Tokenizes the whole buffer up front; an error becomes a Tok::Error token.
std::vector<Token> lex(llvm::StringRef source, std::shared_ptr<std::string> file);

} // namespace blk

#endif
