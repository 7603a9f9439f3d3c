"""The files the tt-metal 0.81.1 JIT generates beside a kernel, written for the header check.

The JIT does not compile a kernel file directly: it writes glue next to it and compiles a firmware
wrapper that includes that glue. For data movement that is ``kernel_includes.hpp`` (included by
``brisck.cc``/``ncrisck.cc``); for compute, ``chlkc_{unpack,math,pack}.cpp`` (``#define TRISC_*``,
``defines_generated.h``, the kernel), included by ``trisck.cc`` through ``chlkc_list.h``; for both,
``chlkc_descriptors.h`` with per-CB tile formats and the compute-config constants. The file names
and the layout of their contents follow the 0.81.1 JIT (facts read from the shipped library's
strings and public sources); the text is generated here.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Mapping, Sequence

from .jit_build import TRISCS, ArchConfig, define_value

# DataFormat enum values (tensix_types.h) and the byte size of a 32x32 tile in that format.
DATA_FORMATS: dict[str, tuple[int, int]] = {
    "Float32": (0, 4096), "Float16": (1, 2048), "Bfp8": (2, 1088), "Float16_b": (5, 2048),
    "Bfp8_b": (6, 1088), "Int32": (8, 4096), "UInt16": (9, 2048), "UInt32": (24, 4096),
    "UInt8": (30, 1024), "Int8": (14, 1024),
}
INVALID_FORMAT = 0xFF
MATH_FIDELITIES = {"LoFi": 0, "HiFi2": 2, "HiFi3": 3, "HiFi4": 4}


@dataclass(frozen=True)
class ComputeOptions:
    """The ComputeConfigDescriptor fields that become constants in chlkc_descriptors.h."""

    math_fidelity: str = "HiFi4"
    math_approx_mode: bool = False
    fp32_dest_acc_en: bool = False
    dst_full_sync_en: bool = False


def write_generated_files(
    workdir: Path, source: str, name: str, kind: str, config: ArchConfig,
    defines: Mapping[str, object], cb_formats: Mapping[int, str], default_format: str,
    compute: ComputeOptions,
) -> None:
    """Write the kernel and the files the JIT generates beside it (same names, our own content)."""
    (workdir / name).write_text(source)
    (workdir / "chlkc_descriptors.h").write_text(
        descriptors_header(config, kind, cb_formats, default_format, compute))
    if kind == "compute":
        # The JIT writes user defines into defines_generated.h and a per-TRISC prologue.
        (workdir / "defines_generated.h").write_text(
            "".join(f"#define {key} {define_value(value)}\n" for key, value in defines.items()))
        for trisc, _ in TRISCS:
            (workdir / f"chlkc_{trisc}.cpp").write_text(
                f'#define TRISC_{trisc.upper()}\n#include "defines_generated.h"\n#include "{name}"\n')
    else:
        (workdir / "kernel_includes.hpp").write_text(f'#include "{name}"\n')


def descriptors_header(
    config: ArchConfig, kind: str, cb_formats: Mapping[int, str], default_format: str,
    compute: ComputeOptions,
) -> str:
    """chlkc_descriptors.h: per-CB tile formats and sizes plus the compute-config constants.

    Laid out as the 0.81.1 JIT lays it out: MATH_FIDELITY/APPROX for the math and pack TRISCs,
    unpack arrays for everything but pack, pack arrays (plus unpack_src_format) for pack and the
    data-movement processors, DST_ACCUM_MODE/DST_SYNC_MODE for the TRISCs.
    """
    n = config.num_cbs
    formats, sizes = [], []
    for cb in range(n):
        fmt_name = cb_formats.get(cb, default_format if not cb_formats else None)
        if fmt_name is None:
            formats.append(INVALID_FORMAT)
            sizes.append(DATA_FORMATS[default_format][1])
            continue
        if fmt_name not in DATA_FORMATS:
            raise ValueError(f"unknown data format {fmt_name!r} for CB {cb}; known: {sorted(DATA_FORMATS)}")
        value, size = DATA_FORMATS[fmt_name]
        formats.append(value)
        sizes.append(size)
    dest = [DATA_FORMATS["Float32"][0] if compute.fp32_dest_acc_en and f != INVALID_FORMAT else f
            for f in formats]

    def array(ctype: str, array_name: str, values: Sequence[int]) -> str:
        return f"constexpr {ctype} {array_name}[{n}] = {{{', '.join(map(str, values))}}};\n"

    def tile_dims(prefix: str) -> str:
        return (array("uint8_t", f"{prefix}_tile_num_faces", [4] * n)
                + array("uint8_t", f"{prefix}_partial_face", [0] * n)
                + array("uint8_t", f"{prefix}_tile_face_r_dim", [16] * n)
                + array("uint8_t", f"{prefix}_narrow_tile", [0] * n)
                + array("uint8_t", f"{prefix}_tile_r_dim", [32] * n)
                + array("uint8_t", f"{prefix}_tile_c_dim", [32] * n)
                + array("uint16_t", f"{prefix}_tile_size", sizes)
                + array("uint8_t", f"{prefix}_num_faces_r_dim", [2] * n)
                + array("uint8_t", f"{prefix}_num_faces_c_dim", [2] * n))

    fidelity = MATH_FIDELITIES[compute.math_fidelity]
    math_scalars = (
        '#include "llk_defs.h"\n'
        f"constexpr ckernel::MathFidelity MATH_FIDELITY = static_cast<ckernel::MathFidelity>({fidelity});\n"
        f"constexpr bool APPROX = {define_value(compute.math_approx_mode)};\n")
    sync = "Full" if compute.dst_full_sync_en else "Half"
    return (
        f"// Generated by tilecraft headercheck for {kind} on {config.name}: stand-in for the JIT's\n"
        "// chlkc_descriptors.h (values only size and type the headers' constants).\n"
        "#pragma once\n\n"
        f"#if defined(UCK_CHLKC_MATH)\n{math_scalars}#endif\n\n"
        f"#if defined(UCK_CHLKC_PACK)\n{math_scalars}#endif\n\n"
        "#if !defined(UCK_CHLKC_PACK)\n"
        + array("std::int32_t", "unpack_src_format", formats)
        + array("std::int32_t", "unpack_dst_format", dest)
        + tile_dims("unpack")
        + "#endif\n\n"
        "#if !defined(UCK_CHLKC_MATH) && !defined(UCK_CHLKC_UNPACK)\n"
        + array("unsigned char", "pack_src_format", dest)
        + array("unsigned char", "pack_dst_format", formats)
        + tile_dims("pack")
        + "#if defined(UCK_CHLKC_PACK)\n"
        + array("std::int32_t", "unpack_src_format", formats)
        + "#endif\n#endif\n\n"
        "#if defined(UCK_CHLKC_MATH) || defined(UCK_CHLKC_PACK) || defined(UCK_CHLKC_UNPACK)\n"
        f"constexpr bool DST_ACCUM_MODE = {define_value(compute.fp32_dest_acc_en)};\n"
        f"#define DST_SYNC_MODE DstSync::Sync{sync}\n"
        "#endif\n"
    )
