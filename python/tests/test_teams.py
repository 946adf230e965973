"""Team functions from Python under mpirun (docs/Teams.md): compile_module
joins the MPI job and compiles a module with team tensors for its size;
every process passes the whole arrays, computes its block of rows and gets
the whole results (gathered), equal to numpy's, and written (out=) team
arguments come back whole. Without mpirun the same call runs on one
process."""

import os
import shutil
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import ptensor as pt

IR = """
func.func @f(%a: !ptensor.ptensor<?x3xf32, team = 1>, %v: !ptensor.ptensor<3xf32, team = 1>) -> (!ptensor.ptensor<3xf32, team = 1>, !ptensor.ptensor<?x3xf32, team = 1>, !ptensor.ptensor<i64, team = 1>) {
  %0 = ptensor.reduce sum %a axes [0] : !ptensor.ptensor<?x3xf32, team = 1> -> !ptensor.ptensor<3xf32, team = 1>
  %1 = ptensor.elementwise_binary subtract %a, %v : (!ptensor.ptensor<?x3xf32, team = 1>, !ptensor.ptensor<3xf32, team = 1>) -> !ptensor.ptensor<?x3xf32, team = 1>
  %2 = ptensor.find_index argmax %a : !ptensor.ptensor<?x3xf32, team = 1> -> !ptensor.ptensor<i64, team = 1>
  return %0, %1, %2 : !ptensor.ptensor<3xf32, team = 1>, !ptensor.ptensor<?x3xf32, team = 1>, !ptensor.ptensor<i64, team = 1>
}
"""

# Static rows (5: uneven over 2 and 3 processes), a reduction over the
# other dim (rows kept), a full mean (0-d, replicated), exp, and a flip of
# the other dim (each block flips its own rows).
STATIC_IR = """
func.func @g(%a: !ptensor.ptensor<5x4xf64, team = 1>) -> (!ptensor.ptensor<5xf64, team = 1>, !ptensor.ptensor<f64, team = 1>, !ptensor.ptensor<5x4xf64, team = 1>, !ptensor.ptensor<5x4xf64, team = 1>) {
  %0 = ptensor.reduce max %a axes [1] : !ptensor.ptensor<5x4xf64, team = 1> -> !ptensor.ptensor<5xf64, team = 1>
  %1 = ptensor.reduce mean %a : !ptensor.ptensor<5x4xf64, team = 1> -> !ptensor.ptensor<f64, team = 1>
  %2 = ptensor.elementwise_unary exp %a : (!ptensor.ptensor<5x4xf64, team = 1>) -> !ptensor.ptensor<5x4xf64, team = 1>
  %3 = ptensor.flip %a [1] : !ptensor.ptensor<5x4xf64, team = 1> -> !ptensor.ptensor<5x4xf64, team = 1>
  return %0, %1, %2, %3 : !ptensor.ptensor<5xf64, team = 1>, !ptensor.ptensor<f64, team = 1>, !ptensor.ptensor<5x4xf64, team = 1>, !ptensor.ptensor<5x4xf64, team = 1>
}
"""

# A team argument written (out=): each process writes its block, and the
# blocks are gathered back into every process's array.
WRITE_IR = """
func.func @w(%a: !ptensor.ptensor<?x3xf32, team = 1>, %b: !ptensor.ptensor<?x3xf32, team = 1>) {
  %0 = ptensor.elementwise_binary add %a, %b : (!ptensor.ptensor<?x3xf32, team = 1>, !ptensor.ptensor<?x3xf32, team = 1>) -> !ptensor.ptensor<?x3xf32, team = 1>
  ptensor.write %0 into %a : !ptensor.ptensor<?x3xf32, team = 1>
  return
}
"""

CHECK = textwrap.dedent("""
    import os
    processes = int(os.environ.get("PMI_SIZE") or os.environ.get("OMPI_COMM_WORLD_SIZE") or 1)
    rng = np.random.default_rng(3)
    lib = pt.compile_module(IR)
    assert lib.team_size == processes, (lib.team_size, processes)
    v = rng.random(3, dtype=np.float32)
    big = rng.random((22, 3), dtype=np.float32)
    # 11 rows; 2 rows (a process with none under 3); every other row of
    # 22 (strided: each block is a view with the whole's strides).
    for a in (big[:11].copy(), big[:2].copy(), big[::2]):
        s, d, i = (np.asarray(r) for r in lib["f"](a, v))
        np.testing.assert_allclose(s, a.sum(0), rtol=1e-6)
        np.testing.assert_array_equal(d, a - v)
        assert int(i) == a.argmax(), (int(i), a.argmax())

    b = rng.standard_normal((5, 4))
    m, mean, e, flipped = (np.asarray(r) for r in pt.compile_module(STATIC_IR)["g"](b))
    np.testing.assert_array_equal(m, b.max(1))
    np.testing.assert_allclose(mean, b.mean(), rtol=1e-12)
    np.testing.assert_allclose(e, np.exp(b), rtol=1e-15)
    np.testing.assert_array_equal(flipped, b[:, ::-1])

    w = pt.compile_module(WRITE_IR)["w"]
    x = np.ones((4, 3), np.float32)
    w(x, x.copy())
    np.testing.assert_array_equal(x, 2)
    # A strided argument (every other row of 10) keeps its other rows;
    # 2 rows: a process with none under 3.
    whole = rng.random((10, 3), dtype=np.float32)
    before = whole.copy()
    add = rng.random((5, 3), dtype=np.float32)
    w(whole[::2], add)
    np.testing.assert_array_equal(whole[::2], before[::2] + add)
    np.testing.assert_array_equal(whole[1::2], before[1::2])
    y = rng.random((2, 3), dtype=np.float32)
    y0 = y.copy()
    w(y, y0)
    np.testing.assert_array_equal(y, y0 + y0)
    if processes > 1:
        # Arrays of other rows on each process: the gather back refuses
        # them on every process (not an overflow of the smaller one).
        rank = int(os.environ.get("PMI_RANK") or os.environ.get("OMPI_COMM_WORLD_RANK"))
        mine = np.ones((4 + rank, 3), np.float32)
        try:
            w(mine, mine.copy())
            raise AssertionError("arguments of other rows were gathered back")
        except pt.ExecutionError as err:
            assert "different rows" in str(err), err
    print("ok")
""")

