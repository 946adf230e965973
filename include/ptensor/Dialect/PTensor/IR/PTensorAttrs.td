//===- PTensorAttrs.td - ptensor enum attributes -----------*- tablegen -*-===//
//
// The operation kinds of the PTensor RFC's op classification, and the
// per-output promotion methods of `pointwise` (FlagGems' pointwise_dynamic).
// Each enum is an I32EnumAttr so that it prints as a bare keyword.
//
//===----------------------------------------------------------------------===//

#ifndef PTENSOR_ATTRS_TD
#define PTENSOR_ATTRS_TD

include "mlir/IR/EnumAttr.td"

def PTensor_UnaryOpKind : I32EnumAttr<"UnaryOpKind", "kind of ptensor.elementwise_unary", [
  I32EnumAttrCase<"abs", 0>,
  I32EnumAttrCase<"acos", 1>,
  I32EnumAttrCase<"acosh", 2>,
  I32EnumAttrCase<"asin", 3>,
  I32EnumAttrCase<"asinh", 4>,
  I32EnumAttrCase<"atan", 5>,
  I32EnumAttrCase<"atanh", 6>,
  I32EnumAttrCase<"bitwise_invert", 7>,
  I32EnumAttrCase<"ceil", 8>,
  I32EnumAttrCase<"cos", 9>,
  I32EnumAttrCase<"cosh", 10>,
  I32EnumAttrCase<"erf", 11>,
  I32EnumAttrCase<"exp", 12>,
  I32EnumAttrCase<"expm1", 13>,
  I32EnumAttrCase<"floor", 14>,
  I32EnumAttrCase<"log", 15>,
  I32EnumAttrCase<"log1p", 16>,
  I32EnumAttrCase<"log2", 17>,
  I32EnumAttrCase<"log10", 18>,
  I32EnumAttrCase<"negative", 19>,
  I32EnumAttrCase<"positive", 20>,
  I32EnumAttrCase<"reciprocal", 21>,
  I32EnumAttrCase<"round", 22>,
  I32EnumAttrCase<"rsqrt", 23>,
  I32EnumAttrCase<"sigmoid", 24>,
  I32EnumAttrCase<"sign", 25>,
  I32EnumAttrCase<"sin", 26>,
  I32EnumAttrCase<"sinh", 27>,
  I32EnumAttrCase<"square", 28>,
  I32EnumAttrCase<"sqrt", 29>,
  I32EnumAttrCase<"tan", 30>,
  I32EnumAttrCase<"tanh", 31>,
  I32EnumAttrCase<"trunc", 32>
]> {
  let cppNamespace = "::mlir::ptensor";
}

def PTensor_UnaryTestKind : I32EnumAttr<"UnaryTestKind", "kind of ptensor.elementwise_unary_test", [
  I32EnumAttrCase<"isfinite", 0>,
  I32EnumAttrCase<"isinf", 1>,
  I32EnumAttrCase<"isnan", 2>,
  I32EnumAttrCase<"logical_not", 3>,
  I32EnumAttrCase<"signbit", 4>
]> {
  let cppNamespace = "::mlir::ptensor";
}

def PTensor_BinaryOpKind : I32EnumAttr<"BinaryOpKind", "kind of ptensor.elementwise_binary", [
  I32EnumAttrCase<"add", 0>,
  I32EnumAttrCase<"atan2", 1>,
  I32EnumAttrCase<"bitwise_and", 2>,
  I32EnumAttrCase<"bitwise_left_shift", 3>,
  I32EnumAttrCase<"bitwise_or", 4>,
  I32EnumAttrCase<"bitwise_right_shift", 5>,
  I32EnumAttrCase<"bitwise_xor", 6>,
  I32EnumAttrCase<"copysign", 7>,
  I32EnumAttrCase<"divide", 8>,
  I32EnumAttrCase<"floor_divide", 9>,
  I32EnumAttrCase<"hypot", 10>,
  I32EnumAttrCase<"logaddexp", 11>,
  I32EnumAttrCase<"maximum", 12>,
  I32EnumAttrCase<"minimum", 13>,
  I32EnumAttrCase<"multiply", 14>,
  I32EnumAttrCase<"pow", 15>,
  I32EnumAttrCase<"remainder", 16>,
  I32EnumAttrCase<"subtract", 17>
]> {
  let cppNamespace = "::mlir::ptensor";
}

