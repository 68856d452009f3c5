#include "blk/Frontend/Lexer.h"

#include <gtest/gtest.h>

using namespace blk;

namespace {

std::vector<Tok> kinds(const std::string &src) {
  std::vector<Tok> out;
  for (const Token &t : lex(src, std::make_shared<std::string>("t.blk")))
    out.push_back(t.kind);
  return out;
}

TEST(Lexer, IndentationBlocks) {
  auto k = kinds("def f():\n    x = 1\n\n    # comment\n    if x:\n        y = 2\nz = 3\n");
  std::vector<Tok> expected = {Tok::Ident, Tok::Ident, Tok::Op, Tok::Op, Tok::Op, Tok::Newline,
                               Tok::Indent, Tok::Ident, Tok::Op, Tok::Int, Tok::Newline,
                               Tok::Ident, Tok::Ident, Tok::Op, Tok::Newline,
                               Tok::Indent, Tok::Ident, Tok::Op, Tok::Int, Tok::Newline,
                               Tok::Dedent, Tok::Dedent, Tok::Ident, Tok::Op, Tok::Int, Tok::Newline, Tok::Eof};
  EXPECT_EQ(k, expected);
}

TEST(Lexer, BracketsJoinLines) {
  auto toks = lex("f(a,\n      b)\n", std::make_shared<std::string>("t.blk"));
  for (const Token &t : toks)
    EXPECT_NE(t.kind, Tok::Indent);
  EXPECT_EQ(toks.back().kind, Tok::Eof);
}

TEST(Lexer, Numbers) {
  auto toks = lex("1_024 0x10 2.5e-3 .5 7\n", std::make_shared<std::string>("t.blk"));
  ASSERT_GE(toks.size(), 5u);
  EXPECT_EQ(toks[0].intValue, 1024u);
  EXPECT_EQ(toks[1].intValue, 16u);
  EXPECT_DOUBLE_EQ(toks[2].floatValue, 2.5e-3);
  EXPECT_DOUBLE_EQ(toks[3].floatValue, 0.5);
  EXPECT_EQ(toks[4].intValue, 7u);
}

TEST(Lexer, PrefixedNumbers) {
  auto toks = lex("0xFF_FF 0o17 0B101 0x_1 1_000.000_5 18446744073709551615 00\n",
                  std::make_shared<std::string>("t.blk"));
  ASSERT_GE(toks.size(), 7u);
  EXPECT_EQ(toks[0].intValue, 0xFFFFu);
  EXPECT_EQ(toks[1].intValue, 15u);
  EXPECT_EQ(toks[2].intValue, 5u);
  EXPECT_EQ(toks[3].intValue, 1u);
  EXPECT_DOUBLE_EQ(toks[4].floatValue, 1000.0005);
  EXPECT_EQ(toks[5].intValue, UINT64_MAX);
  EXPECT_EQ(toks[6].intValue, 0u);
}

TEST(Lexer, MalformedNumbers) {
  for (const char *bad : {"1_", "1__0", "1_.5", "0x", "0b2", "0o8", "0xfg", "012", "1e", "18446744073709551616",
                          "0x1_0000_0000_0000_0000", "3abc"}) {
    auto toks = lex(std::string("x = ") + bad + "\n", std::make_shared<std::string>("t.blk"));
    EXPECT_EQ(toks.back().kind, Tok::Error) << bad;
  }
}

TEST(Lexer, ErrorsCarryLocations) {
  auto toks = lex("x = 1\ny = $\n", std::make_shared<std::string>("t.blk"));
  ASSERT_EQ(toks.back().kind, Tok::Error);
  EXPECT_EQ(toks.back().loc.line, 2u);
  EXPECT_EQ(toks.back().loc.col, 5u);
}

} // namespace
