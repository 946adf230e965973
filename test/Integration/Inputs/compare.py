"""Running an executor and comparing its outputs; numpy only.

This module is shared by harness.py (which builds cases and their numpy
references) and check_exported.py (which replays exported cases on a machine
that has numpy but neither ml_dtypes nor ptensor-runner). It therefore never
imports ml_dtypes: bf16 arrays are handled as raw 16-bit patterns.

A case on disk (exported) is a directory with
  module.mlir            the module
  in0.npy in1.npy ...    one per function argument (bf16 as '<V2')
  expected0.npy ...      one per result: float64 for float dtypes (the
                         reference before rounding), the exact dtype otherwise
  case.json              {"name", "func", "num_inputs", "outputs": [spec...]}
where an output spec is {"dtype", "ulps", "atol", "ftz", "desc"}: floats
match within ulps * ulp(expected) + atol; ftz accepts 0 for expected values
below the smallest normal (non-exact kinds); signed_zeros requires the sign
of zero results to match.
"""

import json
import os
import shlex
import subprocess

import numpy as np

# dtype name -> (numpy str of the .npy descr, kind)
DTYPES = {
    "i1": ("|b1", "b"),
    "i8": ("|i1", "s"), "i16": ("<i2", "s"), "i32": ("<i4", "s"), "i64": ("<i8", "s"),
    "ui8": ("|u1", "u"), "ui16": ("<u2", "u"), "ui32": ("<u4", "u"), "ui64": ("<u8", "u"),
    "f16": ("<f2", "f"), "bf16": ("|V2", "f"), "f32": ("<f4", "f"), "f64": ("<f8", "f"),
}

# float dtype -> (explicit mantissa bits, min normal exponent, max exponent)
FLOAT_FORMATS = {
    "f16": (10, -14, 15),
    "bf16": (7, -126, 127),
    "f32": (23, -126, 127),
    "f64": (52, -1022, 1023),
}


def is_float(dt):
    return DTYPES[dt][1] == "f"


def max_finite(dt):
    m, _, emax = FLOAT_FORMATS[dt]
    return (2.0 - 2.0 ** -m) * 2.0 ** emax


def ulp(x, dt):
    """The spacing of `dt` floats at |x| (x is float64; inf -> spacing at max)."""
    m, emin, emax = FLOAT_FORMATS[dt]
    ax = np.abs(np.asarray(x, dtype=np.float64))
    ax = np.where(np.isfinite(ax), ax, 0.0)
    _, e = np.frexp(ax)
    e = np.where(ax == 0, emin + 1, e) - 1  # exponent of the leading bit
    e = np.clip(e, emin, emax)
    return np.ldexp(1.0, (e - m).astype(np.int32))


def dtype_of_array(a):
    """The ptensor dtype name of a loaded .npy array (bf16 is '|V2')."""
    s = a.dtype.str
    if a.dtype.kind == "V" and a.dtype.itemsize == 2:
        return "bf16"
    if a.dtype.name == "bfloat16":  # ml_dtypes loaded it already
        return "bf16"
    for name, (descr, _) in DTYPES.items():
        if name != "bf16" and np.dtype(descr) == np.dtype(s):
            return name
    return "<unknown %s>" % s


def bf16_bits_to_f64(a):
    bits = np.ascontiguousarray(a).view(np.uint16).astype(np.uint32) << 16
    return bits.view(np.float32).astype(np.float64)


def to_f64(a, dt):
    if dt == "bf16":
        return bf16_bits_to_f64(a)
    return np.asarray(a).astype(np.float64)


def _fmt(v):
    if isinstance(v, (float, np.floating)):
        return repr(float(v))
    return str(v)


def compare(got, expected, spec, inputs_at=None, limit=4):
    """Compares one output. Returns a list of failure strings (empty: ok).

    got: the array np.load gave; expected: float64 reference (float dtypes)
    or exact array; spec: {"dtype", "ulps", "atol"}; inputs_at(index) gives
    a text describing the operands at a mismatching index (or None).
    """
    dt = spec["dtype"]
    gdt = dtype_of_array(got)
    if gdt != dt:
        return ["dtype: expected %s, got %s" % (dt, gdt)]
    if tuple(got.shape) != tuple(expected.shape):
        return ["shape: expected %s, got %s" % (tuple(expected.shape), tuple(got.shape))]
    if not is_float(dt):
        g = np.asarray(got)
        bad = g != expected
        return _report(bad, got=g, expected=expected, inputs_at=inputs_at, limit=limit)
    g = to_f64(got, dt)
    e = np.asarray(expected, dtype=np.float64)
    gn, en = np.isnan(g), np.isnan(e)
    same = (g == e) | (gn & en)
    # Infinities count as one spacing beyond the largest finite value, so a
    # result that overflows at the rounding boundary is within tolerance.
    mf = max_finite(dt)
    gi, ei = np.isinf(g), np.isinf(e)
    gc = np.where(gi, np.sign(g) * mf, g)
    ec = np.where(ei, np.sign(e) * mf, e)
    with np.errstate(invalid="ignore", over="ignore"):
        err = np.abs(gc - ec) + np.where(gi != ei, ulp(mf, dt), 0.0)
        tol = spec.get("ulps", 0.0) * ulp(e, dt) + spec.get("atol", 0.0)
        close = (err <= tol) & ~gn & ~en
        if spec.get("ftz"):
            # Non-exact kinds may flush results below the smallest normal.
            close |= (g == 0) & (np.abs(e) < 2.0 ** FLOAT_FORMATS[dt][1])
    bad = ~(same | close)
    if spec.get("signed_zeros"):
        # -0.0 and +0.0 are told apart where the kind defines the sign.
        bad |= (g == 0) & (e == 0) & (np.signbit(g) != np.signbit(e))
    with np.errstate(invalid="ignore", divide="ignore"):
        ulps_off = err / ulp(e, dt)
    return _report(bad, got=g, expected=e, inputs_at=inputs_at, limit=limit,
                   ulps_off=ulps_off, tol=spec)


