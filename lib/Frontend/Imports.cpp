// Where imports find their files, and the files a source depends on.
#include "Imports.h"

#include "blk/Frontend/Lexer.h"
#include "blk/Frontend/Parser.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <set>

namespace blk {

std::string importPath(llvm::StringRef importer, unsigned dots, llvm::ArrayRef<std::string> parts) {
  llvm::SmallString<256> path(llvm::sys::path::parent_path(importer));
  for (unsigned d = 1; d < dots; ++d)
    llvm::sys::path::append(path, "..");
  for (size_t p = 0; p + 1 < parts.size(); ++p)
    llvm::sys::path::append(path, parts[p]);
  llvm::sys::path::append(path, parts.back() + ".blk");
  return std::string(path);
}

std::string realPath(llvm::StringRef path) {
  llvm::SmallString<256> real;
  if (!llvm::sys::fs::real_path(path, real))
    return std::string(real);
  return path.str();
}

namespace {

/// The top-level `from ... import` lines of `source`, as paths.
std::vector<std::string> importsOf(llvm::StringRef source, const std::string &filename) {
  std::vector<std::string> paths;
  std::vector<Token> toks = lex(source, std::make_shared<std::string>(filename));
  int depth = 0;
  bool lineStart = true;
  for (size_t t = 0; t < toks.size(); ++t) {
    const Token &tok = toks[t];
    depth += tok.kind == Tok::Indent ? 1 : tok.kind == Tok::Dedent ? -1 : 0;
    bool startsImport = lineStart && depth == 0 && tok.kind == Tok::Ident && tok.text == "from";
    lineStart = tok.kind == Tok::Newline || tok.kind == Tok::Indent || tok.kind == Tok::Dedent;
    if (!startsImport)
      continue;
    unsigned dots = 0;
    std::vector<std::string> parts;
    for (++t; t < toks.size(); ++t) {
      if (toks[t].kind == Tok::Op && toks[t].text == ".")
        dots += parts.empty();
      else if (toks[t].kind == Tok::Ident && toks[t].text != "import")
        parts.push_back(toks[t].text);
      else
        break;
    }
    if (!parts.empty())
      paths.push_back(importPath(filename, dots, parts));
  }
  return paths;
}

void collect(llvm::StringRef source, const std::string &filename, std::set<std::string> &seen,
             std::vector<std::string> &out) {
  for (const std::string &path : importsOf(source, filename)) {
    if (!seen.insert(realPath(path)).second)
      continue;
    auto buffer = llvm::MemoryBuffer::getFile(path);
    if (!buffer)
      continue;
    out.push_back(path + "\n" + (*buffer)->getBuffer().str());
    collect((*buffer)->getBuffer(), path, seen, out);
  }
}

} // namespace

std::vector<std::string> importedSources(llvm::StringRef source, llvm::StringRef filename) {
  std::set<std::string> seen{realPath(filename)};
  std::vector<std::string> out;
  collect(source, filename.str(), seen, out);
  return out;
}

} // namespace blk
