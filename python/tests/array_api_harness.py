"""Harness for running the array API conformance suite
(data-apis/array-api-tests) against ptensor; not a test of this directory
(python/README.md "Array API conformance" has the recipe).

The suite's Hypothesis strategies build every array with `xp.reshape` and
check values with `xp.all` / `xp.any`. ptensor has all three natively now
(the manipulation and reduction parts of issue 12), so no stand-in is
needed: run the suite with plain ARRAY_API_TESTS_MODULE=ptensor.

This module stays as the place for host-only numpy stand-ins should a
future suite version's strategies need a function ptensor lacks: each one
goes into `_STAND_IN_FUNCTIONS`, is added to the ptensor module object (in
the test process only, and only where ptensor has no such name) and is
named in `STAND_INS` so that reports can say so. Use it as

    ARRAY_API_TESTS_MODULE="exec('import array_api_harness; xp = array_api_harness.xp')"

with python/tests on PYTHONPATH.
"""

import ptensor

#: name -> host stand-in (a function of ptensor Arrays); none is needed
#: with the suite at 55fcc60 (API 2023.12).
_STAND_IN_FUNCTIONS = {}

_added = []
for _name, _fn in sorted(_STAND_IN_FUNCTIONS.items()):
    if not hasattr(ptensor, _name):
        setattr(ptensor, _name, _fn)
        _added.append(_name)

#: The functions added for the run (not part of ptensor): none.
STAND_INS = tuple(_added)

xp = ptensor