def _report(bad, got, expected, inputs_at, limit, ulps_off=None, tol=None):
    bad = np.asarray(bad)
    if not bad.any():
        return []
    idxs = np.argwhere(bad) if bad.ndim else [()]
    out = ["%d of %d elements differ%s" % (
        int(bad.sum()), bad.size,
        "" if tol is None else " (tolerance %s ulp + %s)" % (tol.get("ulps", 0), tol.get("atol", 0)))]
    for idx in list(idxs)[:limit]:
        idx = tuple(int(i) for i in idx)
        line = "  at %s: expected %s, got %s" % (
            list(idx), _fmt(expected[idx]), _fmt(got[idx]))
        if ulps_off is not None and np.isfinite(ulps_off[idx]):
            line += " (%.3g ulp)" % ulps_off[idx]
        if inputs_at is not None:
            extra = inputs_at(idx)
            if extra:
                line += "; inputs " + extra
        out.append(line)
    return out


def executor_command():
    """The command that runs a module: $PTENSOR_RUNNER or ptensor-runner."""
    return shlex.split(os.environ.get("PTENSOR_RUNNER", "ptensor-runner"))


def run_executor(cmd, mlir_path, func, input_paths, out_dir, timeout=300):
    """Runs `cmd FILE -e FUNC --input ... --output-dir DIR`.

    Returns (returncode, stdout+stderr text, list of loaded outputs)."""
    argv = list(cmd) + [mlir_path, "-e", func]
    for p in input_paths:
        argv += ["--input", p]
    argv += ["--output-dir", out_dir]
    try:
        proc = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              timeout=timeout)
    except subprocess.TimeoutExpired:
        return 124, "timed out after %ss: %s" % (timeout, " ".join(argv)), []
    except OSError as e:
        return 127, "cannot run %s: %s" % (argv[0], e), []
    text = proc.stdout.decode("utf-8", "replace")
    outs = []
    if proc.returncode == 0:
        i = 0
        while os.path.exists(os.path.join(out_dir, "out%d.npy" % i)):
            outs.append(np.load(os.path.join(out_dir, "out%d.npy" % i)))
            i += 1
    return proc.returncode, text, outs


def substitute_device(text, device):
    """Adds `device = "..."` to every ptensor type without a device."""
    import re

    def repl(m):
        body = m.group(1)
        if "device" in body:
            return m.group(0)
        return '!ptensor.ptensor<%s, device = "%s">' % (body, device)

    return re.sub(r"!ptensor\.ptensor<([^<>]*)>", repl, text)


def write_case(directory, name, mlir_text, func, inputs, expecteds, specs):
    """Writes one case in the exported layout (see the module docstring)."""
    os.makedirs(directory, exist_ok=True)
    with open(os.path.join(directory, "module.mlir"), "w") as f:
        f.write(mlir_text)
    for i, a in enumerate(inputs):
        np.save(os.path.join(directory, "in%d.npy" % i), a)
    for i, e in enumerate(expecteds):
        np.save(os.path.join(directory, "expected%d.npy" % i), e)
    with open(os.path.join(directory, "case.json"), "w") as f:
        json.dump({"name": name, "func": func, "num_inputs": len(inputs),
                   "outputs": specs}, f, indent=1)


def check_case_dir(directory, cmd, out_dir, timeout=300):
    """Runs an exported case; returns a list of failure strings."""
    with open(os.path.join(directory, "case.json")) as f:
        case = json.load(f)
    inputs = [os.path.join(directory, "in%d.npy" % i) for i in range(case["num_inputs"])]
    rc, text, outs = run_executor(cmd, os.path.join(directory, "module.mlir"),
                                  case["func"], inputs, out_dir, timeout=timeout)
    if rc != 0:
        return ["executor failed (exit %d): %s" % (rc, text.strip()[-2000:])]
    specs = case["outputs"]
    if len(outs) != len(specs):
        return ["expected %d outputs, got %d" % (len(specs), len(outs))]
    failures = []
    for i, spec in enumerate(specs):
        exp = np.load(os.path.join(directory, "expected%d.npy" % i))
        for msg in compare(outs[i], exp, spec):
            failures.append("out%d %s: %s" % (i, spec.get("desc", ""), msg))
    return failures
