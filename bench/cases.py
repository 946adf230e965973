"""The benchmark cases of bench/README.md: ptensor IR, inputs and the
PyTorch expression each is compared with. Shared by build.py (here, where
ptensor-compile runs) and run.py (on the GPU machine)."""

N = 8192  # 8192 x 8192 fp32 = 2^26 elements, far above the H100's 50 MB L2
MM = 4096  # matrix products: 4096^3 multiply-adds
TD = 64  # tensordot: TD x 512 x 512 pairs

T = 'device = "cuda:0"'


def pt(shape, dtype, device=T):
    """The ptensor type of `shape` and `dtype` on `device` (None: the host)."""
    dims = "x".join("?" if d is None else str(d) for d in shape)
    element = f"{dims}x{dtype}" if shape else dtype
    return f"!ptensor.ptensor<{element}, {device}>" if device else f"!ptensor.ptensor<{element}>"


def binary(name, kind, a, b, r, dtype_a="f32", dtype_b="f32", dtype_r="f32",
           pre_b=""):
    """@name(a, b) = kind(a, b'), where b' = b or a view of it (pre_b)."""
    ta, tb, tr = pt(a, dtype_a), pt(b, dtype_b), pt(r, dtype_r)
    body_b = "%b"
    lines = []
    if pre_b:
        lines.append(pre_b.format(b="%b", tb=tb))
        body_b = "%bv"
    lines.append(f"%r = ptensor.elementwise_binary {kind} %a, {body_b} : "
                 f"({ta}, {tb}) -> {tr}")
    body = "\n  ".join(lines)
    return (f"func.func @{name}(%a: {ta}, %b: {tb}) -> {tr} {{\n  {body}\n"
            f"  return %r : {tr}\n}}\n")


def chain(name, shape):
    t = pt(shape, "f32")
    return f"""func.func @{name}(%x: {t}, %y: {t}) -> {t} {{
  %c15 = arith.constant 1.5 : f32
  %c05 = arith.constant 0.5 : f32
  %xy = ptensor.elementwise_binary multiply %x, %y : ({t}, {t}) -> {t}
  %a = ptensor.elementwise_binary add %xy, %c15 : ({t}, f32) -> {t}
  %sq = ptensor.elementwise_unary square %a : ({t}) -> {t}
  %n = ptensor.elementwise_unary negative %sq : ({t}) -> {t}
  %e = ptensor.elementwise_unary exp %n : ({t}) -> {t}
  %h = ptensor.elementwise_binary multiply %e, %c05 : ({t}, f32) -> {t}
  %r = ptensor.elementwise_binary add %h, %x : ({t}, {t}) -> {t}
  return %r : {t}
}}
"""


def flip_last(name):
    t = pt([N, N], "f32")
    return f"""func.func @{name}(%a: {t}) -> {t} {{
  %f = ptensor.flip %a [1] : {t} -> {t}
  %r = ptensor.pointwise (%f) promotion [DEFAULT] : ({t}) -> ({t}) {{
  ^bb0(%x: f32):
    ptensor.yield %x : f32
  }}
  return %r : {t}
}}
"""


def diff_last(name):
    """a[:, 1:] - a[:, :-1] (numpy's diff along rows): rows of N - 1
    elements, one view unaligned, so neither vector path applies and the
    general path (any strides) runs."""
    t, tr = pt([N, N], "f32"), pt([N, N - 1], "f32")
    return f"""func.func @{name}(%a: {t}) -> {tr} {{
  %x = ptensor.extract_slice %a [0, 1] [{N}, {N - 1}] [1, 1] : {t} -> {tr}
  %y = ptensor.extract_slice %a [0, 0] [{N}, {N - 1}] [1, 1] : {t} -> {tr}
  %r = ptensor.elementwise_binary subtract %x, %y : ({tr}, {tr}) -> {tr}
  return %r : {tr}
}}
"""


# GELU's tanh form as a pointwise body (what cuBLASLt's GELU epilogue
# computes).
GELU_TANH_BODY = """^bb0(%x: f32):
    %c0 = arith.constant 0.7978845608028654 : f32
    %c1 = arith.constant 0.044715 : f32
    %one = arith.constant 1.0 : f32
    %half = arith.constant 0.5 : f32
    %x2 = arith.mulf %x, %x : f32
    %x3 = arith.mulf %x2, %x : f32
    %k = arith.mulf %c1, %x3 : f32
    %s = arith.addf %x, %k : f32
    %u = arith.mulf %c0, %s : f32
    %t = math.tanh %u : f32
    %p = arith.addf %one, %t : f32
    %hx = arith.mulf %half, %x : f32
    %r = arith.mulf %hx, %p : f32
    ptensor.yield %r : f32"""


