"""ptensor._core is the compiler's own semantics library: the op-kind table,
result dtypes and messages that Python gets are the dialect's. The first
test checks that claim against ptensor-opt itself: for every op kind and a
spread of operand dtypes it writes the op with the result type _core infers,
or, where _core rejects the operands, an `expected-error` with _core's
message, and runs `ptensor-opt --verify-diagnostics` over all of them."""

import os
import subprocess

import pytest

from ptensor import _core
from ptensor import _dtypes as D
from ptensor import BroadcastError, DTypeError, DeviceError

UNARY_DTYPES = ("i1", "i32", "ui8", "f16", "bf16", "f64")
BINARY_OPERANDS = (
    (("i1", False), ("i1", False)), (("i32", False), ("f32", False)),
    (("ui8", False), ("i8", False)), (("f16", False), ("bf16", False)),
    (("i16", False), ("f64", True)), (("i1", False), ("i64", True)),
    (("ui64", False), ("i32", False)), (("f32", False), ("ui64", False)),
)


def _ptensor_opt():
    build = os.environ.get("PTENSOR_BUILD_DIR")
    path = os.path.join(build, "bin", "ptensor-opt") if build else None
    return path if path and os.access(path, os.X_OK) else None


def _type(dt, weak):
    if weak:
        return D.storage_type(dt)  # a builtin scalar operand
    return "!ptensor.ptensor<4x?x%s>" % dt


def _case(n, op, kind, operands):
    args = ", ".join("%%a%d: %s" % (i, _type(*o)) for i, o in enumerate(operands))
    types = ", ".join(_type(*o) for o in operands)
    names = ", ".join("%%a%d" % i for i in range(len(operands)))
    try:
        result = _core.elementwise_result(op, kind, operands)
        expect = ""
        rtype = "!ptensor.ptensor<4x?x%s>" % result
    except DTypeError as e:
        expect = ("  // expected-error @below {{%s}}\n"
                  "  // expected-error @below {{failed to infer returned types}}\n" % e)
        rtype = "!ptensor.ptensor<4x?xf32>"
    return ("func.func @case%d(%s) {\n%s  %%r = ptensor.%s %s %s : (%s) -> %s\n"
            "  return\n}\n" % (n, args, expect, op, kind, names, types, rtype))


