"""The runtime library through ctypes: one thin function per C entry point of runtime/device.cpp.

ctypes (standard library) is enough: the interface is a dozen C functions on plain integers,
pointers and byte buffers, called a handful of times per run, so a binding generator (cffi,
pybind11) would add a build dependency for nothing. The library is loaded RTLD_GLOBAL so that the
kernels' shared objects, which call the runtime's ``tc::`` functions, resolve against it.
"""

from __future__ import annotations

import ctypes
import functools
import json
from typing import Any, Sequence

import numpy as np

from .build import runtime_library
from .trace import EVENT_DTYPE

_U32 = ctypes.c_uint32
_U64 = ctypes.c_uint64
_INT = ctypes.c_int
_P = ctypes.c_void_p


@functools.cache
def lib() -> ctypes.CDLL:
    so = ctypes.CDLL(str(runtime_library()), mode=ctypes.RTLD_GLOBAL)
    sigs: dict[str, tuple[Any, list[Any]]] = {
        "tc_create": (_P, [_U32, _U32, _U32, _U32, _U32, _U32, _U32, _U32, _INT, _P, _INT, _P, _P, _INT, _P, _INT]),
        "tc_destroy": (None, [_P]),
        "tc_add_cb": (_INT, [_P, _INT, _INT, _U32, _U32, _U32, _INT, _INT, _INT]),
        "tc_add_semaphore": (_INT, [_P, _INT, _INT, _U32]),
        "tc_add_region": (_INT, [_P, _INT, _INT, _U64, _U64, ctypes.c_char_p]),
        "tc_write": (_INT, [_P, _INT, _INT, _U64, _P, _U64]),
        "tc_read": (_INT, [_P, _INT, _INT, _U64, _P, _U64]),
        "tc_interleaved": (_INT, [_P, _INT, _INT, _U64, _U32, _U32, _U64, _P]),
        "tc_dram_written": (_INT, [_P, _U64]),
        "tc_tiled_tensor": (_INT, [_P, _INT, _INT, _U64, _U32, _INT, _INT, _P, _U64, _U32, _U32]),
        "tc_last_error": (ctypes.c_char_p, []),
        "tc_load_kernel": (_P, [_P, ctypes.c_char_p, ctypes.c_char_p, _INT]),
        "tc_add_fiber": (_INT, [_P, _INT, _INT, _P, _P, _INT, _P, _INT]),
        "tc_run": (_INT, [_P]),
        "tc_findings_json": (ctypes.c_char_p, [_P]),
        "tc_dprint_log": (ctypes.c_char_p, [_P]),
        "tc_switches": (_U64, [_P]),
        "tc_encode_tiles": (_INT, [_INT, _INT, _INT, _P, _INT, _U64, _P]),
        "tc_decode_tiles": (_INT, [_INT, _INT, _INT, _P, _U64, _P]),
        "tc_tile_bytes": (_U32, [_INT, _INT, _INT]),
        "tc_trace_enable": (None, [_P, _INT]),
        "tc_trace_size": (_U64, [_P]),
        "tc_trace_copy": (None, [_P, _P]),
        "tc_trace_files": (ctypes.c_char_p, [_P]),
    }
    for name, (restype, argtypes) in sigs.items():
        fn = getattr(so, name)
        fn.restype = restype
        fn.argtypes = argtypes
    return so


def _ptr(array: np.ndarray) -> int:
    return array.ctypes.data


