"""Replays cases exported by harness.py (PTENSOR_CASE_EXPORT_DIR) with an
executor of ptensor-runner's command line, e.g. on a GPU machine that has
numpy but no ptensor-runner:

  PTENSOR_CASE_EXPORT_DIR=cases PTENSOR_TEST_DEVICE=cuda:0 python3 CPU/unary.py
  python3 check_exported.py cases --executor "./ptensor-gpu-runner -O2"

Needs numpy only. Prints one line per failing output and a summary; exits
non-zero when anything failed.
"""
import argparse
import concurrent.futures
import os
import re
import shlex
import shutil
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import compare  # noqa: E402


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("dir", help="directory written by PTENSOR_CASE_EXPORT_DIR")
    p.add_argument("--executor", default="ptensor-runner",
                   help="command taking FILE -e FUNC --input ... --output-dir DIR")
    p.add_argument("--filter", default="",
                   help="only cases whose path matches this regular expression")
    p.add_argument("--timeout", type=int, default=300, help="seconds per case")
    p.add_argument("--jobs", "-j", type=int, default=1, help="cases run at once")
    args = p.parse_args()

    cmd = shlex.split(args.executor)
    cases = sorted(root for root, _, files in os.walk(args.dir)
                   if "case.json" in files and re.search(args.filter, root))
    if not cases:
        print("no cases under %s" % args.dir)
        return 1
    tmp = tempfile.mkdtemp(prefix="ptensor-check-")
    start = time.time()

    def check(i):
        out = os.path.join(tmp, str(i))
        os.makedirs(out)
        msgs = compare.check_case_dir(cases[i], cmd, out, timeout=args.timeout)
        shutil.rmtree(out, ignore_errors=True)
        return msgs

    # Cases run in separate processes: a pool of threads waits on them.
    with concurrent.futures.ThreadPoolExecutor(max(1, args.jobs)) as pool:
        results = list(pool.map(check, range(len(cases))))
    failed = 0
    for case, msgs in zip(cases, results):
        if msgs:
            failed += 1
            print("FAIL %s" % os.path.relpath(case, args.dir))
            for m in msgs:
                print("  " + m.replace("\n", "\n  "))
    shutil.rmtree(tmp, ignore_errors=True)
    print("%d cases, %d failed, %.1fs" % (len(cases), failed, time.time() - start))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