# The same check, as a script for every process of an MPI job.
SCRIPT = ("import numpy as np\nimport ptensor as pt\n" +
          "".join("%s = %r\n" % (n, globals()[n]) for n in ("IR", "STATIC_IR", "WRITE_IR")) +
          CHECK)


def test_one_process(capsys):
    exec(CHECK, {"np": np, "pt": pt, "IR": IR, "STATIC_IR": STATIC_IR,
                 "WRITE_IR": WRITE_IR})
    assert capsys.readouterr().out == "ok\n"


@pytest.mark.skipif(shutil.which("mpirun") is None, reason="no mpirun")
@pytest.mark.parametrize("processes", [2, 3])
def test_under_mpirun(tmp_path, processes):
    script = tmp_path / "team.py"
    script.write_text(SCRIPT)
    env = dict(os.environ, UCX_MEM_MMAP_HOOK_MODE="none")
    done = subprocess.run(["mpirun", "-np", str(processes), sys.executable,
                           str(script)], capture_output=True, text=True,
                          env=env, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.count("ok") == processes, done.stdout


# Rows that do not agree fail a run-time check in the compiled code: on one
# process an exception; split over processes, each prints its error and
# the job ends (MPI_Abort), never a hang.
ADD_IR = """
func.func @add(%a: !ptensor.ptensor<?x3xf32, team = 1>, %b: !ptensor.ptensor<?x3xf32, team = 1>) -> !ptensor.ptensor<?x3xf32, team = 1> {
  %0 = ptensor.elementwise_binary add %a, %b : (!ptensor.ptensor<?x3xf32, team = 1>, !ptensor.ptensor<?x3xf32, team = 1>) -> !ptensor.ptensor<?x3xf32, team = 1>
  return %0 : !ptensor.ptensor<?x3xf32, team = 1>
}
"""

FAILING = ("import numpy as np\nimport ptensor as pt\nIR = %r\n" % ADD_IR + textwrap.dedent("""
    f = pt.compile_module(IR)["add"]
    f(np.ones((4, 3), np.float32), np.ones((5, 3), np.float32))
    print("not reached")
"""))


def test_failing_call_raises_on_one_process():
    f = pt.compile_module(ADD_IR)["add"]
    with pytest.raises(pt.BroadcastError):
        f(np.ones((4, 3), np.float32), np.ones((5, 3), np.float32))


@pytest.mark.skipif(shutil.which("mpirun") is None, reason="no mpirun")
def test_failing_call_ends_the_job(tmp_path):
    script = tmp_path / "fail.py"
    script.write_text(FAILING)
    env = dict(os.environ, UCX_MEM_MMAP_HOOK_MODE="none")
    done = subprocess.run(["mpirun", "-np", "2", sys.executable, str(script)],
                          capture_output=True, text=True, env=env, timeout=300)
    out = done.stdout + done.stderr
    assert done.returncode != 0, out
    assert "not reached" not in out, out
    assert "ending the MPI job" in out, out



def test_gpu_team_library_refused(tmp_path):
    """A library whose team tensors live on the GPU (ptensor-compile
    --target=cuda --team-size=N) is refused when loaded: the package splits
    and gathers team tensors in host memory (GPU teams run through
    ptensor-runner, docs/Teams.md). On the stand-in CUDA driver
    (runtime/tests/fake_cuda.c), so that the kernels load without a GPU."""
    build = os.environ.get("PTENSOR_BUILD_DIR", "")
    fake = os.path.join(build, "lib", "libptensor_fake_cuda.so")
    if not build or not os.path.exists(fake) or not shutil.which("ptxas", path=os.environ.get(
            "PATH", "") + os.pathsep + "/usr/local/cuda/bin"):
        pytest.skip("needs the build's libptensor_fake_cuda.so and ptxas")
    child = textwrap.dedent("""
        import sys
        import ptensor as pt
        try:
            pt.compile_ir(sys.argv[1], "cuda", team_size=2)
        except pt.RuntimeUnavailableError as e:
            print(e)
    """)
    gpu_ir = ADD_IR.replace("team = 1>", 'device = "cuda", team = 1>')
    env = dict(os.environ, PTENSOR_CUDA_DRIVER_LIBRARY=fake,
               PTENSOR_CACHE_DIR=str(tmp_path))
    done = subprocess.run([sys.executable, "-c", child, gpu_ir], env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert ("@add takes or returns GPU team tensors, which are passed whole "
            "(split and gathered) on the host only") in done.stdout, \
        done.stdout + done.stderr
