"""Team functions from Python under mpirun (docs/Teams.md): every process
passes the whole arrays and gets whole results, equal to numpy's; and
without mpirun the same call runs on one process. The package's compile
sets no team size, so each process computes the whole result (the split
door for Python is not built: docs/Teams.md, "Left")."""

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

CHECK = textwrap.dedent("""
    rng = np.random.default_rng(3)
    a = rng.random((11, 3), dtype=np.float32)
    v = rng.random(3, dtype=np.float32)
    s, d, i = (np.asarray(r) for r in pt.compile_module(IR)["f"](a, v))
    np.testing.assert_allclose(s, a.sum(0), rtol=1e-6)
    np.testing.assert_array_equal(d, a - v)
    assert int(i) == a.argmax(), (int(i), a.argmax())
    print("ok")
""")

# The same check, as a script for every process of an MPI job.
SCRIPT = ("import numpy as np\nimport ptensor as pt\nIR = " + repr(IR) + "\n" +
          CHECK)


def test_one_process(capsys):
    exec(CHECK, {"np": np, "pt": pt, "IR": IR})
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
