# elementwise_binary on two operands of different dtypes: signed with unsigned
# (smallest signed type holding both), bool with integers and floats, integers
# with floats (the float type, PyTorch's rule), f16 with f32, bf16 with f16
# (f32), f32 with f64. Integer operands of mixed int/float pairs stay small so
# that their conversion is exact.
# RUN: %python %s %t
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Inputs"))
from binary_cases import *  # noqa: E402,F403

PAIRS = [
    ("i8", "ui8"), ("ui16", "i8"), ("i32", "ui32"), ("ui8", "i16"), ("i16", "i64"),
    ("ui8", "ui32"), ("ui64", "ui16"), ("i1", "i32"), ("i8", "i1"), ("i1", "ui8"),
    ("i32", "f32"), ("f64", "i64"), ("ui8", "f16"), ("i16", "bf16"), ("i1", "f32"),
    ("f16", "f32"), ("bf16", "f16"), ("f32", "f64"), ("bf16", "f64"), ("f16", "f64"),
]

suite = Suite(__file__)
gen = Gen(8)
for i, (da, db) in enumerate(PAIRS):
    fn = binary_func("binary_%s_%s" % (da, db), gen, da, db, dynamic=(i % 2 == 0, False))
    suite.check(fn)
sys.exit(suite.finish())
