"""Harness for running the array API conformance suite
(data-apis/array-api-tests) against ptensor; not a test of this directory
(python/README.md "Array API conformance" has the recipe).

The suite's Hypothesis strategies build every array with `xp.reshape` and
check values with `xp.all` / `xp.any`, which ptensor does not have yet
(manipulation and reductions are other parts of issue 12). For the run,
this module adds host-only numpy stand-ins of those three to the ptensor
module object, in the test process only, and names them in
`STAND_INS` so that reports can say so. Use it as

    ARRAY_API_TESTS_MODULE="exec('import array_api_harness; xp = array_api_harness.xp')"

with python/tests on PYTHONPATH. test_has_names.py is run with plain
ARRAY_API_TESTS_MODULE=ptensor (without the stand-ins).
"""

import numpy as np

import ptensor
from ptensor._array import Array

#: The functions added for the run (not part of ptensor).
STAND_INS = ("all", "any", "reshape")


def _host(x):
    return np.asarray(x._array if isinstance(x, Array) else x)


def _all(x, /, *, axis=None, keepdims=False):
    return ptensor.asarray(np.all(_host(x), axis=axis, keepdims=keepdims))


def _any(x, /, *, axis=None, keepdims=False):
    return ptensor.asarray(np.any(_host(x), axis=axis, keepdims=keepdims))


def _reshape(x, /, shape, *, copy=None):
    return ptensor.asarray(np.reshape(_host(x), shape), copy=copy)


for _name, _fn in zip(STAND_INS, (_all, _any, _reshape)):
    if not hasattr(ptensor, _name):
        setattr(ptensor, _name, _fn)

xp = ptensor
