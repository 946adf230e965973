#!/usr/bin/env python3
"""Mutation fuzzer: ptensor's own .mlir tests, mutated, through ptensor-opt.

Each mutant is a chunk of a test file (`// -----` splits them) with one to
three mutations: a token dropped, two neighbours swapped, a number, a dim,
a dtype, a device, a team or an op kind replaced by another, an op name
replaced by another op's, a line duplicated or deleted. Mutants run in
batches (one ptensor-opt process per batch, `--split-input-file`) through
each stage:

  verify  parse and verify only
  cpu     --ptensor-to-cpu-pipeline
  nvvm    --ptensor-to-nvvm-pipeline=format=isa (needs the CUDA toolkit's
          libdevice; PTX text, no ptxas)

A diagnosed error is the expected outcome for most mutants. A crash is a
signal, an exit status other than 0 and 1, or a crash report on stderr
(LLVM's stack dump or "LLVM ERROR", an assertion, AddressSanitizer,
UndefinedBehaviorSanitizer); a hang is a batch over its time limit. A
failing batch is bisected to its mutants, each failing mutant is written to
--save DIR (a reproducer to keep under test/Fuzz/regressions) and the exit
status is 1.

  fuzz-mlir.py --opt build/bin/ptensor-opt --count 2000 --seed 1 test
  fuzz-mlir.py --opt build/bin/ptensor-opt --replay test/Fuzz/regressions

--replay runs the files in a directory unmutated (the regression suite).
The run is deterministic for a seed; the summary line gives the counts.
"""
import argparse
from bisect import bisect_right
import concurrent.futures
import os
import random
import re
import subprocess
import sys
import time

SPLIT = "// -----"

STAGES = {
    "verify": [],
    "cpu": ["--ptensor-to-cpu-pipeline"],
    "nvvm": ["--ptensor-to-nvvm-pipeline=format=isa"],
}

CRASH_MARKERS = ("Stack dump:", "PLEASE submit a bug report", "LLVM ERROR:",
                 "Assertion `", "ERROR: AddressSanitizer", "ERROR: LeakSanitizer",
                 "runtime error:", "terminate called", "Segmentation fault")

NUMBERS = ["0", "1", "-1", "2", "3", "7", "64", "65536", "2147483648",
           "4611686018427387904", "9223372036854775807", "-9223372036854775808"]
DTYPES = ["i1", "i8", "i16", "i32", "i64", "ui8", "ui16", "ui32", "ui64", "si32",
          "f16", "bf16", "f32", "f64", "index", "f8E4M3FN", "complex<f32>", "none"]
DEVICES = ['"cuda:0"', '"cuda:1"', '"cuda:99"', '"cpu"', '""', '"gpu"', '"cuda:-1"']
TEAMS = ["0", "1", "2", "-1", "99"]

TOKEN = re.compile(r'"[^"\n]*"|%[\w.$#-]+|@[\w.$-]+|\^[\w.$-]+|#[\w.$-]+|!?[A-Za-z_][\w.$]*'
                   r'|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|->|::|\S')
PTENSOR_TYPE = re.compile(r"!ptensor\.ptensor<[^<>]*>")
SHAPE = re.compile(r"((?:ptensor|tensor|memref)<)((?:(?:\d+|\?)x)*)")


def kinds_from_attrs(source_dir):
    """The op-kind keywords of the dialect's enum attributes."""
    path = os.path.join(source_dir, "include/ptensor/Dialect/PTensor/IR/PTensorAttrs.td")
    try:
        text = open(path).read()
    except OSError:
        return ["add", "exp", "sum", "max"]
    return sorted(set(re.findall(r'EnumAttrCase<"(\w+)"', text)))


def chunks_of(paths):
    """(name, text) of every `// -----` chunk of the .mlir files under
    `paths`, comment lines removed (RUN and CHECK lines are noise)."""
    files = []
    for root in paths:
        if os.path.isfile(root):
            files.append(root)
            continue
        for d, _, names in os.walk(root):
            files += [os.path.join(d, n) for n in names if n.endswith(".mlir")]
    out = []
    for f in sorted(files):
        text = open(f, errors="replace").read()
        if "//---" in text:  # split-file inputs: the parts are modules too
            parts = re.split(r"^//--- .*$", text, flags=re.M)[1:]
        else:
            parts = text.split(SPLIT)
        for i, part in enumerate(parts):
            lines = [l for l in part.splitlines() if not l.lstrip().startswith("//")]
            body = "\n".join(lines).strip()
            if body and len(body) < 20000:
                # Valid chunks are seeds three times over: their mutants
                # reach the pipelines more often.
                weight = 1 if "expected-error" in part else 3
                out += [("%s#%d" % (os.path.relpath(f), i), body)] * weight
    return out


