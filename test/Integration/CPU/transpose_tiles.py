# Sizes for the GPU's tiled transpose path (an input column-major in the two
# innermost dims, staged through shared memory in 32 x 32 tiles): interior
# tiles take the vector variant when every operand allows 4-element aligned
# accesses (f32/f16/i8..i32, unit stride along the contiguous dim, strides
# and first element aligned), edge tiles and other operands the scalar
# code. On the CPU these are ordinary strided cases; scripts/gpu-check.sh
# runs them on cuda:0. Results equal numpy's.
# RUN: %python %s %t
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Inputs"))
from harness import *  # noqa: E402,F403

suite = Suite(__file__)
gen = Gen(131)
DYN2 = [None, None]
DYN3 = [None, None, None]


def vals(dt, *shape):
    return gen.values(dt, int(np.prod(shape))).reshape(shape)


# a + b.T: whole tiles only (96 x 160), edge tiles (100 x 70), a fused
# chain, and mixed element sizes (f16 + f32 -> f32, i8 + i32).
fn = Func("transposed_tiles")
a = fn.arg(TType(DYN2, "f32"), vals("f32", 96, 160))
b = fn.arg(TType(DYN2, "f32"), vals("f32", 96, 160), order="F")
c = fn.arg(TType(DYN2, "f32"), vals("f32", 100, 70))
d = fn.arg(TType(DYN2, "f32"), vals("f32", 100, 70), order="F")
h = fn.arg(TType(DYN2, "f16"), vals("f16", 64, 96), order="F")
f = fn.arg(TType(DYN2, "f32"), vals("f32", 64, 96))
i8 = fn.arg(TType(DYN2, "i8"), vals("i8", 64, 64), order="F")
i32 = fn.arg(TType(DYN2, "i32"), vals("i32", 64, 64))
fn.ret(fn.binary("add", a, b), fn.binary("add", c, d),
       fn.unary("exp", fn.binary("multiply", fn.binary("subtract", a, b), b)),
       fn.binary("add", h, f), fn.binary("add", i8, i32))
suite.check(fn)

# Transposed views of row-major arguments (permute_dims), batched 3-D (also
# with a 2-D transposed operand broadcast over the batch), and
# f64 (8-byte elements: the scalar code in every tile).
fn = Func("transposed_views")
a = fn.arg(TType(DYN2, "f32"), vals("f32", 128, 64))
b = fn.arg(TType(DYN2, "f32"), vals("f32", 64, 128))
c = fn.arg(TType(DYN3, "f32"), vals("f32", 3, 64, 96))
e = fn.arg(TType(DYN3, "f32"), vals("f32", 3, 96, 64))
g = fn.arg(TType(DYN2, "f64"), vals("f64", 64, 96))
k = fn.arg(TType(DYN2, "f64"), vals("f64", 96, 64))
m = fn.arg(TType(DYN2, "f32"), vals("f32", 96, 64))
fn.ret(fn.binary("add", fn.permute_dims(a, [1, 0]), b),
       fn.binary("multiply", c, fn.permute_dims(e, [0, 2, 1])),
       fn.binary("add", c, fn.permute_dims(m, [1, 0])),
       fn.binary("subtract", g, fn.permute_dims(k, [1, 0])))
suite.check(fn)

# Operands that forbid vectors: a slice starting one column in (first
# element not 16-byte aligned), a row stride that is not a multiple of 4
# (66 columns), a stepped slice (column stride 2).
fn = Func("transposed_unaligned")
a = fn.arg(TType(DYN2, "f32"), vals("f32", 64, 65))
b = fn.arg(TType(DYN2, "f32"), vals("f32", 64, 64), order="F")
c = fn.arg(TType(DYN2, "f32"), vals("f32", 64, 66))
d = fn.arg(TType(DYN2, "f32"), vals("f32", 64, 66), order="F")
s = fn.arg(TType(DYN2, "f32"), vals("f32", 64, 128))
fn.ret(fn.binary("add", fn.extract_slice(a, [0, 1], [64, 64], [1, 1]), b),
       fn.binary("add", c, d),
       fn.binary("add", fn.extract_slice(s, [0, 0], [64, 64], [1, 2]), b))
suite.check(fn)

sys.exit(suite.finish())