class NativeDevice:
    """One emulated chip for one program run (owns the C device; close() frees it)."""

    def __init__(self, *, l1_size: int, l1_reserved: int, num_cbs: int, sem_base: int, args_base: int,
                 noc_size: tuple[int, int], dram_alignment: int,
                 cores: Sequence[tuple[int, int, int, int, int, int]],
                 dram: Sequence[tuple[int, int]], dram_sizes: Sequence[int], l1_banks: Sequence[int],
                 sanitize_fatal: bool):
        self._lib = lib()
        core_table = np.array(cores, dtype=np.int32).reshape(-1)
        dram_table = np.array(dram, dtype=np.int32).reshape(-1)
        sizes = np.array(dram_sizes, dtype=np.uint64)
        banks = np.array(l1_banks, dtype=np.int32)
        self._keep = (core_table, dram_table, sizes, banks)
        self.handle = self._lib.tc_create(l1_size, l1_reserved, num_cbs, sem_base, args_base, noc_size[0],
                                          noc_size[1], dram_alignment, len(cores), _ptr(core_table), len(dram),
                                          _ptr(dram_table), _ptr(sizes), len(l1_banks), _ptr(banks),
                                          int(sanitize_fatal))
        if not self.handle:
            raise MemoryError("the emulator could not map L1 below 2 GiB (MAP_32BIT); too many cores?")

    def close(self) -> None:
        if self.handle:
            self._lib.tc_destroy(self.handle)
            self.handle = None

    def add_cb(self, core: int, index: int, addr: int, size: int, page_size: int, fmt: int, rows: int,
               cols: int) -> None:
        if self._lib.tc_add_cb(self.handle, core, index, addr, size, page_size, fmt, rows, cols) != 0:
            raise ValueError(f"CB {index} cannot be placed on core {core}")

    def add_semaphore(self, core: int, sem_id: int, initial: int) -> None:
        self._lib.tc_add_semaphore(self.handle, core, sem_id, initial & 0xFFFFFFFF)

    def add_region(self, dram: bool, index: int, start: int, end: int, what: str) -> None:
        if self._lib.tc_add_region(self.handle, int(dram), index, start, end, what.encode()) != 0:
            raise MemoryError(f"{what} does not fit the emulated {'DRAM bank' if dram else 'L1'} {index}")

    def interleaved(self, dram: bool, write: bool, base: int, page_size: int, aligned_page: int,
                    data: np.ndarray) -> None:
        pages = data.size * data.itemsize // page_size
        if self._lib.tc_interleaved(self.handle, int(dram), int(write), base, page_size, aligned_page, pages,
                                    _ptr(data)) != 0:
            raise MemoryError("an interleaved tensor does not fit the emulated memory")

    def tiled_tensor(self, dram: bool, write: bool, base: int, aligned_page: int, fmt: int, integer: bool,
                     words: np.ndarray, lead: int, rows: int, cols: int) -> None:
        """Row-major uint32 ``words`` <-> the tensor's tile pages (tilized, encoded, interleaved)."""
        assert words.dtype == np.uint32 and words.flags.c_contiguous
        code = self._lib.tc_tiled_tensor(self.handle, int(dram), int(write), base, aligned_page, fmt, int(integer),
                                         _ptr(words), lead, rows, cols)
        if code == -1:
            raise MemoryError("an interleaved tensor does not fit the emulated memory")
        if code != 0:
            raise ValueError(f"no tile encoding for data format {fmt}")

    def dram_written(self, base: int) -> bool:
        """Whether a kernel wrote into the DRAM buffer at ``base``."""
        return bool(self._lib.tc_dram_written(self.handle, base))

    def write(self, dram: bool, index: int, offset: int, data: np.ndarray) -> None:
        if self._lib.tc_write(self.handle, int(dram), index, offset, _ptr(data), data.nbytes) != 0:
            raise MemoryError("write outside the emulated memory")

    def read(self, dram: bool, index: int, offset: int, out: np.ndarray) -> None:
        if self._lib.tc_read(self.handle, int(dram), index, offset, _ptr(out), out.nbytes) != 0:
            raise MemoryError("read outside the emulated memory")

    def load_kernel(self, path: str, name: str, noc: int) -> int:
        """A data-movement kernel's shared object (its ``tc_kernel_entry``), run on NoC ``noc``."""
        kernel = self._lib.tc_load_kernel(self.handle, path.encode(), name.encode(), noc)
        if not kernel:
            raise RuntimeError(f"loading {path} failed: {self._lib.tc_last_error().decode()}")
        return kernel

    def add_fiber(self, core: int, slot: int, kernel: int, args: Sequence[int], common: Sequence[int]) -> None:
        a = np.array([int(v) & 0xFFFFFFFF for v in args] or [0], dtype=np.uint32)
        c = np.array([int(v) & 0xFFFFFFFF for v in common] or [0], dtype=np.uint32)
        if self._lib.tc_add_fiber(self.handle, core, slot, kernel, _ptr(a), len(args), _ptr(c), len(common)) != 0:
            raise ValueError(f"a kernel cannot take more than 1024 runtime args (core {core})")

    def run(self) -> bool:
        """Run every kernel to completion; True when no error was found."""
        return self._lib.tc_run(self.handle) == 0

    def findings(self) -> list[dict]:
        return json.loads(self._lib.tc_findings_json(self.handle).decode())

    def dprint_log(self) -> str:
        return self._lib.tc_dprint_log(self.handle).decode()

    def switches(self) -> int:
        return int(self._lib.tc_switches(self.handle))

    def enable_trace(self) -> None:
        """Record every kernel API call from now on (:mod:`.trace`)."""
        self._lib.tc_trace_enable(self.handle, 1)

    def trace(self) -> tuple[np.ndarray, list[str]]:
        """The recorded events (``trace.EVENT_DTYPE``) and the source files they name."""
        events = np.empty(int(self._lib.tc_trace_size(self.handle)), dtype=EVENT_DTYPE)
        if events.size:
            self._lib.tc_trace_copy(self.handle, _ptr(events))
        files = self._lib.tc_trace_files(self.handle).decode().split("\n")[:-1]
        return events, files


def encode_tiles(fmt: int, rows: int, cols: int, words: np.ndarray, integer: bool) -> np.ndarray:
    """Face-ordered 32-bit words, one tile after another -> the tiles' bytes in format ``fmt``."""
    words = np.ascontiguousarray(words, dtype=np.uint32)
    tiles = words.size // (rows * cols)
    out = np.empty(tiles * lib().tc_tile_bytes(fmt, rows, cols), dtype=np.uint8)
    if lib().tc_encode_tiles(fmt, rows, cols, _ptr(words), int(integer), tiles, _ptr(out)) != 0:
        raise ValueError(f"no tile encoding for data format {fmt}")
    return out


def decode_tiles(fmt: int, rows: int, cols: int, data: np.ndarray, tiles: int) -> np.ndarray:
    data = np.ascontiguousarray(data, dtype=np.uint8)
    out = np.empty(tiles * rows * cols, dtype=np.uint32)
    if lib().tc_decode_tiles(fmt, rows, cols, _ptr(data), tiles, _ptr(out)) != 0:
        raise ValueError(f"no tile decoding for data format {fmt}")
    return out


def tile_bytes(fmt: int, rows: int = 32, cols: int = 32) -> int:
    return int(lib().tc_tile_bytes(fmt, rows, cols))