class Mutator:
    def __init__(self, rng, kinds, op_names):
        self.rng = rng
        self.kinds = kinds
        self.op_names = op_names

    def mutate(self, text):
        """`text` with one to three mutations. Local ones change one line
        that mentions ptensor (an op or a type), the others every ptensor
        type or a ptensor line: ptensor is fuzzed, not upstream MLIR's
        parsers and folders of its own ops (their crashes on malformed
        upstream IR are MLIR's to fix)."""
        for _ in range(self.rng.choice((1, 1, 2, 3))):
            mutation = self.rng.choice(self.MUTATIONS)
            if mutation in self.WHOLE:
                text = mutation(self, text)
                continue
            lines = text.split("\n")
            ours = [i for i, l in enumerate(lines) if "ptensor" in l] or list(range(len(lines)))
            i = self.rng.choice(ours)
            lines[i] = mutation(self, lines[i])
            text = "\n".join(lines)
        return text

    def _tokens(self, text):
        return [(m.start(), m.end()) for m in TOKEN.finditer(text)]

    def _replace_span(self, text, span, new):
        return text[:span[0]] + new + text[span[1]:]

    def drop_token(self, text):
        toks = self._tokens(text)
        return self._replace_span(text, self.rng.choice(toks), "") if toks else text

    def swap_tokens(self, text):
        toks = self._tokens(text)
        if len(toks) < 2:
            return text
        i = self.rng.randrange(len(toks) - 1)
        (a0, a1), (b0, b1) = toks[i], toks[i + 1]
        return text[:a0] + text[b0:b1] + text[a1:b0] + text[a0:a1] + text[b1:]

    def _substitute(self, text, pattern, choices):
        found = list(re.finditer(pattern, text))
        if not found:
            return self.drop_token(text)
        m = self.rng.choice(found)
        group = 1 if m.re.groups else 0
        return text[:m.start(group)] + self.rng.choice(choices) + text[m.end(group):]

    def number(self, text):
        return self._substitute(text, r"(?<![\w%#@.])(-?\d+)(?![\w.])", NUMBERS)

    def dim(self, text):
        found = list(SHAPE.finditer(text))
        if not found:
            return self.number(text)
        m = self.rng.choice(found)
        dims = [d for d in m.group(2).split("x") if d]
        choice = self.rng.randrange(4)
        if choice == 0 and dims:  # one dim replaced
            dims[self.rng.randrange(len(dims))] = self.rng.choice(["?", "0", "1", "5", "1000000000000"])
        elif choice == 1 and dims:  # one dim removed
            del dims[self.rng.randrange(len(dims))]
        elif choice == 2:  # one dim added
            dims.insert(self.rng.randrange(len(dims) + 1), self.rng.choice(["?", "1", "3"]))
        else:  # all dims dynamic, or all static
            dims = ["?" if self.rng.random() < 0.5 else "2" for _ in dims]
        return text[:m.start(2)] + "".join(d + "x" for d in dims) + text[m.end(2):]

    def dtype(self, text):
        return self._substitute(text, r"\b(i1|i8|i16|i32|i64|ui8|ui16|ui32|ui64|f16|bf16|f32|f64|index)\b",
                                DTYPES)

    def device(self, text):
        if "device" not in text:
            return self._substitute(text, r"(ptensor<[^<>]*?)(>)",
                                    [">", ', device = "cuda:0">', ', team = 1>'])
        return self._substitute(text, r'device = ("[^"]*")', DEVICES)

    def team(self, text):
        if "team" not in text:
            return self._substitute(text, r"ptensor<[^<>]*?(>)", [", team = 1>", ", team = 2>"])
        return self._substitute(text, r"team = (-?\d+)", TEAMS)

    def kind(self, text):
        return self._substitute(text, r"\bptensor\.\w+ (\w+)\b", self.kinds)

    def op_name(self, text):
        return self._substitute(text, r"\b(ptensor\.\w+)\b", self.op_names)

    # Consistent mutations: the same change in every type of the chunk, so
    # that more mutants verify and reach the pipelines.
    def _in_ptensor_types(self, text, before, group, after, choose):
        """`text` with one match of `group` (between the lookbehind `before`
        and the lookahead `after`) replaced inside every !ptensor.ptensor<...>
        type by the same replacement, picked by `choose`."""
        types = PTENSOR_TYPE.findall(text)
        pattern = before + "(" + group + ")" + after
        found = sorted({m for t in types for m in re.findall(pattern, t)})
        if not found:
            return text
        old, new = self.rng.choice(found), choose()
        exact = before + re.escape(old) + after
        return PTENSOR_TYPE.sub(lambda m: re.sub(exact, new, m.group(0)), text)

    def dtype_everywhere(self, text):
        return self._in_ptensor_types(text, r"(?<=[<x])", r"[a-z]\w*", r"(?=[,>])",
                                      lambda: self.rng.choice(DTYPES[:13]))

    def dim_everywhere(self, text):
        return self._in_ptensor_types(text, r"(?<=[<x])", r"\d+", r"(?=x)",
                                      lambda: self.rng.choice(["0", "1", "2", "3", "17", "?"]))

    def placement_everywhere(self, text):
        attr = self.rng.choice([', device = "cuda:0"', ', device = "cuda:0", team = 1', ", team = 1",
                                ', device = "cuda:3"'])
        text = re.sub(r', (device = "[^"]*"|team = \d+)', "", text)
        return re.sub(r"(!ptensor\.ptensor<[^<>]*?)>", lambda m: m.group(1) + attr + ">", text)

    def duplicate_line(self, line):
        return line + "\n" + line

    def delete_line(self, line):
        return ""

    MUTATIONS = [drop_token, swap_tokens, number, number, dim, dtype, device, team,
                 kind, kind, op_name, duplicate_line, delete_line] + \
        [dtype_everywhere, dim_everywhere, placement_everywhere] * 4
    WHOLE = (dtype_everywhere, dim_everywhere, placement_everywhere)


