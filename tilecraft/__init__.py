"""tilecraft: TT-Lang kernels for Tenstorrent Tensix, simulated on a CPU.

``import tilecraft as ttl`` gives the language (both the seed specification's spellings and the
published TT-Lang 1.1 ones); ``import tilecraft.ttnn as ttnn`` gives the simulated ttnn.
"""

from __future__ import annotations

import gc as _gc

# Importing torch and tilecraft creates about a million long-lived objects (modules, functions,
# classes): the cyclic garbage collector walked them three times during these imports (~0.1 s of
# every run) and freed nothing. It is paused for the imports, what they made is moved out of its
# sight (gc.freeze: later collections skip it), and it is resumed as it was.
_collecting = _gc.isenabled()
_gc.disable()
try:
    from .dtypes import TILE_COLS, TILE_ROWS
    from .lang import block, math
    from .lang.buffers import CircularBuffer, make_circular_buffer_like, make_dataflow_buffer_like
    from .lang.dataflow import GroupTransfer, copy, signpost
    from .lang.grid import block_index, core, grid_size, node
    from .lang.kernel import Program, kernel, operation
    from .lang.pipes import Pipe, PipeNet, if_pipe_dst, if_pipe_src
    from .lang.semaphores import MulticastRemoteSemaphore, Semaphore, UnicastRemoteSemaphore
    from .lang.threads import compute, datamovement
    from .lang.typenames import DstPipeIdentity, DstT, NodeCoord, NodeRange, Shape, Size, SrcPipeIdentity
    from .ttnn.layout import ROW_MAJOR_LAYOUT, TILE_LAYOUT
    from . import driver as _driver  # installs the launcher
    from .fuse import fuse
    from .tune import Config, SearchSpace, autotune, tune_options
    from .version import __version__
finally:
    _gc.freeze()
    if _collecting:
        _gc.enable()

TILE_SHAPE = (TILE_ROWS, TILE_COLS)

__all__ = [
    "CircularBuffer", "Config", "DstPipeIdentity", "DstT", "GroupTransfer", "MulticastRemoteSemaphore", "NodeCoord",
    "NodeRange", "Pipe", "PipeNet", "Program", "ROW_MAJOR_LAYOUT", "SearchSpace", "Semaphore", "Shape", "Size",
    "SrcPipeIdentity", "TILE_LAYOUT", "TILE_SHAPE", "UnicastRemoteSemaphore", "autotune", "block", "compute", "copy",
    "block_index", "core", "datamovement", "fuse",
    "grid_size", "if_pipe_dst", "if_pipe_src", "kernel", "make_circular_buffer_like",
    "make_dataflow_buffer_like", "math", "node", "operation", "signpost", "tune_options",
]
