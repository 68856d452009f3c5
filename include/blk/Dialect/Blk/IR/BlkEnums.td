#ifndef BLK_ENUMS_TD
#define BLK_ENUMS_TD

include "mlir/IR/EnumAttr.td"

def Blk_AtomicRMWKind : I32EnumAttr<"AtomicRMWKind", "the operation of an atomic read-modify-write", [
    I32EnumAttrCase<"Add", 0, "add">,
    I32EnumAttrCase<"Max", 1, "max">,   // signed integers and floats
    I32EnumAttrCase<"Min", 2, "min">,
    I32EnumAttrCase<"UMax", 3, "umax">, // unsigned integers
    I32EnumAttrCase<"UMin", 4, "umin">,
    I32EnumAttrCase<"Xchg", 5, "xchg">,
    I32EnumAttrCase<"And", 6, "and">,
    I32EnumAttrCase<"Or", 7, "or">,
    I32EnumAttrCase<"Xor", 8, "xor">]> {
  let cppNamespace = "::blk";
}

// Memory ordering of an atomic, as PTX names it (Triton's `sem`).
def Blk_MemSemantic : I32EnumAttr<"MemSemantic", "memory ordering of an atomic", [
    I32EnumAttrCase<"Relaxed", 0, "relaxed">,
    I32EnumAttrCase<"Acquire", 1, "acquire">,
    I32EnumAttrCase<"Release", 2, "release">,
    I32EnumAttrCase<"AcqRel", 3, "acq_rel">]> {
  let cppNamespace = "::blk";
}

// Which threads an atomic orders against (Triton's `scope`).
def Blk_MemScope : I32EnumAttr<"MemScope", "scope of an atomic", [
    I32EnumAttrCase<"Cta", 0, "cta">,
    I32EnumAttrCase<"Gpu", 1, "gpu">,
    I32EnumAttrCase<"Sys", 2, "sys">]> {
  let cppNamespace = "::blk";
}

// How long loaded or stored lines should stay in L2 (Triton's
// `eviction_policy`): evict_last keeps data a later pass reads again.
def Blk_EvictionPolicy : I32EnumAttr<"EvictionPolicy", "L2 eviction priority of a global access", [
    I32EnumAttrCase<"Normal", 0, "evict_normal">,
    I32EnumAttrCase<"First", 1, "evict_first">,
    I32EnumAttrCase<"Last", 2, "evict_last">]> {
  let cppNamespace = "::blk";
}

#endif
