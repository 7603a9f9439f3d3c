"""The data-movement kernel API as the ttnn 0.81.1 wheel's own headers declare it.

Data-movement kernels compile against the real 0.81.1 dataflow API (tensix_dataflow.py), so the
tables that describe that API to a kernel author (PyKernel's call checks, the "declared in which
header" hint of an unknown-call error) read the same headers the kernels are compiled with, not
a copy of them. The headers are the ones the header check and the real dataflow path fetch
(wheel_headers.ensure_headers); a data-movement kernel cannot be compiled without them either.

What counts as the data-movement API: every function and public member function declared under
``api/dataflow/`` and ``api/tensor/``; the headers directly under ``api/`` a data-movement kernel
includes (``semaphore.h``, ``compile_time_args.h``, ...); and the address helpers ``dataflow_api.h``
brings in from ``internal/dataflow/dataflow_api_addrgen.h`` (``get_noc_addr``, ...), which a kernel
reaches by including ``api/dataflow/dataflow_api.h``.
"""

from __future__ import annotations

import functools
from pathlib import Path

from .. import wheel_headers
from .signatures import Signature, scan

#: the header kernels include for every data-movement call whose declaration is internal
DATAFLOW_HEADER = "api/dataflow/dataflow_api.h"
#: the trees (relative to tt_metal/hw/inc) whose declarations are data-movement API
API_TREES = ("api/dataflow", "api/tensor")
#: headers directly under api/ that data-movement kernels include
API_HEADERS = ("api/alignment.h", "api/compile_time_args.h", "api/core_local_mem.h", "api/remote_circular_buffer.h",
               "api/semaphore.h")
#: helpers of the headers' own implementation under those trees, not API a kernel calls
IMPLEMENTATION = ("api/dataflow/buf_rw_note.h", "api/dataflow/semaphore_dm_impl.h")
#: internal headers dataflow_api.h includes whose functions kernels call as API
INTERNAL_API = ("internal/dataflow/dataflow_api_addrgen.h",)


def is_dataflow_header(file: str) -> bool:
    """Whether a header (its path as kernels include it) lies in the data-movement API's trees."""
    return file.startswith(tuple(tree + "/" for tree in API_TREES))


def kernel_include_root() -> Path:
    """``tt_metal/hw/inc`` of the wheel's headers (raises wheel_headers.HeadersUnavailable)."""
    return wheel_headers.ensure_headers() / "tt_metal" / "hw" / "inc"


def api_files() -> list[tuple[Path, str]]:
    """Each header the data-movement API is read from, with the path a kernel includes for it."""
    root = kernel_include_root()
    files = [path for tree in API_TREES for path in sorted((root / tree).rglob("*.h"))
             if path.relative_to(root).as_posix() not in IMPLEMENTATION]
    files += [root / name for name in API_HEADERS]
    return [(path, path.relative_to(root).as_posix()) for path in files] + [(root / name, DATAFLOW_HEADER)
                                                                             for name in INTERNAL_API]


@functools.cache
def signatures() -> tuple[Signature, ...]:
    """Every declaration of the data-movement API, each with the header a kernel includes for it."""
    return tuple(sig for path, header in api_files() for sig in scan(path.read_text(errors="replace"), header))
