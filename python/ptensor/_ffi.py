"""Loading libraries built by the compiler (docs/ABI.md).

A library exports the JSON `ptensor_module_signature` and, per function
`f`, the packed entry point `_ptensor_packed_f(void **args)`. Each function
becomes a `ptensor._core.Kernel`, which reads arrays, checks them against
the signature, builds the memref descriptors and calls the entry point in
C++ (python/src/Kernel.cpp); results are freshly allocated (malloc on the
host, the runtime's allocator on the GPU) unless they are views of an
argument.
"""

import json

from . import _core
from . import _runtime as R
from ._errors import CompileError, DeviceError

#: The compiled-module ABI this reader understands (docs/ABI.md; the
#: compiler's kModuleABIVersion, written into every signature as "abi").
MODULE_ABI_VERSION = 3

#: A compiled function: call it with arrays and scalars.
Function = _core.Kernel


class Library:
    """A loaded library of ptensor-compile with its signature."""

    def __init__(self, path, target):
        self.path = path
        self.target = target
        if target == "cuda":
            # The runtime's mgpu* symbols must be global before the kernels
            # load, and loading runs the kernels' module constructors, which
            # would end the process without a driver: check first.
            if not R.cuda_available():
                raise DeviceError("cannot load CUDA kernels %s: %s" % (
                    path, R.last_error() or "no CUDA device"))
        # Every symbol bound at load (a missing one is an error here, and
        # the entry is compiled again), as ctypes.CDLL(path) would; symbols
        # are looked up through _core (a ctypes.CDLL makes a class per
        # library: a tenth of a first call's loading).
        self.handle = _core.load_shared_library(path, lazy=False, global_=False)
        self.signature = json.loads(_core.library_string(self.handle, path,
                                                         "ptensor_module_signature"))
        abi = self.signature.get("abi")
        if abi != MODULE_ABI_VERSION:
            raise CompileError(
                "%s has module ABI version %s; this ptensor reads version %d "
                "(docs/ABI.md): recompile it with this ptensor-compile"
                % (path, abi, MODULE_ABI_VERSION), "", "")
        cuda = target == "cuda"
        #: The processes its team tensors are split over (1: whole); above
        #: 1 its functions take and return whole arrays on every process
        #: of the MPI job, which each computes its block of (docs/Teams.md).
        self.team_size = self.signature["team_size"]
        self.functions = {}
        for f in self.signature["functions"]:
            entry = self._symbol("_ptensor_packed_" + f["name"])
            self.functions[f["name"]] = Function(entry, f["name"], f["args"], f["results"],
                                                 cuda, self, self.team_size)

    def _symbol(self, name):
        """The address of `name` in the library; OSError when it lacks it."""
        return _core.library_symbol(self.handle, self.path, name)

    @property
    def uses_teams(self):
        """Whether a function takes or returns a team tensor."""
        return any(v.get("team") for f in self.signature["functions"]
                   for v in f["args"] + f["results"])

    def __getitem__(self, name):
        return self.functions[name]

    def __getattr__(self, name):
        try:
            return self.__dict__["functions"][name]
        except KeyError:
            raise AttributeError(name) from None

    def __repr__(self):
        return "<ptensor.Library %s (%s): %s>" % (self.path, self.target,
                                                  ", ".join(self.functions))