def gelu_bf16(name):
    t = pt([N, N], "bf16")
    return (f"func.func @{name}(%a: {t}) -> {t} {{\n"
            f"  %r = ptensor.pointwise (%a) promotion [DEFAULT] : ({t}) -> ({t}) {{\n"
            f"  {GELU_TANH_BODY}\n  }}\n  return %r : {t}\n}}\n")


def reduction(name, op, kind, shape, rshape, where="", dtype_r="f32"):
    """@name(a) = the reduction `op kind` of a over `where` (`axes [1]`)."""
    ta, tr = pt(shape, "f32"), pt(rshape, dtype_r)
    return (f"func.func @{name}(%a: {ta}) -> {tr} {{\n"
            f"  %r = ptensor.{op} {kind} %a {where} : {ta} -> {tr}\n"
            f"  return %r : {tr}\n}}\n")


def sum_sq_diff(name):
    t, r = pt([N, N], "f32"), pt([], "f32")
    return f"""func.func @{name}(%a: {t}, %b: {t}) -> {r} {{
  %d = ptensor.elementwise_binary subtract %a, %b : ({t}, {t}) -> {t}
  %q = ptensor.elementwise_binary multiply %d, %d : ({t}, {t}) -> {t}
  %r = ptensor.reduce sum %q : {t} -> {r}
  return %r : {r}
}}
"""


def softmax_rows(name, rows=N, cols=N, device=T):
    """softmax over the last dim, as a user writes it (max, exp(x - max),
    sum, divide): one row-group kernel (bench/cpu_reductions.py compiles it
    for the host, device None)."""
    t, k = pt([rows, cols], "f32", device), pt([rows, 1], "f32", device)
    return f"""func.func @{name}(%a: {t}) -> {t} {{
  %m = ptensor.reduce max %a axes [1] {{keepdims = true}} : {t} -> {k}
  %d = ptensor.elementwise_binary subtract %a, %m : ({t}, {k}) -> {t}
  %e = ptensor.elementwise_unary exp %d : ({t}) -> {t}
  %s = ptensor.reduce sum %e axes [1] {{keepdims = true}} : {t} -> {k}
  %r = ptensor.elementwise_binary divide %e, %s : ({t}, {k}) -> {t}
  return %r : {t}
}}
"""


def standardize_rows(name):
    """(x - mean) / std over the last dim: one row-group kernel."""
    t, k = pt([N, N], "f32"), pt([N, 1], "f32")
    return f"""func.func @{name}(%a: {t}) -> {t} {{
  %m = ptensor.reduce mean %a axes [1] {{keepdims = true}} : {t} -> {k}
  %s = ptensor.reduce std %a axes [1] {{keepdims = true}} : {t} -> {k}
  %d = ptensor.elementwise_binary subtract %a, %m : ({t}, {k}) -> {t}
  %r = ptensor.elementwise_binary divide %d, %s : ({t}, {k}) -> {t}
  return %r : {t}
}}
"""


def matmul(name, a, b, r, dtype="f32", op="matmul", pre_a=""):
    """@name(a, b) = op(a', b) with a' = a or a view of it (pre_a)."""
    ta, tb, tr = pt(a, dtype), pt(b, dtype), pt(r, dtype)
    lines, lhs = [], "%a"
    if pre_a:
        lines.append(pre_a.format(a="%a", ta=ta))
        lhs = "%av"
    lines.append(f"%r = ptensor.{op} {lhs}, %b : ({ta}, {tb}) -> {tr}")
    body = "\n  ".join(lines)
    return (f"func.func @{name}(%a: {ta}, %b: {tb}) -> {tr} {{\n  {body}\n"
            f"  return %r : {tr}\n}}\n")



