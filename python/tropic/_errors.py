"""tropic's exceptions: one class per tropic::error_code (lib/tropic/error.hpp).

Each derives from TropicError and from the built-in exception a Python user already catches
(ValueError, IndexError, MemoryError, ...); the message is tropic's own, naming the argument,
file, line or value at fault.
"""


class TropicError(Exception):
    """Base of every error raised by tropic's C++ code."""

    code = None


class InvalidValueError(TropicError, ValueError):
    code = "invalid_value"


class InvalidIndexError(TropicError, IndexError):
    code = "invalid_index"


class ParseError(TropicError, ValueError):
    code = "parse"


class FileError(TropicError, OSError):
    code = "io"


class NotAvailableError(TropicError, NotImplementedError):
    code = "not_implemented"


class DistanceOverflowError(TropicError, OverflowError):
    code = "overflow"


class OutOfMemoryError(TropicError, MemoryError):
    code = "out_of_memory"


class NoDeviceError(TropicError, RuntimeError):
    code = "no_device"


class CudaError(TropicError, RuntimeError):
    code = "cuda"


class GraphBLASError(TropicError, RuntimeError):
    code = "graphblas"


class NegativeCycleError(TropicError, ValueError):
    """A cycle of negative weight is reachable from the source: no shortest paths exist. The
    message names a vertex on the cycle (scipy.sparse.csgraph raises its own NegativeCycleError
    for the same graphs)."""

    code = "negative_cycle"
