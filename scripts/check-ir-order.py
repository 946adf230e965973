#!/usr/bin/env python3
"""Lint: no call builds IR in more than one of its arguments.

C++ leaves the order in which a call's arguments are evaluated unspecified
(GCC evaluates right to left, Clang left to right), so
`AndIOp::create(b, loc, cmp(x), cmp(y))` creates the two comparisons in an
order that depends on the compiler, and FileCheck tests that pass with one
compiler fail with the other. Build such operands in statements first.

The check is lexical: an argument "builds IR" when it calls `::create`,
`.create<`, LLVM's IRBuilder (`b.CreateAdd(`, `->CreateCall(`, ...), an
Emitter/IndexMath helper (`e.`/`m.`) or a helper whose name
says it builds (see BUILDERS). Lambdas passed as region builders are not
arguments that build (they run inside the call, in a fixed order).

Usage: check-ir-order.py FILE_OR_DIR...   (C++ files under each directory;
exit 1 and one line per finding)
"""
import os
import re
import sys

BUILDERS = (r"c|i32|add|sub|mul|eq|is|isOne|isZero|fits|cst|indexConstant|"
            r"i32Constant|castToStorage|convertScalar|strideAt|vectorAligned|"
            r"toIndex|build\w*|emit\w*|load\w*|make\w*")
CREATES = re.compile(
    r"::create\s*\(|\.create\s*<|createOrFold|(?:\.|->)Create[A-Z]\w*\s*\(|"
    r"\b[em]\.(?!get|isFloat|isUnsigned|width|storage)\w+\s*\(|"
    r"(?<![\w.>])(?:" + BUILDERS + r")\s*\(")
LAMBDA = re.compile(r"^\s*\[[^\]]*\]\s*(\([^)]*\))?\s*(->\s*[\w:<>]+\s*)?\{")
KEYWORDS = {"if", "for", "while", "switch", "return", "sizeof", "catch"}


def blank(match):
    text = match.group(0)
    return re.sub(r"[^\n]", " ", text)


def strip(src):
    src = re.sub(r"//[^\n]*", blank, src)
    src = re.sub(r"/\*.*?\*/", blank, src, flags=re.S)
    return re.sub(r'"(?:\\.|[^"\\\n])*"', blank, src)


def arguments(src, open_paren):
    """The [start, end) spans of the top-level arguments of a call."""
    depth, start, spans = 0, open_paren + 1, []
    for j in range(open_paren, len(src)):
        ch = src[j]
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
            if depth == 0:
                spans.append((start, j))
                return spans
        elif ch == "," and depth == 1:
            spans.append((start, j))
            start = j + 1
    return spans


def check(path):
    src = strip(open(path, encoding="utf-8").read())
    findings = []
    for call in re.finditer(r"[A-Za-z_][\w:]*\s*\(", src):
        name = call.group(0)[:-1].strip()
        if name in KEYWORDS:
            continue
        building = [
            (a, b) for a, b in arguments(src, call.end() - 1)
            if CREATES.search(src[a:b]) and not LAMBDA.match(src[a:b])
        ]
        if len(building) >= 2:
            line = src.count("\n", 0, call.start()) + 1
            findings.append(f"{path}:{line}: {name}(...) builds IR in "
                            f"{len(building)} of its arguments; build them "
                            "in statements first (evaluation order)")
    return findings


def sources(paths):
    for path in paths:
        if not os.path.isdir(path):
            yield path
            continue
        for root, _, files in sorted(os.walk(path)):
            for name in sorted(files):
                if name.endswith((".cpp", ".h")):
                    yield os.path.join(root, name)


def main(paths):
    findings = [f for p in sources(paths) for f in check(p)]
    print("\n".join(findings)) if findings else None
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