def tensordot(name, a, b, r, lhs_axes, rhs_axes, dtype="f32"):
    """@name(a, b) = tensordot(a, b) over the pairs of lhs_axes, rhs_axes."""
    ta, tb, tr = pt(a, dtype), pt(b, dtype), pt(r, dtype)
    axes = (f"lhs_axes = array<i64: {', '.join(map(str, lhs_axes))}>, "
            f"rhs_axes = array<i64: {', '.join(map(str, rhs_axes))}>")
    return (f"func.func @{name}(%a: {ta}, %b: {tb}) -> {tr} {{\n"
            f"  %r = ptensor.tensordot %a, %b {{{axes}}} : ({ta}, {tb}) -> {tr}\n"
            f"  return %r : {tr}\n}}\n")


def linear(name, n, dtype, activation, dynamic=False):
    """@name(a, b, bias) = activation(a @ b + bias), n x n matrices (sizes
    dynamic in the IR with `dynamic`), with activation "relu" (maximum with
    0) or "gelu" (the tanh form, written out in a pointwise body)."""
    size = None if dynamic else n
    t, tv = pt([size, size], dtype), pt([size], dtype)
    if activation == "relu":
        act = (f"%zero = arith.constant 0.0 : f32\n"
               f"  %r = ptensor.elementwise_binary maximum %lin, %zero : ({t}, f32) -> {t}")
    else:
        act = (f"%r = ptensor.pointwise (%lin) promotion [DEFAULT] : ({t}) -> ({t}) {{\n"
               f"  {GELU_TANH_BODY}\n  }}")
    return (f"func.func @{name}(%a: {t}, %b: {t}, %bias: {tv}) -> {t} {{\n"
            f"  %mm = ptensor.matmul %a, %b : ({t}, {t}) -> {t}\n"
            f"  %lin = ptensor.elementwise_binary add %mm, %bias : ({t}, {tv}) -> {t}\n"
            f"  {act}\n  return %r : {t}\n}}\n")


def manipulation(name, inputs, result, op_text, dtype_r="f32", dtype="f32"):
    """@name(inputs...) -> result computed by one op: `op_text` formatted
    with the operand names (%a, %b), their types (ta, tb) and tr (`dtype`
    operands, a `dtype_r` result)."""
    names = ["%a", "%b"][:len(inputs)]
    types = [pt(shape, dtype) for shape in inputs]
    tr = pt(result, dtype_r)
    args = ", ".join(f"{n}: {t}" for n, t in zip(names, types))
    text = op_text.format(ta=types[0], tb=types[-1], tr=tr)
    return (f"func.func @{name}({args}) -> {tr} {{\n  %r = {text}\n"
            f"  return %r : {tr}\n}}\n")


TRANSPOSE = ("%bv = ptensor.permute_dims {b} [1, 0] : {tb} -> {tb}")


def compaction(name, n, dtype, kind, result):
    """@name(a: n x dtype) -> result #`result` of `kind` (a ptensor.nonzero
    or ptensor.unique <kind>, whose results are all 1-D of a dynamic size)."""
    ta = pt([n], dtype)
    if kind == "nonzero":
        types = [pt([None], "i64")]
        op = "ptensor.nonzero %a"
    else:
        types = [pt([None], dtype), pt([None], "i64")][:1 + (kind == "counts")]
        op = f"ptensor.unique {kind} %a"
    tr = types[result]
    return (f"func.func @{name}(%a: {ta}) -> {tr} {{\n"
            f"  %r:{len(types)} = {op} : {ta} -> ({', '.join(types)})\n"
            f"  return %r#{result} : {tr}\n}}\n")

#: The sort benchmarks' sizes (the issue's anchors: torch and CuPy on 2^24
#: f32, torch's row-wise sort of 4096 x 4096).
SORT_N, SORT_ROWS = 2 ** 24, 4096
#: The lengths of the row sort cases (sort_rows_<n>).
SORT_ROW_LENGTHS = (32, 64, 128, 256, 512, 1024, 2048)
#: The compaction benchmarks' sizes (the issue's anchors: nonzero of 2^26
#: bools, half true; unique of 2^24 int64 in [0, 2^16)).
NONZERO_N, UNIQUE_N = 2 ** 26, 2 ** 24
#: A make_inputs dtype: int64 uniform in [0, 2^16).
I64_U16 = "int64_u16"
#: searchsorted's sizes: 2^24 float32 values in a sorted line of 2^20 (4 MiB:
#: it stays in the H100's L2), and the make_inputs dtype of a sorted line.
SEARCH_N, SEARCH_LINE = 2 ** 24, 2 ** 20
F32_SORTED = "float32_sorted"