def test_compiler_agrees_on_every_kind(tmp_path):
    opt = _ptensor_opt()
    if opt is None:
        pytest.skip("no ptensor-opt (PTENSOR_BUILD_DIR)")
    cases = []
    for op, kind, _, _ in _core.op_kinds():
        if op.startswith("elementwise_unary"):
            for dt in UNARY_DTYPES:
                cases.append(_case(len(cases), op, kind, [(dt, False)]))
        else:
            for operands in BINARY_OPERANDS:
                cases.append(_case(len(cases), op, kind, list(operands)))
    f = tmp_path / "kinds.mlir"
    f.write_text("\n// -----\n\n".join(cases))
    proc = subprocess.run([opt, str(f), "--split-input-file", "--verify-diagnostics"],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr[-4000:]
    # Both accepted and rejected cases were exercised.
    text = f.read_text()
    assert text.count("expected-error") > 100 and len(cases) - text.count(
        "failed to infer") > 200


def test_table_covers_the_array_api_kinds():
    kinds = {(op, k) for op, k, _, _ in _core.op_kinds()}
    assert ("elementwise_unary", "exp") in kinds and ("elementwise_binary", "hypot") in kinds
    assert len(kinds) == len(_core.op_kinds()) == 65


def test_rules_and_messages():
    assert _core.promote([("ui8", False), ("i8", False)]) == "i16"
    assert _core.promote([("i32", False), ("f64", True)]) == "f32"
    assert _core.promote([("f16", False), ("ui64", False), ("i8", False)]) == "f16"
    with pytest.raises(DTypeError, match="cannot promote 'ui64' with signed 'i8'"):
        _core.promote([("ui64", False), ("i8", False)])
    with pytest.raises(BroadcastError, match=r"cannot broadcast shapes \[4, 2\] and \[3\]"):
        _core.broadcast_shapes([[4, 2], [3]])
    assert _core.broadcast_shapes([[4, 1], [3], []]) == [4, 3]
    with pytest.raises(ValueError, match="negative size"):
        _core.broadcast_shapes([[-1]])
    with pytest.raises(DeviceError, match='host and "cuda:0"'):
        _core.common_placement([None, "cuda:0"])
    with pytest.raises(ValueError, match="unknown promotion method 'FOO'"):
        D.normalize_method("foo")
    with pytest.raises(DTypeError, match="unknown dtype 'f128'"):
        _core.dtype_info("f128")
    assert _core.where_result([("i1", False), ("f16", False), ("f64", True)]) == "f16"
    with pytest.raises(DTypeError, match="where condition must have dtype i1, but got i32"):
        _core.where_result([("i32", False), ("f16", False), ("f64", True)])


def test_kernel_config_has_the_compilers_limits():
    """Python checks GPU kernel options with the passes' KernelConfig; the
    same values fail ptensor-opt with the same ranges."""
    assert _core.DEFAULT_CHIP.startswith("sm_")
    _core.check_kernel_config()  # the defaults are valid
    _core.check_kernel_config(block_size=1024, unroll=8, transpose_tile=64)
    # The options, their defaults and allowed values come from the one list
    # (KernelOptions.def) that the passes' options are made from.
    assert list(_core.KERNEL_OPTIONS) == [
        "block_size", "max_blocks", "math_max_blocks", "unroll", "transpose_tile", "transpose_group",
        "transpose_max_blocks", "reduction_lanes", "row_blocks_per_sm", "strided_paths"]
    assert _core.KERNEL_OPTIONS["block_size"][:2] == (128, "1 to 1024 threads per block")
    assert _core.KERNEL_OPTIONS["transpose_tile"][1] == "32 or 64 (blocks of 256 threads)"
    with pytest.raises(TypeError, match="unknown kernel option 'blocksize'"):
        _core.check_kernel_config(blocksize=64)
    for kwargs, (option, value, expected) in (
            (dict(unroll=100), ("unroll", 100, "1 to 8 vectors per thread")),
            (dict(block_size=0), ("block-size", 0, "1 to 1024 threads per block")),
            (dict(math_max_blocks=0), ("math-max-blocks", 0, "1 to 2147483647 blocks")),
            (dict(transpose_group=1000), ("transpose-group", 1000, "1 to 64 tile rows")),
            (dict(transpose_tile=48), ("transpose-tile", 48, "32 or 64")),
            (dict(reduction_lanes=0), ("reduction-lanes", 0, "1 to 8 accumulators per thread")),
            (dict(row_blocks_per_sm=9), ("row-blocks-per-sm", 9, "0 to 8 blocks (0: ptxas's choice)")),
            (dict(strided_paths=2), ("strided-paths", 2, "0 to 1 (1: every path;"))):
        with pytest.raises(ValueError) as info:
            _core.check_kernel_config(**kwargs)
        assert str(info.value).startswith(
            f"kernel option '{option}' is '{value}'; expected {expected}")


def test_kernel_config_stub_names_every_option():
    """_core.pyi spells check_kernel_config's keywords for type checkers: it
    must list exactly the options of KERNEL_OPTIONS, in their order."""
    import inspect
    import re
    stub = os.path.join(os.path.dirname(inspect.getfile(_core)), "_core.pyi")
    if not os.path.exists(stub):
        stub = os.path.join(os.path.dirname(__file__), "..", "ptensor", "_core.pyi")
    with open(stub) as f:
        text = f.read()
    signature = re.search(r"def check_kernel_config\((.*?)\) -> None", text, re.S)
    assert signature, "_core.pyi has no check_kernel_config"
    keywords = re.findall(r"(\w+): int = \.\.\.", signature.group(1))
    assert keywords == list(_core.KERNEL_OPTIONS)


def test_overlap_rule_is_the_libraries():
    """The memory-overlap rule of written operands (Overlap.h), which the
    JIT and the C API apply too: zero strides, partial overlap, the same
    view (allowed), other devices and scalars (never overlap)."""
    from ptensor import OverlapError

    base = 1 << 20
    row = (base, 4, [4, 8], [8, 1], "")         # a 4x8 f32 block
    shifted = (base + 4, 4, [4, 8], [8, 1], "")  # the same block, one element on
    _core.check_written_overlap([row, row], [0])  # in place on the very same view
    _core.check_written_overlap([row, None, (base + 128, 4, [8], [1], "")], [0])  # disjoint
    _core.check_written_overlap([row, (base, 4, [4, 8], [8, 1], "cuda:0")], [0])
    with pytest.raises(OverlapError, match=r"written operand #0 partially overlaps operand #1; "
                       r"in-place is allowed only on the very same view"):
        _core.check_written_overlap([row, shifted], [0], "operand")
    with pytest.raises(OverlapError, match=r"argument #1 is written but has zero strides"):
        _core.check_written_overlap([row, (base, 4, [4, 8], [0, 1], "")], [1])
    # An empty view touches nothing.
    _core.check_written_overlap([row, (base, 4, [0, 8], [8, 1], "")], [0])


def test_iteration_order_and_coalescing_are_the_libraries():
    """TensorIterator's dimension order and coalescing (Iteration.h)."""
    # Row-major 2x3x4: one contiguous run of every dimension.
    assert _core.order_dimensions([2, 3, 4], [[12, 4, 1]]) == [0, 1, 2]
    assert _core.coalesce_dimensions([2, 3, 4], [[12, 4, 1]], [0, 1, 2]) == [[0, 1, 2]]
    # A transposed (column-major) operand and output agree: the order flips.
    assert _core.order_dimensions([3, 4], [[1, 3], [1, 3]]) == [1, 0]
    # Operands that disagree keep row-major order.
    assert _core.order_dimensions([3, 4], [[4, 1], [1, 3]]) == [0, 1]
    # A broadcast operand (stride 0) does not vote, and blocks merging where
    # it is not contiguous; size-1 dimensions are dropped.
    assert _core.coalesce_dimensions([5, 1, 6], [[6, 6, 1], [0, 0, 1]], [0, 1, 2]) == [[0], [2]]
    assert _core.coalesce_dimensions([5, 1, 6], [[6, 6, 1], [6, 6, 1]], [0, 1, 2]) == [[0, 2]]
    with pytest.raises(ValueError, match="one stride per dimension"):
        _core.order_dimensions([2, 3], [[1]])


def test_not_an_array_message():
    """One message for an operand that is not an array, from the Python
    import (as_tensor: sort of a string) and the C++ one (an elementwise
    call's operand)."""
    import numpy as np
    import ptensor as pt
    expected = ("expected an array (numpy, torch, CuPy, ptensor.Array, DLPack, or a list or "
                "tuple of numbers), got ")
    assert _core.not_an_array_message("str") == expected + "str"
    with pytest.raises(TypeError) as python_side:
        pt.sort("abc")
    with pytest.raises(TypeError) as cpp_side:
        pt.add(np.ones(2), object())
    assert str(python_side.value) == expected + "str"
    assert str(cpp_side.value) == expected + "object"


def test_bfloat16_without_importing_ml_dtypes():
    """`import ptensor` and calls on builtin dtypes leave ml_dtypes
    unimported (it takes half a second); a bfloat16 array made after the
    user's own import joins the one numpy dtype table (_dtypes.FROM_NUMPY,
    which the C++ interop reads) on first sight, through either side."""
    import sys
    import textwrap
    script = textwrap.dedent("""\
        import sys
        import numpy as np
        import ptensor as pt
        from ptensor import _dtypes as D
        x = np.arange(6, dtype=np.float32)
        assert (pt.add(x, x) == 2 * x).all()
        assert "ml_dtypes" not in sys.modules, "ptensor imported ml_dtypes"
        import ml_dtypes
        b = x.astype(ml_dtypes.bfloat16)
        assert np.dtype(ml_dtypes.bfloat16) not in D.FROM_NUMPY
        r = pt.multiply(b, b)                     # the C++ side's first sight
        assert r.dtype == np.dtype(ml_dtypes.bfloat16), r.dtype
        assert (r.astype(np.float32) == x * x).all(), r
        assert D.FROM_NUMPY[np.dtype(ml_dtypes.bfloat16)] == "bf16"
        print("ok")
        """)
    out = subprocess.run([sys.executable, "-c", script], check=True,
                         capture_output=True, text=True).stdout
    assert out.strip() == "ok", out