# Crashes of upstream MLIR (Debian's LLVM 22.1.8) in its own code, on input
# that any MLIR tool parses the same way: listed, not failures (ptensor
# cannot mend them without patching MLIR). A pattern is matched against
# the crash's stderr (LLVM's stack dump).
KNOWN_UPSTREAM = [
    (r"Parser::parseDenseArrayAttr", "array<index: ...> (llvm/llvm-project#179045, fixed by #179075 "
     "after 22.1.8; mlir-opt crashes the same way)"),
]


def known_upstream(stderr):
    for pattern, what in KNOWN_UPSTREAM:
        if re.search(pattern, stderr):
            return what
    return None


def crashed(returncode, stderr):
    """Why a ptensor-opt run counts as a crash, or None."""
    if returncode < 0:
        return "signal %d" % -returncode
    if returncode not in (0, 1):
        return "exit status %d" % returncode
    for marker in CRASH_MARKERS:
        if marker in stderr:
            return "stderr has %r" % marker
    return None


def run_batch(opt, stage, texts, timeout):
    """(failure or None, number of `texts` rejected with a diagnostic,
    stderr) for `texts` joined into one --split-input-file run of `stage`."""
    source = ("\n" + SPLIT + "\n").join(texts) + "\n"
    cmd = [opt, "--split-input-file", "-o", os.devnull, "-"] + STAGES[stage]
    try:
        p = subprocess.run(cmd, input=source, capture_output=True, text=True, timeout=timeout,
                           errors="replace")
    except subprocess.TimeoutExpired:
        return "no result within %d s (hang?)" % timeout, 0, ""
    # Diagnostics name lines of the whole input: map them to the chunks.
    first_lines, line = [], 1
    for t in texts:
        first_lines.append(line)
        line += t.count("\n") + 2
    rejected = {bisect_right(first_lines, int(n)) for n in
                re.findall(r"^<stdin>:(\d+):\d+: error:", p.stderr, flags=re.M)}
    return crashed(p.returncode, p.stderr), len(rejected), p.stderr


