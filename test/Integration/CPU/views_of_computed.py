# Views (permute, flip, slice, expand/squeeze, broadcast) of *computed*
# tensors next to other computations of the same shape. CSE gives those
# computations one shared tensor.empty; the view must keep its source's
# buffer alive, so that bufferization does not write another result in
# place into the buffer a view still reads (the bug: multiply(permute(a),
# permute(a)), which ptensor-layout makes permute(multiply(a, a)), came back
# as add(a, a) transposed). Views of arguments stay copy-free
# (test/Dialect/PTensor/strided-view-bufferize.mlir checks the IR).
# RUN: %python %s %t
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Inputs"))
from harness import *  # noqa: E402,F403

suite = Suite(__file__)
gen = Gen(97)


def vals(dt, *shape):
    return gen.values(dt, int(np.prod(shape))).reshape(shape)


# The reported case: the permuted multiply and the add, both returned.
fn = Func("permute_then_add")
a = fn.arg(TType([4, 3], "f32"), vals("f32", 4, 3))
at = fn.permute_dims(a, [1, 0])
fn.ret(fn.binary("multiply", at, at), fn.binary("add", a, a))
suite.check(fn)

# Dynamic shapes, and the add computed first.
fn = Func("permute_dynamic")
a = fn.arg(TType([None, None], "f64"), vals("f64", 5, 6))
s = fn.binary("add", a, a)
at = fn.permute_dims(a, [1, 0])
fn.ret(s, fn.binary("multiply", at, at))
suite.check(fn)

# Views of computed tensors returned directly, next to same-shaped results:
# a permuted, a flipped and a sliced product, and a view of a view.
fn = Func("views_returned")
a = fn.arg(TType([4, 6], "f32"), vals("f32", 4, 6))
b = fn.arg(TType([4, 6], "f32"), vals("f32", 4, 6))
p = fn.binary("multiply", a, b)
q = fn.binary("subtract", a, b)
r = fn.unary("exp", a)
fn.ret(fn.permute_dims(p, [1, 0]), fn.flip(q, [0, 1]),
       fn.extract_slice(r, [3, 1], [2, 3], [-2, 2]),
       fn.flip(fn.permute_dims(fn.binary("add", a, b), [1, 0]), [1]),
       fn.binary("add", a, a), fn.binary("divide", a, b))
suite.check(fn)

# Views of computed tensors read by later computations, while other
# temporaries of the same shape are written.
fn = Func("views_consumed")
a = fn.arg(TType([3, 4, 5], "f32"), vals("f32", 3, 4, 5))
b = fn.arg(TType([5, 4, 3], "f32"), vals("f32", 5, 4, 3))
t = fn.unary("negative", a)
u = fn.binary("multiply", a, a)
fn.ret(fn.binary("add", fn.permute_dims(t, [2, 1, 0]), b),
       fn.binary("subtract", fn.flip(u, [1]), a),
       fn.binary("add", fn.squeeze(fn.expand_dims(t, 0), [0]), u),
       fn.binary("multiply", a, fn.unary("abs", a)))
suite.check(fn)

# A run-time broadcast (dynamic size, zero strides) of a computed tensor.
fn = Func("broadcast_of_computed")
a = fn.arg(TType([None], "f32"), vals("f32", 6))
m = fn.arg(TType([None, None], "f32"), vals("f32", 4, 6))
n = fn.dim(m, 0)
k = fn.dim(m, 1)
sq = fn.binary("multiply", a, a)
fn.ret(fn.binary("add", fn.broadcast(sq, [None, None], (n, k)), m),
       fn.binary("add", a, a))
suite.check(fn)

sys.exit(suite.finish())
