# Every elementwise_binary kind on two operands of the same dtype, for every
# dtype (bool: bitwise and/or/xor only), against numpy / exact integer
# references: integer division and remainder by zero give 0, INT_MIN // -1
# wraps, remainder takes the divisor's sign, shifts by >= the width give 0
# (-1 for negative values shifted right), integer pow with exponents >= 0.
# One function per dtype returns all kinds.
# RUN: %python %s %t
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Inputs"))
from binary_cases import *  # noqa: E402,F403

suite = Suite(__file__)
gen = Gen(7)
for i, dt in enumerate(ALL_DTYPES):
    fn = binary_func("binary_%s_%s" % (dt, dt), gen, dt, dt,
                     dynamic=(i % 3 == 1, i % 3 == 2))
    suite.check(fn)
sys.exit(suite.finish())
