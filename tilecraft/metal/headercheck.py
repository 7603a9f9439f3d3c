"""Check TT-Metalium kernels against the real tt-metal 0.81.1 kernel headers, without hardware.

A kernel is compiled the way the tt-metal JIT compiles it, but by host ``g++ -fsyntax-only -m32``:
through the firmware wrapper of its processor (``brisck.cc`` / ``ncrisck.cc`` for data movement,
``trisck.cc`` three times for compute), with the files the JIT would generate next to it
(``kernel_includes.hpp``, ``chlkc_{unpack,math,pack}.cpp``, ``chlkc_descriptors.h``,
``defines_generated.h``) and the architecture's include paths and defines. So every API name,
argument count and argument type in the kernel is checked against the headers users compile with.

What is not real (see ``headercheck/README.md``): host g++ 12 instead of the SFPI RISC-V g++,
``-std=c++20`` instead of the device's c++17 with Tenstorrent extensions, a riscv32 type model
forced through ``__INT32_TYPE__``/``__UINT32_TYPE__``, and -- for compute kernels -- a
tilecraft-written, parse-only stand-in for the SFPI layer (``sfpi.h``, ``lltt.h``), which the
wheel does not ship. Code generation, linking and the SFPU implementations are not checked.

CLI: ``python -m tilecraft.metal.headercheck [--arch A] FILE.cpp --kind reader|writer|compute``.
"""

from __future__ import annotations

import argparse
import functools
import re
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal, Mapping, Sequence

from . import wheel_headers
from .wheel_headers import HeadersUnavailable

Kind = Literal["reader", "writer", "compute"]
Arch = Literal["wormhole_b0", "blackhole"]

SUPPORT_DIR = Path(__file__).with_name("headercheck")
PRELUDE = SUPPORT_DIR / "prelude.h"
TOOLCHAIN_STANDIN = SUPPORT_DIR / "toolchain_standin"

# Processor aliases: the emitter names data-movement kernels by processor (riscv_0/riscv_1), the
# descriptors by role (WriterConfigDescriptor is RISCV_0 on NOC 0, ReaderConfigDescriptor RISCV_1
# on NOC 1).
KIND_ALIASES: dict[str, str] = {
    "reader": "reader", "riscv_1": "reader", "ncrisc": "reader",
    "writer": "writer", "riscv_0": "writer", "brisc": "writer",
    "compute": "compute", "trisc": "compute",
}

# DataFormat enum values (tensix_types.h) and the byte size of a 32x32 tile in that format.
DATA_FORMATS: dict[str, tuple[int, int]] = {
    "Float32": (0, 4096), "Float16": (1, 2048), "Bfp8": (2, 1088), "Float16_b": (5, 2048),
    "Bfp8_b": (6, 1088), "Int32": (8, 4096), "UInt16": (9, 2048), "UInt32": (24, 4096),
    "UInt8": (30, 1024), "Int8": (14, 1024),
}
INVALID_FORMAT = 0xFF
MATH_FIDELITIES = {"LoFi": 0, "HiFi2": 2, "HiFi3": 3, "HiFi4": 4}

_TRISCS = (("unpack", 0), ("math", 1), ("pack", 2))


class ToolchainUnavailable(RuntimeError):
    """Host g++ with 32-bit multilib support is missing (Debian: apt-get install g++-multilib)."""


@dataclass(frozen=True)
class ArchConfig:
    """Where an architecture's headers live in the wheel and what the JIT defines for it."""

    name: str
    hw_dir: str          # hw/inc/internal/tt-1xx/<hw_dir>
    hw_defines_dir: str  # hw/inc/internal/tt-1xx/<hw_dir>/<hw_defines_dir>
    llk: str             # hw/ckernels/<llk>, tt-llk/tt_llk_<llk>
    arch_define: str
    num_cbs: int         # NUM_CIRCULAR_BUFFERS on the device (api/tt-metalium/circular_buffer_constants.h)
    bank_defines: tuple[str, ...]


