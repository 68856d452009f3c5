// Tuples and block pointers cross runtime branches and loops as their
// leaves: an scf.if or scf.for carries one SSA value per leaf, and the value
// is put back together from them on the other side.
#include "Generator.h"

namespace blk {

void Generator::appendLeaves(const TV &v, std::vector<TV> &out) {
  if (v.kind != TV::Tuple && v.kind != TV::BlockPtr) {
    out.push_back(v);
    return;
  }
  for (const TV &e : v.elements)
    appendLeaves(e, out);
}

bool Generator::sameForm(const TV &a, const TV &b) {
  bool aLeaf = a.kind != TV::Tuple && a.kind != TV::BlockPtr;
  bool bLeaf = b.kind != TV::Tuple && b.kind != TV::BlockPtr;
  if (aLeaf || bLeaf)
    return aLeaf && bLeaf;
  if (a.kind != b.kind || a.elements.size() != b.elements.size() || a.blockShape != b.blockShape ||
      a.order != b.order)
    return false;
  for (size_t e = 0; e < a.elements.size(); ++e)
    if (!sameForm(a.elements[e], b.elements[e]))
      return false;
  return true;
}

TV Generator::withLeaves(const TV &form, llvm::ArrayRef<TV> leaves, size_t &pos) {
  if (form.kind != TV::Tuple && form.kind != TV::BlockPtr)
    return leaves[pos++];
  TV out = form;
  for (TV &e : out.elements)
    e = withLeaves(e, leaves, pos);
  return out;
}

} // namespace blk
