"""Writes the PTX of each `assembly = "..."` object that ptensor-opt
printed on stdin to PREFIX0.ptx, PREFIX1.ptx, ... (MLIR string escapes
undone), and fails when there is none.

    ptensor-opt ... | ptx_objects.py PREFIX
"""

import re
import sys

texts = re.findall(r'assembly = "((?:[^"\\]|\\.)*)"', sys.stdin.read())
if not texts:
    sys.exit("ptx_objects.py: no object in PTX on stdin")
for i, text in enumerate(texts):
    ptx = re.sub(r"\\([0-9A-Fa-f]{2}|\\)",
                 lambda m: "\\" if m.group(1) == "\\" else chr(int(m.group(1), 16)),
                 text)
    with open("%s%d.ptx" % (sys.argv[1], i), "w") as f:
        f.write(ptx)
