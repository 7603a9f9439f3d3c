"""The precompiled prefix of a compute kernel's TRISC compiles on the Tensix machine.

Why: g++ spends most of a TRISC compile parsing headers, and over half of that parse is the part
every compute kernel of an arch shares: the machine's forced-include layer (``tc_tensix_kernel.h``),
the JIT's arch defines, the standard library, ``internal/firmware_common.h``, the part of
``chlkc_list.h`` before the kernel's generated ``chlkc_descriptors.h``, our SFPI, and the LLK
library of the TRISC's own unit (``llk_lib``'s ``llk_unpack_*``/``llk_math_*``/``llk_pack*`` with
their ``c<unit>_common.h``: templates over the descriptors' values, which they take as parameters
and never name, so they parse the same for every kernel). That part is
compiled once per (TRISC, compiler, flags, arch defines, machine tree) into a g++ precompiled
header in the user cache, and each TRISC compile force-includes it first (benchmarks/README.md
has the numbers).

What may vary per kernel stays out of it: the descriptors, the compute API and the kernel come
after it in the translation unit, and the kernel's defines and compile-time args are given on the
command line, before it. g++ checks those against the header: a macro defined before the prefix
that the prefix's headers test or define (``#ifdef WATCHER_ENABLED``) makes g++ ignore the
precompiled form and read the header text (``-Winvalid-pch`` names it), so a kernel whose defines
reach into the prefix compiles as before, only slower, never differently.

A data-movement kernel on the real dataflow API (tensix_dataflow.py) gets a prefix the same way,
with what ``brisck.cc``/``ncrisck.cc`` include before the kernel in place of the TRISC's headers.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from . import cache, cache_budget

#: the header the Tensix builds force-include; its precompiled form lies beside it (g++ looks for
#: ``<header>.gch`` where it finds the header)
HEADER = "tc_trisc_prefix.h"
#: the standard headers the machine tree's headers include (g++ -H on the eltwise, SFPU and matmul
#: kernels); parsed here once instead of in every TRISC
STANDARD = ("algorithm", "array", "atomic", "climits", "cstddef", "cstdint", "cstring", "exception", "limits",
            "optional", "string", "string_view", "tuple", "type_traits", "utility", "vector")
#: what every TRISC reads before its kernel's descriptors (trisck.cc's firmware includes, then
#: chlkc_list.h's own includes), and our SFPI (tensix/sfpi/sfpi.h, which the LLK's SFPU headers
#: include in every TRISC; it tests only the arch's defines, which come before it)
FIRMWARE = ("internal/firmware_common.h", "internal/debug/fw_debug.h", "ckernel.h", "ckernel_gpr_map.h",
            "llk_param_structs.h", "sfpi.h")
#: the name prefixes of each TRISC's LLK headers (``tt_llk_<arch>/llk_lib`` and ``common/inc``); the
#: compute API includes only its own TRISC's unit (``common_globals.h``'s ``#ifdef TRISC_<X>``)
UNIT_HEADERS = {"UNPACK": ("llk_unpack_", "cunpack_common"),
                "MATH": ("llk_math_", "cmath_common", "ckernel_sfpu", "ckernel_template"),
                "PACK": ("llk_pack", "cpack_common")}


def unit_headers(llk: Path, trisc: str) -> tuple[str, ...]:
    """The LLK headers of ``trisc``'s unit in the arch's LLK directory ``llk``, in name order."""
    return tuple(path.name for folder in (llk / "llk_lib", llk / "common" / "inc")
                 for path in sorted(folder.glob("*.h")) if path.name.startswith(UNIT_HEADERS[trisc]))


def header_text(forced_include: Path, arch_defines: str, firmware: Sequence[str] = FIRMWARE,
                shared_by: str = "every compute TRISC") -> str:
    """The prefix: the forced-include layer, the arch's defines as the JIT writes them, then the
    standard headers and ``firmware``'s, which the kernels ``shared_by`` all read first."""
    return (f"// tilecraft: the part {shared_by} shares (tilecraft/emu/tensix_prefix.py)\n"
            f'#include "{forced_include}"\n' + arch_defines
            + "".join(f"#include <{name}>\n" for name in STANDARD)
            + "".join(f'#include "{name}"\n' for name in firmware))


def _link_only(flag: str) -> bool:
    """Flags that only the link step reads (a precompiled header is not linked)."""
    return flag == "-shared" or flag.startswith("-Wl,")


def precompiled(compile_command: list[str], text: str, key: str, what: str, run) -> Path:
    """The prefix header for ``compile_command`` (compiler, flags, TRISC defines and the shared
    include roots, without inputs or outputs) with ``text``, built into the cache entry for ``key``
    with its precompiled form beside it. ``run(command, what)`` runs the compiler and raises the
    caller's diagnostic on failure."""
    return _precompiled(tuple(compile_command), text, key, what, run)


@cache_budget.memoized_entry(lambda header: header.parent)
def _precompiled(compile_command: tuple[str, ...], text: str, key: str, what: str, run) -> Path:
    # remembered per process: the entry's stamp check hashes the whole precompiled header (tens of MB)
    def make(directory: Path) -> Path:
        header = directory / HEADER
        header.write_text(text)
        out = directory / cache.OBJECT
        run([*(flag for flag in compile_command if not _link_only(flag)), "-x", "c++-header", str(header),
             "-o", str(out)], what)
        os.symlink(cache.OBJECT, directory / f"{HEADER}.gch")  # relative: the entry is renamed into place
        return out

    obj, _ = cache.build("tensix-prefix", cache.digest("tensix-prefix", key, text, *compile_command), make)
    return obj.parent / HEADER
