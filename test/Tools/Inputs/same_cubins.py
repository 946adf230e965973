"""Checks that the cubins an object file embeds (ptensor-compile -c: ptxas
ran beside the host compile, its cubins got an object of their own, merged
with the host object) are the ones ptensor-to-nvvm-pipeline's
gpu-module-to-binary made (ptensor-opt): byte for byte, or, when the
compile driver gave ptxas the kernels' PTX in parts (KernelParts.cpp), with
the same sections and the same bytes in each kernel's code, constants and
relocations (the sections that only list or index symbols follow the
parts' order).

    same_cubins.py PIPELINE_OUTPUT.mlir OBJECT.o
"""

import re
import struct
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


def elf_sections(cubin):
    """section name -> contents (the size for SHT_NOBITS) of an ELF64 file."""
    shoff, = struct.unpack_from("<Q", cubin, 0x28)
    entsize, count, names = struct.unpack_from("<HHH", cubin, 0x3A)
    headers = [struct.unpack_from("<IIQQQQIIQQ", cubin, shoff + i * entsize)
               for i in range(count)]
    table = headers[names][4]
    sections = {}
    for name, kind, _, _, offset, size, *_ in headers:
        name = cubin[table + name:cubin.index(b"\0", table + name)].decode()
        sections[name] = size if kind == 8 else cubin[offset:offset + size]
    return sections


KERNEL_SECTIONS = (".text.", ".rela.text.", ".nv.constant0.", ".nv.shared.")


def same_kernels(embedded, expected):
    """Whether two cubins have the same sections and the same kernels'
    code; the number of kernels when they do."""
    ours, theirs = elf_sections(embedded), elf_sections(expected)
    if sorted(ours) != sorted(theirs):
        return None
    if any(ours[n] != theirs[n] for n in ours if n.startswith(KERNEL_SECTIONS)):
        return None
    return sum(n.startswith(".text.") for n in ours)


expected = pipeline_cubins(sys.argv[1])
embedded = object_symbols(sys.argv[2])
if not expected:
    sys.exit("no gpu.binary with a cubin in %s" % sys.argv[1])
expected_symbols = sorted(n + s for n in expected for s in ("_binary", "_binary_size"))
if expected_symbols != sorted(embedded):
    sys.exit("gpu.binary ops %s, symbols %s" % (sorted(expected), sorted(embedded)))
found = []
for name, cubin in sorted(expected.items()):
    if not cubin.startswith(b"\x7fELF"):
        sys.exit("%s: the pipeline's object is not a cubin" % name)
    ours = embedded[name + "_binary"]
    size = int.from_bytes(embedded[name + "_binary_size"], "little")
    if size != len(ours):
        sys.exit("%s: the object's %s_binary_size is %d, the cubin has %d bytes"
                 % (name, name, size, len(ours)))
    if ours == cubin:
        found.append("same cubin: %s (%d bytes)" % (name, len(cubin)))
        continue
    kernels = same_kernels(ours, cubin)
    if kernels is None:
        sys.exit("%s: the object embeds a %d-byte cubin whose sections or "
                 "kernels' code differ from the pipeline's %d-byte cubin"
                 % (name, len(ours), len(cubin)))
    found.append("same kernels' code: %s (%d kernels)" % (name, kernels))
print("\n".join(found))