def bisect_batch(opt, stage, mutants, timeout):
    """(name, text, why, known upstream crash or None) of each mutant of a
    failing batch that fails alone."""
    bad = []
    for name, text in mutants:
        why, _, stderr = run_batch(opt, stage, [text], timeout)
        if why:
            bad.append((name, text, why, known_upstream(stderr)))
    return bad


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("paths", nargs="*", help="seed .mlir files or directories (default: test)")
    ap.add_argument("--opt", required=True, help="ptensor-opt to run")
    ap.add_argument("--count", type=int, default=1000, help="mutants per stage")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--batch", type=int, default=40, help="mutants per ptensor-opt process")
    ap.add_argument("--stages", default="verify,cpu,nvvm")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--timeout", type=int, default=120, help="seconds per batch")
    ap.add_argument("--save", help="directory for reproducers of crashes and hangs")
    ap.add_argument("--replay", help="run the .mlir files of this directory unmutated")
    ap.add_argument("--source-dir", default=os.path.join(os.path.dirname(__file__), ".."))
    args = ap.parse_args()

    stages = [s for s in args.stages.split(",") if s]
    for s in stages:
        if s not in STAGES:
            ap.error("unknown stage %r (expected %s)" % (s, ", ".join(STAGES)))
    if args.replay:
        names = sorted(n for n in os.listdir(args.replay) if n.endswith(".mlir"))
        mutants = [(n, open(os.path.join(args.replay, n)).read()) for n in names]
        batches = [[m] for m in mutants]
    else:
        seeds = chunks_of(args.paths or [os.path.join(args.source_dir, "test")])
        # Not the fuzzer's own regressions: they are replayed as they are.
        seeds = [s for s in seeds
                 if os.path.join("Fuzz", "Inputs", "regressions") not in s[0]]
        if not seeds:
            ap.error("no .mlir seeds under %s" % (args.paths or "test"))
        rng = random.Random(args.seed)
        op_names = sorted({m for _, t in seeds for m in re.findall(r"\bptensor\.\w+\b", t)})
        mutator = Mutator(rng, kinds_from_attrs(args.source_dir), op_names)
        mutants = []
        for i in range(args.count):
            name, text = rng.choice(seeds)
            mutants.append(("mutant %d of %s" % (i, name), mutator.mutate(text)))
        batches = [mutants[i:i + args.batch] for i in range(0, len(mutants), args.batch)]

    start = time.time()
    failures, upstream_crashes, rejected = [], [], {s: 0 for s in stages}
    jobs = [(stage, batch) for stage in stages for batch in batches]
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        futures = {pool.submit(run_batch, args.opt, stage, [t for _, t in batch], args.timeout):
                   (stage, batch) for stage, batch in jobs}
        for future in concurrent.futures.as_completed(futures):
            stage, batch = futures[future]
            why, count, stderr = future.result()
            rejected[stage] += count
            if why:
                found = bisect_batch(args.opt, stage, batch, args.timeout) if len(batch) > 1 else \
                    [(batch[0][0], batch[0][1], why, known_upstream(stderr))]
                if not found:  # only together (shared state between chunks)
                    found = [("batch of %d starting with %s" % (len(batch), batch[0][0]),
                              ("\n" + SPLIT + "\n").join(t for _, t in batch), why, None)]
                for name, text, why, upstream in found:
                    if upstream:
                        upstream_crashes.append((stage, name, upstream))
                    else:
                        failures.append((stage, name, text, why))

    for stage, name, what in upstream_crashes:
        print("known upstream crash [%s] %s: %s" % (stage, name, what))
    for i, (stage, name, text, why) in enumerate(failures):
        print("FAIL [%s] %s: %s" % (stage, name, why))
        if args.save:
            os.makedirs(args.save, exist_ok=True)
            path = os.path.join(args.save, "crash-%s-%d.mlir" % (stage, i))
            with open(path, "w") as f:
                f.write("// %s: %s (%s)\n%s\n" % (stage, why, name, text))
            print("  reproducer: %s" % path)
        else:
            print("\n".join("  | " + l for l in text.splitlines()[:40]))
    kind = "files" if args.replay else "mutants"
    print("fuzz: %d %s x %d stages in %.0f s, accepted/rejected with a diagnostic: %s; %s%s" % (
        len(mutants), kind, len(stages), time.time() - start,
        " ".join("%s %d/%d" % (s, len(mutants) - r, r) for s, r in rejected.items()),
        "%d crash(es) or hang(s)" % len(failures) if failures else "no crash, no hang",
        ", %d known upstream crash(es)" % len(upstream_crashes) if upstream_crashes else ""))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