# Bank counts and PCIe coordinates follow the wheel's soc descriptors (wormhole_b0_80_arch.yaml,
# blackhole_140_arch.yaml) for a single n150 / p150 chip; they only size address arithmetic.
ARCHES: dict[str, ArchConfig] = {
    "wormhole_b0": ArchConfig(
        "wormhole_b0", "wormhole", "wormhole_b0_defines", "wormhole_b0", "ARCH_WORMHOLE", 32,
        ("NUM_DRAM_BANKS=12", "IS_NOT_POW2_NUM_DRAM_BANKS=1", "LOG_BASE_2_OF_NUM_DRAM_BANKS=4",
         "NUM_L1_BANKS=64", "LOG_BASE_2_OF_NUM_L1_BANKS=6", "PCIE_NOC_X=0", "PCIE_NOC_Y=3"),
    ),
    "blackhole": ArchConfig(
        "blackhole", "blackhole", "blackhole_defines", "blackhole", "ARCH_BLACKHOLE", 64,
        ("NUM_DRAM_BANKS=8", "LOG_BASE_2_OF_NUM_DRAM_BANKS=3", "NUM_L1_BANKS=140",
         "IS_NOT_POW2_NUM_L1_BANKS=1", "LOG_BASE_2_OF_NUM_L1_BANKS=8", "PCIE_NOC_X=2", "PCIE_NOC_Y=0"),
    ),
}


@dataclass(frozen=True)
class ComputeOptions:
    """The ComputeConfigDescriptor fields that become constants in chlkc_descriptors.h."""

    math_fidelity: str = "HiFi4"
    math_approx_mode: bool = False
    fp32_dest_acc_en: bool = False
    dst_full_sync_en: bool = False


@dataclass(frozen=True)
class PassResult:
    """One g++ invocation: ``label`` is the processor (``NCRISC``, ``TRISC1 (math)``, ...)."""

    label: str
    ok: bool
    output: str
    command: tuple[str, ...]


@dataclass(frozen=True)
class CheckResult:
    """Outcome of checking one kernel.

    ``diagnostics`` is the compiler's error output with temporary paths shortened (empty when
    ``ok``); ``warnings`` are the warning lines located in the kernel itself (e.g. deprecated API).
    """

    ok: bool
    diagnostics: str
    warnings: tuple[str, ...] = ()
    passes: tuple[PassResult, ...] = field(default=(), repr=False)
    elapsed_s: float = 0.0


@functools.cache
def toolchain_problem(compiler: str = "g++") -> str | None:
    """Why host g++ cannot run the check (``None`` when it can): missing, or no 32-bit multilib."""
    if shutil.which(compiler) is None:
        return f"`{compiler}` not found; on Debian/Ubuntu: apt-get install g++-multilib"
    probe = subprocess.run(
        [compiler, "-m32", "-std=c++20", "-ffreestanding", "-fsyntax-only", "-x", "c++", "-"],
        input="#include <cstdint>\n#include <array>\n#include <cstdlib>\n",
        capture_output=True, text=True,
    )
    if probe.returncode != 0:
        first = (probe.stderr.strip().splitlines() or ["(no output)"])[0]
        return (f"`{compiler} -m32` cannot compile (32-bit multilib missing?): {first}; "
                "on Debian/Ubuntu: apt-get install g++-multilib")
    return None


def require_toolchain(compiler: str = "g++") -> None:
    problem = toolchain_problem(compiler)
    if problem:
        raise ToolchainUnavailable(problem)


def normalize_kind(kind: str) -> str:
    try:
        return KIND_ALIASES[kind.lower()]
    except KeyError:
        raise ValueError(f"unknown kernel kind {kind!r}; expected one of {sorted(KIND_ALIASES)}") from None


def check_kernel(
    source: str,
    kind: str,
    arch: str = "wormhole_b0",
    compile_time_args: Sequence[int] = (),
    defines: Mapping[str, object] | None = None,
    *,
    name: str = "kernel.cpp",
    named_compile_time_args: Mapping[str, int] | None = None,
    cb_formats: Mapping[int, str] | None = None,
    default_format: str = "Float16_b",
    compute: ComputeOptions = ComputeOptions(),
    noc_index: int | None = None,
    include_dirs: Sequence[Path] = (),
    jobs: int = 2,
    compiler: str = "g++",
    headers_root: Path | None = None,
) -> CheckResult:
    """Syntax-check one kernel's C++ ``source`` against the tt-metal 0.81.1 headers.

    ``kind`` is ``reader`` (RISCV_1/NCRISC), ``writer`` (RISCV_0/BRISC) or ``compute`` (three
    TRISC passes, ``jobs`` of them at a time). ``compile_time_args`` / ``defines`` are what the host
    passes in the KernelDescriptor. ``name`` is the file name diagnostics refer to.
    Raises ToolchainUnavailable / HeadersUnavailable when the check cannot run at all.
    """
    started = time.perf_counter()
    kind = normalize_kind(kind)
    if arch not in ARCHES:
        raise ValueError(f"unknown arch {arch!r}; expected one of {sorted(ARCHES)}")
    config = ARCHES[arch]
    require_toolchain(compiler)
    root = headers_root or wheel_headers.ensure_headers()
    name = Path(name).name or "kernel.cpp"
    with tempfile.TemporaryDirectory(prefix="tilecraft-headercheck-") as tmp:
        workdir = Path(tmp)
        write_generated_files(workdir, source, name, kind, config, defines or {},
                              cb_formats or {}, default_format, compute)
        commands = compile_commands(kind, config, root, workdir, compile_time_args,
                                    defines or {}, named_compile_time_args or {}, noc_index,
                                    include_dirs, compiler)
        with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
            runs = list(pool.map(lambda lc: _run_pass(lc[0], lc[1], workdir, root), commands))
    return _summarize(runs, name, time.perf_counter() - started)


