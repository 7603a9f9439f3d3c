"""The C library's fp32 functions (``expf``, ``tanhf``, ``powf`` ...), for ``--numerics device``.

The kernel emulator's SFPU evaluates transcendental functions with the C++ standard library on
floats (``std::exp(x)`` is ``expf``), and glibc's fp32 functions are not all correctly rounded:
``expf`` differs from the float64 value rounded once in about 6 of 10,000 random inputs, ``tanhf``
and ``expm1f`` in percents. To compute what the emulator computes, the device mode calls the same
functions, through ctypes, once per distinct input value (a bfloat16 source has at most 65,536;
fp32 data may have one per element, about 3 us each). Where the C library cannot be loaded, the
float64 value rounded once stands in, within about one fp32 ulp (docs/numerics.md section 9).
"""

from __future__ import annotations

import ctypes
import ctypes.util
import functools
from typing import Callable

import numpy as np
import torch

Tensor = torch.Tensor

#: the fp32 functions of the C library by name, and the float64 torch function that stands in for each
UNARY: dict[str, Callable[[Tensor], Tensor]] = {
    "expf": torch.exp, "exp2f": torch.exp2, "expm1f": torch.expm1, "logf": torch.log, "log1pf": torch.log1p,
    "sinf": torch.sin, "cosf": torch.cos, "tanf": torch.tan, "asinf": torch.asin, "acosf": torch.acos,
    "atanf": torch.atan, "sinhf": torch.sinh, "coshf": torch.cosh, "tanhf": torch.tanh, "asinhf": torch.asinh,
    "acoshf": torch.acosh, "atanhf": torch.atanh, "erff": torch.erf, "erfcf": torch.erfc,
}
BINARY: dict[str, Callable[[Tensor, Tensor], Tensor]] = {"powf": torch.pow, "atan2f": torch.atan2}


@functools.cache
def _library() -> ctypes.CDLL | None:
    name = ctypes.util.find_library("m")
    try:
        return ctypes.CDLL(name) if name else None
    except OSError:
        return None


@functools.cache
def _function(name: str, arity: int) -> np.ufunc | None:
    """The C function as a numpy ufunc over Python floats (None without the C library)."""
    library = _library()
    if library is None:
        return None
    fn = getattr(library, name)
    fn.restype = ctypes.c_float
    fn.argtypes = [ctypes.c_float] * arity
    return np.frompyfunc(fn, arity, 1)


def unary(name: str) -> Callable[[Tensor], Tensor]:
    """``name`` (e.g. ``"expf"``) of a tensor, as fp32, on the tensor's device."""
    fallback = UNARY[name]

    def apply(x: Tensor) -> Tensor:
        fn = _function(name, 1)
        if fn is None:
            return fallback(x.double()).to(torch.float32)
        values = x.detach().to("cpu", torch.float32).contiguous().numpy()
        distinct, where = np.unique(values.view(np.uint32), return_inverse=True)
        out = fn(distinct.view(np.float32)).astype(np.float32)[where.reshape(values.shape)]
        return torch.from_numpy(out).to(x.device)

    return apply


def binary(name: str) -> Callable[[Tensor, Tensor], Tensor]:
    """``name`` (``"powf"``, ``"atan2f"``) of two broadcast tensors, element by element, as fp32."""
    fallback = BINARY[name]

    def apply(a: Tensor, b: Tensor) -> Tensor:
        fn = _function(name, 2)
        if fn is None:
            return fallback(a.double(), b.double()).to(torch.float32)
        x, y = np.broadcast_arrays(a.detach().to("cpu", torch.float32).numpy(),
                                   b.detach().to("cpu", torch.float32).numpy())
        return torch.from_numpy(fn(x, y).astype(np.float32)).to(a.device)

    return apply