# name -> (IR, input specs [(shape, torch dtype name, layout)], torch expr,
#          bytes moved per call)
F32, F16, BF16 = "float32", "float16", "bfloat16"
CASES = {
    "contiguous_add": (binary("contiguous_add", "add", [N, N], [N, N], [N, N]),
                       [([N, N], F32), ([N, N], F32)], "a + b", 3 * N * N * 4),
    "row_broadcast": (binary("row_broadcast", "add", [N, N], [N], [N, N]),
                      [([N, N], F32), ([N], F32)], "a + b", (2 * N * N + N) * 4),
    "outer_add": (binary("outer_add", "add", [N, 1], [1, N], [N, N]),
                  [([N, 1], F32), ([1, N], F32)], "a + b", (N * N + 2 * N) * 4),
    "transposed_add": (binary("transposed_add", "add", [N, N], [N, N], [N, N],
                              pre_b=TRANSPOSE),
                       [([N, N], F32), ([N, N], F32)], "a + b.T", 3 * N * N * 4),
    # Rows and columns not a multiple of the 64 x 64 tile (but of the
    # 16-byte vector): the vector kernel takes the interior tiles, the
    # scalar one the last tile row and column.
    "transposed_add_ragged": (binary("transposed_add_ragged", "add", [N - 4, N - 4],
                                     [N - 4, N - 4], [N - 4, N - 4], pre_b=TRANSPOSE),
                              [([N - 4, N - 4], F32), ([N - 4, N - 4], F32)], "a + b.T",
                              3 * (N - 4) ** 2 * 4),
    "flip_last": (flip_last("flip_last"), [([N, N], F32)],
                  "torch.flip(a, [-1])", 2 * N * N * 4),
    "diff_last": (diff_last("diff_last"), [([N, N], F32)],
                  "a[:, 1:] - a[:, :-1]", 2 * N * (N - 1) * 4),
    "f16_plus_f32": (binary("f16_plus_f32", "add", [N, N], [N, N], [N, N],
                            dtype_a="f16"),
                     [([N, N], F16), ([N, N], F32)], "a + b", N * N * (2 + 4 + 4)),
    "bf16_gelu": (gelu_bf16("bf16_gelu"), [([N, N], BF16)],
                  "torch.nn.functional.gelu(a, approximate='tanh')", 2 * N * N * 2),
    "chain": (chain("chain", [N, N]), [([N, N], F32), ([N, N], F32)],
              "torch.exp(-((a * b + 1.5) ** 2)) * 0.5 + a", 3 * N * N * 4),
    "contiguous_add_dynamic": (binary("contiguous_add_dynamic", "add", [None, None],
                                      [None, None], [None, None]),
                               [([N, N], F32), ([N, N], F32)], "a + b", 3 * N * N * 4),
    "chain_dynamic": (chain("chain_dynamic", [None, None]),
                      [([N, N], F32), ([N, N], F32)],
                      "torch.exp(-((a * b + 1.5) ** 2)) * 0.5 + a", 3 * N * N * 4),
    # More than 2^31 elements: the 64-bit index kernel (checked, and timed).
    "big_add_i8_2g": (binary("big_add_i8_2g", "add", [None], [None], [None],
                             dtype_a="i8", dtype_b="i8", dtype_r="i8"),
                      [([2**31 + 64], "int8"), ([2**31 + 64], "int8")], "a + b",
                      3 * (2**31 + 64)),
    # Reductions (fractions: the bytes that must move: the input, once).
    "sum_all": (reduction("sum_all", "reduce", "sum", [N * N], []),
                [([N * N], F32)], "a.sum()", N * N * 4),
    "sum_rows": (reduction("sum_rows", "reduce", "sum", [N, N], [N], "axes [1]"),
                 [([N, N], F32)], "a.sum(-1)", (N * N + N) * 4),
    # Issue 13's odd shapes: many rows of 3, three rows of 10^6, the rows of
    # a transposed view.
    "sum_4096": (reduction("sum_4096", "reduce", "sum", [4096], []),
                 [([4096], F32)], "a.sum()", 4096 * 4),
    "sum_rows_1000x3": (reduction("sum_rows_1000x3", "reduce", "sum", [1000, 3], [1000],
                                  "axes [1]"),
                        [([1000, 3], F32)], "a.sum(-1)", (3000 + 1000) * 4),
    "sum_rows_3x1e6": (reduction("sum_rows_3x1e6", "reduce", "sum", [3, 10**6], [3],
                                 "axes [1]"),
                       [([3, 10**6], F32)], "a.sum(-1)", (3 * 10**6 + 3) * 4),
    "sum_rows_transposed": (
        f"func.func @sum_rows_transposed(%a: {pt([N, N], 'f32')}) -> {pt([N], 'f32')} {{\n"
        f"  %t = ptensor.permute_dims %a [1, 0] : {pt([N, N], 'f32')} -> {pt([N, N], 'f32')}\n"
        f"  %r = ptensor.reduce sum %t axes [1] : {pt([N, N], 'f32')} -> {pt([N], 'f32')}\n"
        f"  return %r : {pt([N], 'f32')}\n}}\n",
        [([N, N], F32)], "a.T.sum(-1)", (N * N + N) * 4),
    "sum_cols": (reduction("sum_cols", "reduce", "sum", [N, N], [N], "axes [0]"),
                 [([N, N], F32)], "a.sum(0)", (N * N + N) * 4),
    "max_rows": (reduction("max_rows", "reduce", "max", [N, N], [N], "axes [1]"),
                 [([N, N], F32)], "a.amax(-1)", (N * N + N) * 4),
    "mean_rows": (reduction("mean_rows", "reduce", "mean", [N, N], [N], "axes [1]"),
                  [([N, N], F32)], "a.mean(-1)", (N * N + N) * 4),
    "var_rows": (reduction("var_rows", "reduce", "var", [N, N], [N], "axes [1]"),
                 [([N, N], F32)], "a.var(-1, correction=0)", (N * N + N) * 4),
    "argmax_rows": (reduction("argmax_rows", "find_index", "argmax", [N, N], [N], "axis 1",
                              dtype_r="i64"),
                    [([N, N], F32)], "a.argmax(-1)", N * N * 4 + N * 8),
    "softmax_rows": (softmax_rows("softmax_rows"), [([N, N], F32)],
                     "torch.softmax(a, -1)", 2 * N * N * 4),
    "standardize_rows": (standardize_rows("standardize_rows"), [([N, N], F32)],
                         "(a - a.mean(-1, keepdim=True)) / a.std(-1, correction=0, "
                         "keepdim=True)", 2 * N * N * 4),
    "sum_sq_diff": (sum_sq_diff("sum_sq_diff"), [([N, N], F32), ([N, N], F32)],
                    "((a - b) ** 2).sum()", 2 * N * N * 4),
    # Linear algebra: matrix products through cuBLASLt (FLOPS below), a
    # matrix-vector product and row dot products generated (bandwidth).
    "mm_f32": (matmul("mm_f32", [MM, MM], [MM, MM], [MM, MM]),
               [([MM, MM], F32), ([MM, MM], F32)], "a @ b", 3 * MM * MM * 4),
    "mm_f32_at": (matmul("mm_f32_at", [MM, MM], [MM, MM], [MM, MM],
                         pre_a="%av = ptensor.permute_dims {a} [1, 0] : {ta} -> {ta}"),
                  [([MM, MM], F32), ([MM, MM], F32)], "a.T @ b", 3 * MM * MM * 4),
    "mm_bf16": (matmul("mm_bf16", [MM, MM], [MM, MM], [MM, MM], "bf16"),
                [([MM, MM], BF16), ([MM, MM], BF16)], "a @ b", 3 * MM * MM * 2),
    "mm_f16": (matmul("mm_f16", [MM, MM], [MM, MM], [MM, MM], "f16"),
               [([MM, MM], F16), ([MM, MM], F16)], "a @ b", 3 * MM * MM * 2),
    "bmm_f32": (matmul("bmm_f32", [32, 512, 512], [32, 512, 512], [32, 512, 512]),
                [([32, 512, 512], F32), ([32, 512, 512], F32)], "a @ b",
                3 * 32 * 512 * 512 * 4),
    # TF32 allowed on both sides (TF32_CASES: ptensor.set_allow_tf32,
    # torch.backends.cuda.matmul.allow_tf32), checked against full f32.
    "mm_f32_tf32": (matmul("mm_f32_tf32", [MM, MM], [MM, MM], [MM, MM]),
                    [([MM, MM], F32), ([MM, MM], F32)], "a @ b", 3 * MM * MM * 4),
    # Two contracted axes of 64 x 512 x 512 pairs: one loop of 262144 for
    # cuBLASLt, a 64 x 64 result.
    "tensordot_f32": (tensordot("tensordot_f32", [TD, 512, 512], [TD, 512, 512], [TD, TD],
                                [1, 2], [1, 2]),
                      [([TD, 512, 512], F32), ([TD, 512, 512], F32)],
                      "torch.tensordot(a, b, dims=([1, 2], [1, 2]))",
                      (2 * TD * 512 * 512 + TD * TD) * 4),
    # Matrix products with elementwise consumers: cuBLASLt's epilogues.
    "mm_bias_relu_f32": (linear("mm_bias_relu_f32", MM, "f32", "relu"),
                         [([MM, MM], F32), ([MM, MM], F32), ([MM], F32)],
                         "torch.relu(a @ b + c)", 4 * MM * MM * 4),
    # Dynamic sizes: the epilogue is taken where the sums are not broadcast
    # at run time.
    "mm_bias_relu_f32_dynamic": (linear("mm_bias_relu_f32_dynamic", MM, "f32", "relu",
                                        dynamic=True),
                                 [([MM, MM], F32), ([MM, MM], F32), ([MM], F32)],
                                 "torch.relu(a @ b + c)", 4 * MM * MM * 4),
    "mm_bias_gelu_bf16": (linear("mm_bias_gelu_bf16", MM, "bf16", "gelu"),
                          [([MM, MM], BF16), ([MM, MM], BF16), ([MM], BF16)],
                          "torch.nn.functional.gelu(a @ b + c, approximate='tanh')",
                          4 * MM * MM * 2),
    "matvec_f32": (matmul("matvec_f32", [N, N], [N], [N]),
                   [([N, N], F32), ([N], F32)], "a @ b", (N * N + 2 * N) * 4),
    "vecdot_rows": (matmul("vecdot_rows", [N, N], [N, N], [N], op="vecdot"),
                    [([N, N], F32), ([N, N], F32)], "(a * b).sum(-1)", (2 * N * N + N) * 4),
    # Manipulation (fractions: the bytes read and written once).
    "concat_rows": (manipulation("concat_rows", [[N, N], [N, N]], [2 * N, N],
                                 "ptensor.combine concat %a, %b axis 0 : ({ta}, {tb}) -> {tr}"),
                    [([N, N], F32), ([N, N], F32)], "torch.cat([a, b], 0)", 4 * N * N * 4),
    "concat_cols": (manipulation("concat_cols", [[N, N], [N, N]], [N, 2 * N],
                                 "ptensor.combine concat %a, %b axis 1 : ({ta}, {tb}) -> {tr}"),
                    [([N, N], F32), ([N, N], F32)], "torch.cat([a, b], 1)", 4 * N * N * 4),
    "stack_rows": (manipulation("stack_rows", [[N, N], [N, N]], [2, N, N],
                                "ptensor.combine stack %a, %b axis 0 : ({ta}, {tb}) -> {tr}"),
                   [([N, N], F32), ([N, N], F32)], "torch.stack([a, b])", 4 * N * N * 4),
    "roll_last": (manipulation("roll_last", [[N, N]], [N, N],
                               "ptensor.roll %a shifts [1] axes [1] : {ta} -> {tr}"),
                  [([N, N], F32)], "torch.roll(a, 1, -1)", 2 * N * N * 4),
    "roll_last_dynamic": (manipulation("roll_last_dynamic", [[None, None]], [None, None],
                                       "ptensor.roll %a shifts [1] axes [1] : {ta} -> {tr}"),
                          [([N, N], F32)], "torch.roll(a, 1, -1)", 2 * N * N * 4),
    "tril": (manipulation("tril", [[N, N]], [N, N],
                          "ptensor.extract_triangle lower %a : {ta} -> {tr}"),
             [([N, N], F32)], "torch.tril(a)", 2 * N * N * 4),
    "reshape_t": (manipulation("reshape_t", [[N, N]], [N * N],
                               "ptensor.reshape %a [-1] : {ta} -> {tr}").replace(
                                   "%r = ptensor.reshape %a", "%t = ptensor.permute_dims %a [1, 0] : "
                                   + pt([N, N], "f32") + " -> " + pt([N, N], "f32")
                                   + "\n  %r = ptensor.reshape %t"),
                  [([N, N], F32)], "a.T.reshape(-1)", 2 * N * N * 4),
    # Sorting through CUB (fractions: the input read and the result written
    # once; a radix sort moves several times that).
    "sort_1d": (manipulation("sort_1d", [[SORT_N]], [SORT_N],
                             "ptensor.sort %a : {ta} -> {tr}"),
                [([SORT_N], F32)], "torch.sort(a).values", 2 * SORT_N * 4),
    "argsort_1d": (manipulation("argsort_1d", [[SORT_N]], [SORT_N],
                                "ptensor.argsort %a : {ta} -> {tr}", dtype_r="i64"),
                   [([SORT_N], F32)], "torch.argsort(a, stable=True)", SORT_N * (4 + 8)),
    "sort_rows": (manipulation("sort_rows", [[SORT_ROWS, SORT_ROWS]], [SORT_ROWS, SORT_ROWS],
                               "ptensor.sort %a : {ta} -> {tr}"),
                  [([SORT_ROWS, SORT_ROWS], F32)], "torch.sort(a, -1).values",
                  2 * SORT_ROWS * SORT_ROWS * 4),
    "argsort_rows": (manipulation("argsort_rows", [[SORT_ROWS, SORT_ROWS]], [SORT_ROWS, SORT_ROWS],
                                  "ptensor.argsort %a : {ta} -> {tr}", dtype_r="i64"),
                     [([SORT_ROWS, SORT_ROWS], F32)], "torch.argsort(a, stable=True, dim=-1)",
                     SORT_ROWS * SORT_ROWS * (4 + 8)),
    # Rows longer than a block sorts in shared memory (4096): the
    # segmented sort of keys.
    "sort_rows_long": (manipulation("sort_rows_long", [[SORT_ROWS // 4, SORT_ROWS * 4]],
                                    [SORT_ROWS // 4, SORT_ROWS * 4],
                                    "ptensor.sort %a : {ta} -> {tr}"),
                       [([SORT_ROWS // 4, SORT_ROWS * 4], F32)], "torch.sort(a, -1).values",
                       2 * SORT_ROWS * SORT_ROWS * 4),
    # Compaction through CUB (fractions: the input read and the result
    # written once).
    "nonzero_1d": (compaction("nonzero_1d", NONZERO_N, "i1", "nonzero", 0),
                   [([NONZERO_N], "bool")], "torch.nonzero(a, as_tuple=True)[0]",
                   NONZERO_N * (1 + 8 // 2)),
    # x[mask] (issue 14's anchor: half of 2^26 f32 kept; fractions: the
    # values and the mask read, the kept half written once).
    "mask_extract": (
        f"func.func @mask_extract(%a: {pt([NONZERO_N], 'f32')}, "
        f"%b: {pt([NONZERO_N], 'i1')}) -> {pt([None], 'f32')} {{\n"
        f"  %r = ptensor.extract_mask %a, %b : ({pt([NONZERO_N], 'f32')}, "
        f"{pt([NONZERO_N], 'i1')}) -> {pt([None], 'f32')}\n"
        f"  return %r : {pt([None], 'f32')}\n}}\n",
        [([NONZERO_N], F32), ([NONZERO_N], "bool")], "a[b]",
        NONZERO_N * (4 + 1 + 4 // 2)),
    "unique_i64": (compaction("unique_i64", UNIQUE_N, "i64", "values", 0),
                   [([UNIQUE_N], I64_U16)], "torch.unique(a)", UNIQUE_N * 8),
    "unique_counts_i64": (compaction("unique_counts_i64", UNIQUE_N, "i64", "counts", 1),
                          [([UNIQUE_N], I64_U16)],
                          "torch.unique(a, return_counts=True)[1]", UNIQUE_N * 8),
    # A binary search per value (fractions: the values read and the indices
    # written once; the line's reads hit L2).
    "searchsorted": (manipulation("searchsorted", [[SEARCH_LINE], [SEARCH_N]], [SEARCH_N],
                                  "ptensor.searchsorted %a, %b : ({ta}, {tb}) -> {tr}",
                                  dtype_r="i64"),
                     [([SEARCH_LINE], F32_SORTED), ([SEARCH_N], F32)],
                     "torch.searchsorted(a, b)", SEARCH_N * (4 + 8)),
    "small_add_4096": (binary("small_add_4096", "add", [4096], [4096], [4096]),
                       [([4096], F32), ([4096], F32)], "a + b", 3 * 4096 * 4),
}

# Rows of n, 2^24 elements in all (short ones: a sort along a short axis):
# the segmented sort, a warp per line, blocks of each size (SortKernels.cu
# lineShapeFor).
for _n in SORT_ROW_LENGTHS:
    _name = f"sort_rows_{_n}"
    _shape = [SORT_N // _n, _n]
    CASES[_name] = (manipulation(_name, [_shape], _shape, "ptensor.sort %a : {ta} -> {tr}"),
                    [(_shape, F32)], "torch.sort(a, -1).values", 2 * SORT_N * 4)
# f64 rows of 2048 (the segmented sort: a 256 x 8 block each was no faster).
_shape = [SORT_N // 2048, 2048]
CASES["sort_rows_f64"] = (
    manipulation("sort_rows_f64", [_shape], _shape, "ptensor.sort %a : {ta} -> {tr}",
                 dtype_r="f64", dtype="f64"),
    [(_shape, "float64")], "torch.sort(a, -1).values", 2 * SORT_N * 8)

# The floating-point operations of the matrix-product cases (timed as
# TFLOP/s beside torch and CuPy, which call cuBLAS).
FLOPS = {"mm_f32": 2 * MM ** 3, "mm_f32_at": 2 * MM ** 3, "mm_bf16": 2 * MM ** 3,
         "mm_f16": 2 * MM ** 3, "bmm_f32": 2 * 32 * 512 ** 3,
         "mm_bias_relu_f32": 2 * MM ** 3, "mm_bias_relu_f32_dynamic": 2 * MM ** 3,
         "mm_bias_gelu_bf16": 2 * MM ** 3, "mm_f32_tf32": 2 * MM ** 3,
         "tensordot_f32": 2 * TD * TD * 512 * 512}
# Cases timed with TF32 allowed (both sides) and checked with a TF32
# tolerance against the full-f32 product.
TF32_CASES = {"mm_f32_tf32"}

# Kernel-configuration sweep: these cases are also compiled with each of
# these ptensor-to-nvvm-pipeline options (run.py times every variant, after
# checking it against the default build's result).
SWEEP_CASES = ["contiguous_add", "row_broadcast", "transposed_add", "f16_plus_f32",
               "bf16_gelu", "chain", "sum_all", "sum_rows", "sum_cols", "max_rows",
               "argmax_rows", "mean_rows", "var_rows", "softmax_rows",
               "standardize_rows", "matvec_f32",
               "diff_last", "roll_last", "roll_last_dynamic", "reshape_t"]
# The defaults are block-size=128 max-blocks=65535 unroll=4 transpose-tile=64
# transpose-group=8 transpose-max-blocks=65535 reduction-lanes=1 (chosen
# from earlier sweeps, see RESULTS.md).
SWEEP_CONFIGS = {
    "b256-g1056-u1": "block-size=256 max-blocks=1056 unroll=1 transpose-group=1",
    "u1": "unroll=1",
    "u2": "unroll=2",
    "lanes2": "reduction-lanes=2",
    "lanes4": "reduction-lanes=4",
    "group1": "transpose-group=1",
    "tgrid1056": "transpose-max-blocks=1056",
    "tgrid2112": "transpose-max-blocks=2112",
    "tile32": "transpose-tile=32",
    "tile32-tgrid1056": "transpose-tile=32 transpose-max-blocks=1056",
    "rows6": "row-blocks-per-sm=6",
    "rows8": "row-blocks-per-sm=8",
}


def selected_cases(names):
    """The case names of a comma-separated `names` (None: every case), in
    CASES order; an unknown name is an error naming the known ones."""
    if not names:
        return list(CASES)
    wanted = names.split(",")
    unknown = [n for n in wanted if n not in CASES]
    if unknown:
        raise SystemExit(f"unknown benchmark case(s) {', '.join(unknown)}; "
                         f"known: {', '.join(CASES)}")
    return [n for n in CASES if n in wanted]
