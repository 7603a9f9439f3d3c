"""The compute kernel API as the ttnn 0.81.1 wheel's own headers declare it.

Compute kernels compile against the real 0.81.1 compute API on the Tensix machine
(tensix_compute.py), so the tables that describe that API to a kernel author (PyKernel's call
checks, the "declared in which header" hint of an unknown-call error) read the same headers the
kernels are compiled with, as dataflow_api_table.py does for the data-movement API. The headers are
the ones the header check and the machine's include tree fetch (wheel_headers.ensure_headers).

What counts as the compute API: every function declared under ``api/compute/`` (the argument
accessors ``get_arg_val`` and ``get_common_arg_val`` among them, in ``api/compute/common.h``) but
its Metal 2.0 operand forms (``experimental/2_0``: overloads on ``LLKOperand``, which the trace
does not report), and the headers directly under ``api/`` a compute kernel includes
(``compile_time_args.h``, ``alignment.h``). The enums a compute call takes are declared there too, or in the LLK's and the
firmware's headers that the compute API includes (``ENUM_HEADERS``).
"""

from __future__ import annotations

import functools
from pathlib import Path

from .dataflow_api_table import kernel_include_root
from .signatures import Signature, scan

#: the tree (relative to tt_metal/hw/inc) whose declarations are compute API
API_TREE = "api/compute"
#: the Metal 2.0 operand forms of the API, left out (see above)
METAL2_FORMS = "api/compute/experimental/2_0/"
#: headers directly under api/ that compute kernels include
API_HEADERS = ("api/alignment.h", "api/compile_time_args.h")
#: headers (relative to tt_metal) that declare enums the compute API takes without declaring them
#: itself: the LLK's (PoolType, ReduceDim, BroadcastType, RoundingMode, ...), the CB indices and
#: the data formats (Wormhole B0's; Blackhole's are the same enumerators)
ENUM_HEADERS = ("tt-llk/tt_llk_wormhole_b0/llk_lib/llk_defs.h", "tt-llk/tt_llk_wormhole_b0/common/inc/ckernel_defs.h",
                "hostdevcommon/api/hostdevcommon/kernel_structs.h",
                "hw/inc/internal/tt-1xx/wormhole/wormhole_b0_defines/tensix_types.h")


def api_files() -> list[tuple[Path, str]]:
    """Each header the compute API is read from, with the path a kernel includes for it."""
    root = kernel_include_root()
    files = [*sorted((root / API_TREE).rglob("*.h")), *(root / name for name in API_HEADERS)]
    return [(path, path.relative_to(root).as_posix()) for path in files
            if not path.relative_to(root).as_posix().startswith(METAL2_FORMS)]


def enum_files() -> list[Path]:
    """The headers the compute API's enums are read from: its own, and ``ENUM_HEADERS``."""
    tt_metal = kernel_include_root().parent.parent
    return [path for path, _ in api_files()] + [tt_metal / name for name in ENUM_HEADERS]


@functools.cache
def signatures() -> tuple[Signature, ...]:
    """Every declaration of the compute API, each with the header a kernel includes for it, once
    (a header declares some functions once per architecture, in ``#if`` branches)."""
    found = [sig for path, header in api_files() for sig in scan(path.read_text(errors="replace"), header)]
    return tuple(dict.fromkeys(found))
