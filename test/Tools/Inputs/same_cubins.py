"""Checks that the cubins an object file embeds (ptensor-compile -c: ptxas
ran beside the host compile, its cubins got an object of their own, merged
with the host object) are, byte for byte, the ones
ptensor-to-nvvm-pipeline's gpu-module-to-binary made (ptensor-opt).

    same_cubins.py PIPELINE_OUTPUT.mlir OBJECT.o
"""

import re
import subprocess
import sys
import tempfile


def mlir_string(text):
    """The bytes of an MLIR string literal's body (printEscapedString:
    `\\\\` and two-digit hex escapes)."""
    out, i = bytearray(), 0
    while i < len(text):
        if text[i] == "\\":
            if text[i + 1] == "\\":
                out.append(0x5C)
                i += 2
            else:
                out.append(int(text[i + 1:i + 3], 16))
                i += 3
        else:
            out.extend(text[i].encode())
            i += 1
    return bytes(out)


def pipeline_cubins(path):
    """gpu.binary name -> cubin, from ptensor-opt's output."""
    text = open(path).read()
    found = re.findall(r'gpu\.binary @(\w+)\s.*?, bin = "((?:[^"\\]|\\.)*)"', text)
    return {name: mlir_string(body) for name, body in found}


def object_symbols(path):
    """symbol name -> bytes, for the NAME_binary and NAME_binary_size
    symbols of an object."""
    table = subprocess.run(["llvm-objdump", "-t", path], check=True,
                           capture_output=True, text=True).stdout
    symbols = {}
    for line in table.splitlines():
        # The cubins are hidden symbols of the object ptxas's output went in.
        fields = [f for f in line.split() if f != ".hidden"]
        if fields and fields[-1].endswith(("_binary", "_binary_size")):
            # VALUE FLAGS... SECTION SIZE NAME
            symbols[fields[-1]] = (fields[-3], int(fields[0], 16), int(fields[-2], 16))
    contents = {}
    with tempfile.TemporaryDirectory() as tmp:
        for name, (section, offset, size) in symbols.items():
            dump = "%s/%s" % (tmp, name)
            subprocess.run(["llvm-objcopy", "--dump-section=%s=%s" % (section, dump),
                            path, "%s/copy.o" % tmp], check=True)
            contents[name] = open(dump, "rb").read()[offset:offset + size]
    return contents


expected = pipeline_cubins(sys.argv[1])
embedded = object_symbols(sys.argv[2])
if not expected:
    sys.exit("no gpu.binary with a cubin in %s" % sys.argv[1])
expected_symbols = sorted(n + s for n in expected for s in ("_binary", "_binary_size"))
if expected_symbols != sorted(embedded):
    sys.exit("gpu.binary ops %s, symbols %s" % (sorted(expected), sorted(embedded)))
for name, cubin in expected.items():
    if not cubin.startswith(b"\x7fELF"):
        sys.exit("%s: the pipeline's object is not a cubin" % name)
    if embedded[name + "_binary"] != cubin:
        sys.exit("%s: the object embeds %d bytes, the pipeline made a %d-byte cubin"
                 % (name, len(embedded[name + "_binary"]), len(cubin)))
    size = int.from_bytes(embedded[name + "_binary_size"], "little")
    if size != len(cubin):
        sys.exit("%s: the object's %s_binary_size is %d, the cubin has %d bytes"
                 % (name, name, size, len(cubin)))
print("same cubins:", ", ".join("%s (%d bytes)" % (n, len(c)) for n, c in sorted(expected.items())))