def PTensor_BinaryTestKind : I32EnumAttr<"BinaryTestKind", "kind of ptensor.elementwise_binary_test", [
  I32EnumAttrCase<"equal", 0>,
  I32EnumAttrCase<"greater", 1>,
  I32EnumAttrCase<"greater_equal", 2>,
  I32EnumAttrCase<"less", 3>,
  I32EnumAttrCase<"less_equal", 4>,
  I32EnumAttrCase<"logical_and", 5>,
  I32EnumAttrCase<"logical_or", 6>,
  I32EnumAttrCase<"logical_xor", 7>,
  I32EnumAttrCase<"not_equal", 8>
]> {
  let cppNamespace = "::mlir::ptensor";
}

def PTensor_PromotionMethod : I32EnumAttr<"PromotionMethod", "result dtype rule of a pointwise output", [
  I32EnumAttrCase<"DEFAULT", 0>,
  I32EnumAttrCase<"NO_OPMATH", 1>,
  I32EnumAttrCase<"INT_TO_FLOAT", 2>,
  I32EnumAttrCase<"ALWAYS_BOOL", 3>,
  I32EnumAttrCase<"BOOL_TO_LONG", 4>
]> {
  let cppNamespace = "::mlir::ptensor";
}

def PTensor_ReduceKind : I32EnumAttr<"ReduceKind", "kind of ptensor.reduce", [
  I32EnumAttrCase<"max", 0>,
  I32EnumAttrCase<"mean", 1>,
  I32EnumAttrCase<"min", 2>,
  I32EnumAttrCase<"prod", 3>,
  I32EnumAttrCase<"std", 4>,
  I32EnumAttrCase<"sum", 5>,
  I32EnumAttrCase<"var", 6>
]> {
  let cppNamespace = "::mlir::ptensor";
}

def PTensor_TeamReduceKind : I32EnumAttr<"TeamReduceKind",
    "how ptensor.team_all_reduce combines the processes' values", [
  I32EnumAttrCase<"max", 0>,
  I32EnumAttrCase<"min", 1>,
  I32EnumAttrCase<"prod", 2>,
  I32EnumAttrCase<"sum", 3>
]> {
  let cppNamespace = "::mlir::ptensor";
}

def PTensor_TestKind : I32EnumAttr<"TestKind", "kind of ptensor.test", [
  I32EnumAttrCase<"all", 0>,
  I32EnumAttrCase<"any", 1>
]> {
  let cppNamespace = "::mlir::ptensor";
}

def PTensor_FindIndexKind : I32EnumAttr<"FindIndexKind", "kind of ptensor.find_index", [
  I32EnumAttrCase<"argmax", 0>,
  I32EnumAttrCase<"argmin", 1>
]> {
  let cppNamespace = "::mlir::ptensor";
}

def PTensor_UniqueKind : I32EnumAttr<"UniqueKind", "kind of ptensor.unique", [
  I32EnumAttrCase<"all", 0>,
  I32EnumAttrCase<"counts", 1>,
  I32EnumAttrCase<"inverse", 2>,
  I32EnumAttrCase<"values", 3>
]> {
  let cppNamespace = "::mlir::ptensor";
}

def PTensor_SearchSide : I32EnumAttr<"SearchSide", "side of ptensor.searchsorted", [
  I32EnumAttrCase<"left", 0>,
  I32EnumAttrCase<"right", 1>
]> {
  let cppNamespace = "::mlir::ptensor";
}

def PTensor_CombineKind : I32EnumAttr<"CombineKind", "kind of ptensor.combine", [
  I32EnumAttrCase<"concat", 0>,
  I32EnumAttrCase<"stack", 1>
]> {
  let cppNamespace = "::mlir::ptensor";
}

def PTensor_TriangleKind : I32EnumAttr<"TriangleKind", "kind of ptensor.extract_triangle", [
  I32EnumAttrCase<"lower", 0>,
  I32EnumAttrCase<"upper", 1>
]> {
  let cppNamespace = "::mlir::ptensor";
}

def PTensor_MeshgridIndexing : I32EnumAttr<"MeshgridIndexing", "indexing of ptensor.meshgrid", [
  I32EnumAttrCase<"xy", 0>,
  I32EnumAttrCase<"ij", 1>
]> {
  let cppNamespace = "::mlir::ptensor";
}

#endif // PTENSOR_ATTRS_TD