def check_file(path: Path, kind: str | None = None, **kwargs) -> CheckResult:
    """``check_kernel`` on a file; the kind is guessed from the file name when not given, and the
    file's directory is searched for its own quoted includes."""
    path = Path(path)
    kind = kind or guess_kind(path)
    if kind is None:
        raise ValueError(f"cannot tell the kernel kind of {path.name}; pass kind=reader|writer|compute")
    include_dirs = (path.resolve().parent, *kwargs.pop("include_dirs", ()))
    return check_kernel(path.read_text(), kind, name=path.name, include_dirs=include_dirs, **kwargs)


def guess_kind(path: Path) -> str | None:
    stem = path.stem.lower()
    for word, kind in (("compute", "compute"), ("reader", "reader"), ("writer", "writer"),
                       ("riscv_1", "reader"), ("riscv_0", "writer")):
        if word in stem:
            return kind
    return None


# --- generated files ---------------------------------------------------------------------------


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
            "".join(f"#define {key} {_define_value(value)}\n" for key, value in defines.items()))
        for trisc, _ in _TRISCS:
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
        f"constexpr bool APPROX = {_cbool(compute.math_approx_mode)};\n")
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
        f"constexpr bool DST_ACCUM_MODE = {_cbool(compute.fp32_dest_acc_en)};\n"
        f"#define DST_SYNC_MODE DstSync::Sync{sync}\n"
        "#endif\n"
    )


def _cbool(value: bool) -> str:
    return "true" if value else "false"


def _define_value(value: object) -> str:
    if isinstance(value, bool):
        return _cbool(value)
    return str(value)


# --- compiler invocation -----------------------------------------------------------------------


def include_paths(config: ArchConfig, root: Path) -> list[Path]:
    """The JIT's include path for ``config`` (the wheel tree rooted at ``root``, i.e. ``ttnn/``)."""
    metal = root / "tt_metal"
    tt1xx = metal / "hw" / "inc" / "internal" / "tt-1xx"
    ckernels = metal / "hw" / "ckernels" / config.llk / "metal"
    llk = metal / "tt-llk" / f"tt_llk_{config.llk}"
    return [
        root, metal, metal / "hw" / "inc",
        tt1xx, tt1xx / config.hw_dir, tt1xx / config.hw_dir / config.hw_defines_dir,
        tt1xx / config.hw_dir / "noc",
        ckernels / "common", ckernels / "llk_io", ckernels / "llk_api", ckernels / "llk_api" / "llk_sfpu",
        llk / "common" / "inc", llk / "llk_lib", metal / "tt-llk" / "common",
        metal / "tt-llk" / "tools" / "include",
        metal / "hw" / "firmware" / "src" / "tt-1xx",
        metal / "hostdevcommon" / "api", metal / "api", metal / "api" / "tt-metalium",
    ]


