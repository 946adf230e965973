"""Writes each `// -----` chunk of the .mlir files under argv[1] as one
file of the libFuzzer corpus argv[2] (comment lines dropped)."""
import os
import sys

root, out = sys.argv[1], sys.argv[2]
n = 0
for d, _, names in os.walk(root):
    for name in sorted(names):
        if not name.endswith(".mlir"):
            continue
        text = open(os.path.join(d, name), errors="replace").read()
        for part in text.split("// -----"):
            body = "\n".join(l for l in part.splitlines() if not l.lstrip().startswith("//")).strip()
            if body and len(body) < 8192:
                with open(os.path.join(out, "seed%05d.mlir" % n), "w") as f:
                    f.write(body + "\n")
                n += 1
print("corpus: %d seeds" % n)