def base_flags(config: ArchConfig) -> list[str]:
    """Flags shared by every pass: language, the riscv32 type model, JIT build defines."""
    return [
        "-std=c++20", "-fsyntax-only", "-m32", "-ffreestanding", "-fno-exceptions", "-fno-rtti",
        "-fdiagnostics-color=never", "-fmax-errors=30",
        # Header-side noise: unknown riscv attributes (rvtt_l1_ptr), C++20 volatile deprecations.
        "-Wno-attributes", "-Wno-volatile",
        # riscv32-unknown-elf (newlib) type model: int32_t is long, uint32_t unsigned long.
        "-U__INT32_TYPE__", "-D__INT32_TYPE__=long",
        "-U__UINT32_TYPE__", "-D__UINT32_TYPE__=long unsigned int",
        # libstdc++'s atomic wait needs OS facilities the freestanding device has not.
        "-D_GLIBCXX_ATOMIC_WAIT_H",
        "-include", str(PRELUDE),
        f"-D{config.arch_define}", "-DTENSIX_FIRMWARE", "-DLOCAL_MEM_EN=0", "-DKERNEL_BUILD",
        "-DDISPATCH_MESSAGE_ADDR=0", "-DPROGRAMMABLE_CORE_TYPE=0",
        *(f"-D{d}" for d in config.bank_defines),
    ]


def compile_commands(
    kind: str, config: ArchConfig, root: Path, workdir: Path,
    compile_time_args: Sequence[int], defines: Mapping[str, object],
    named_compile_time_args: Mapping[str, int], noc_index: int | None,
    include_dirs: Sequence[Path], compiler: str = "g++",
) -> list[tuple[str, list[str]]]:
    """(label, argv) for each pass: one for data movement, three (TRISC0..2) for compute."""
    firmware = root / "tt_metal" / "hw" / "firmware" / "src" / "tt-1xx"
    common = [compiler, *base_flags(config),
              "-DKERNEL_COMPILE_TIME_ARGS=" + ",".join(str(int(v)) for v in compile_time_args)]
    if named_compile_time_args:
        pairs = ",".join(f'{{"{k}",{int(v)}}}' for k, v in named_compile_time_args.items())
        common.append(f"-DKERNEL_COMPILE_TIME_ARG_MAP={pairs}")
    # The generated files come first, then the kernel's own directories, then the wheel; the
    # toolchain stand-in (sfpi.h, lltt.h, sys/_stdint.h) is searched last, like a system dir.
    includes = [f"-I{workdir}", *(f"-I{d}" for d in include_dirs),
                *(f"-I{p}" for p in include_paths(config, root)), f"-I{TOOLCHAIN_STANDIN}"]
    if kind == "compute":
        return [
            (f"TRISC{index} ({trisc})",
             [*common, f"-DUCK_CHLKC_{trisc.upper()}", f"-DCOMPILE_FOR_TRISC={index}",
              f"-DPROCESSOR_INDEX={index + 2}", *includes, str(firmware / "trisck.cc")])
            for trisc, index in _TRISCS
        ]
    if kind == "reader":
        label, wrapper, proc, default_noc = "NCRISC (RISCV_1)", "ncrisck.cc", ("COMPILE_FOR_NCRISC", 1), 1
    else:
        label, wrapper, proc, default_noc = "BRISC (RISCV_0)", "brisck.cc", ("COMPILE_FOR_BRISC", 0), 0
    noc = default_noc if noc_index is None else noc_index
    user_defines = [f"-D{k}={_define_value(v)}" for k, v in defines.items()]
    return [(label, [*common, f"-D{proc[0]}", f"-DPROCESSOR_INDEX={proc[1]}", f"-DNOC_INDEX={noc}",
                     "-DNOC_MODE=0", *user_defines, *includes, str(firmware / wrapper)])]


def _run_pass(label: str, argv: list[str], workdir: Path, root: Path) -> PassResult:
    result = subprocess.run(argv, cwd=workdir, capture_output=True, text=True, timeout=300)
    output = _shorten_paths(result.stderr + result.stdout, workdir, root)
    return PassResult(label, result.returncode == 0, output, tuple(argv))


def _shorten_paths(text: str, workdir: Path, root: Path) -> str:
    text = text.replace(f"{workdir}/", "").replace(f"{root}/", f"<ttnn-{wheel_headers.VERSION}>/")
    text = text.replace(f"{SUPPORT_DIR}/", "<tilecraft-headercheck>/")
    return re.sub(r"(?m)(^|\s)\./", r"\1", text)


# Files of the harness itself (wrappers and generated glue); include chains through them are noise.
_HARNESS_FILES = re.compile(
    r"(?:^|/)(?:chlkc_(?:unpack|math|pack)\.cpp|kernel_includes\.hpp|chlkc_list\.h|"
    r"trisck\.cc|brisck\.cc|ncrisck\.cc):\d+[,:]$")


def _strip_harness_includes(text: str) -> str:
    """Drop the harness files from GCC's "In file included from" chains, so the same kernel error
    reads the same in every TRISC pass (and can be reported once)."""
    lines = text.splitlines()
    out: list[str] = []
    i = 0
    while i < len(lines):
        if not lines[i].startswith("In file included from "):
            out.append(lines[i])
            i += 1
            continue
        chain = [lines[i][len("In file included from "):]]
        i += 1
        while i < len(lines) and lines[i].startswith(" ") and lines[i].lstrip().startswith("from "):
            chain.append(lines[i].lstrip()[len("from "):])
            i += 1
        kept = [entry.rstrip(",:") for entry in chain if not _HARNESS_FILES.search(entry)]
        for k, entry in enumerate(kept):
            lead = "In file included from " if k == 0 else " " * 17 + "from "
            out.append(lead + entry + ("," if k < len(kept) - 1 else ":"))
    return "\n".join(out) + ("\n" if text.endswith("\n") else "")


def _summarize(runs: list[PassResult], name: str, elapsed: float) -> CheckResult:
    ok = all(run.ok for run in runs)
    warning_line = re.compile(rf"^{re.escape(name)}:\d+:\d+: warning: .*$", re.M)
    warnings: list[str] = []
    for run in runs:
        for line in warning_line.findall(run.output):
            if line not in warnings:
                warnings.append(line)
    failed = [(run.label, _strip_harness_includes(run.output).rstrip()) for run in runs if not run.ok]
    if not failed:
        diagnostics = ""
    elif len({output for _, output in failed}) == 1:
        labels = ", ".join(label for label, _ in failed)
        diagnostics = f"[{labels}]\n{failed[0][1]}\n"
    else:
        diagnostics = "".join(f"[{label}]\n{output}\n" for label, output in failed)
    return CheckResult(ok, diagnostics, tuple(warnings), tuple(runs), elapsed)


# --- CLI ---------------------------------------------------------------------------------------


def _parse_define(text: str) -> tuple[str, str]:
    key, _, value = text.partition("=")
    return key, value or "1"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tilecraft.metal.headercheck",
        description=f"Syntax-check a TT-Metalium kernel against the tt-metal {wheel_headers.VERSION} "
                    "headers (ttnn wheel) with host g++ -m32; no hardware needed. "
                    "Exit status: 0 OK, 1 compiler errors, 2 the check could not run.")
    parser.add_argument("file", type=Path, nargs="?", help="kernel .cpp file")
    parser.add_argument("--kind", choices=sorted(KIND_ALIASES),
                        help="processor: reader (RISCV_1), writer (RISCV_0) or compute; "
                             "guessed from the file name when omitted")
    parser.add_argument("--arch", choices=sorted(ARCHES), default="wormhole_b0")
    parser.add_argument("--ct-args", default="", help="compile-time args, comma separated, e.g. 2,2048")
    parser.add_argument("-D", dest="defines", action="append", default=[], metavar="NAME[=VALUE]",
                        help="kernel define (KernelDescriptor.defines); repeatable")
    parser.add_argument("--show-commands", action="store_true", help="print the g++ command lines")
    parser.add_argument("--fetch", action="store_true",
                        help="only download/unpack the wheel headers (idempotent) and print where")
    args = parser.parse_args(argv)
    try:
        if args.fetch:
            started = time.perf_counter()
            root = wheel_headers.ensure_headers()
            print(f"{root} (ttnn {wheel_headers.VERSION}, sfpi {wheel_headers.sfpi_version(root)}; "
                  f"{time.perf_counter() - started:.1f} s)")
            return 0
        if args.file is None:
            parser.error("a kernel FILE is required (or --fetch)")
        ct_args = [int(v, 0) for v in args.ct_args.split(",") if v.strip()]
        result = check_file(args.file, args.kind, arch=args.arch, compile_time_args=ct_args,
                            defines=dict(_parse_define(d) for d in args.defines))
    except (ToolchainUnavailable, HeadersUnavailable, ValueError, OSError) as error:
        print(f"headercheck: cannot check: {error}", file=sys.stderr)
        return 2
    if args.show_commands:
        for run in result.passes:
            print(f"[{run.label}] " + " ".join(run.command))
    for line in result.warnings:
        print(line)
    if result.ok:
        print(f"OK {args.file} ({', '.join(r.label for r in result.passes)}; {args.arch}; "
              f"{result.elapsed_s:.1f} s)")
        return 0
    print(result.diagnostics, end="")
    print(f"FAILED {args.file} ({args.arch})")
    return 1


if __name__ == "__main__":
    sys.exit(main())
