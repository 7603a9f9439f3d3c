"""How the tt-metal 0.81.1 JIT compiles a kernel for each processor: paths, defines, wrappers.

``compile_commands`` turns a kernel kind and an architecture into host ``g++ -fsyntax-only -m32``
command lines that mirror the device build (same firmware wrapper, include path and defines),
plus what a host compiler needs instead of the SFPI toolchain (see ``headercheck/README.md``).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Mapping, Sequence

from ..arch import get as get_arch
from ..arch.processors import Processor, processor_of_role

SUPPORT_DIR = Path(__file__).with_name("headercheck")
PRELUDE = SUPPORT_DIR / "prelude.h"
TOOLCHAIN_STANDIN = SUPPORT_DIR / "toolchain_standin"

# Every spelling of a kernel kind -> its role: the emitter names data-movement kernels by
# processor (riscv_0/riscv_1), the descriptors by role, Metalium's firmware by RISC-V.
KIND_ALIASES: dict[str, str] = {word: p.role for p in Processor for word in (p.value, p.role, p.risc)}

# The three compute passes: TRISC index and the name of its stage.
TRISCS = (("unpack", 0), ("math", 1), ("pack", 2))


@dataclass(frozen=True)
class ArchConfig:
    """Where an architecture's headers live in the wheel and what the JIT defines for it."""

    name: str
    hw_dir: str          # hw/inc/internal/tt-1xx/<hw_dir>
    hw_defines_dir: str  # hw/inc/internal/tt-1xx/<hw_dir>/<hw_defines_dir>
    llk: str             # hw/ckernels/<llk>, tt-llk/tt_llk_<llk>
    arch_define: str
    num_cbs: int         # NUM_CIRCULAR_BUFFERS on the device: tilecraft/arch's circular_buffers
    bank_defines: tuple[str, ...]


# Bank counts and PCIe coordinates follow the wheel's soc descriptors (wormhole_b0_80_arch.yaml,
# blackhole_140_arch.yaml) for a single n150 / p150 chip; they only size address arithmetic.
ARCHES: dict[str, ArchConfig] = {
    "wormhole_b0": ArchConfig(
        "wormhole_b0", "wormhole", "wormhole_b0_defines", "wormhole_b0", "ARCH_WORMHOLE",
        get_arch("wormhole_b0").circular_buffers,
        ("NUM_DRAM_BANKS=12", "IS_NOT_POW2_NUM_DRAM_BANKS=1", "LOG_BASE_2_OF_NUM_DRAM_BANKS=4",
         "NUM_L1_BANKS=64", "LOG_BASE_2_OF_NUM_L1_BANKS=6", "PCIE_NOC_X=0", "PCIE_NOC_Y=3"),
    ),
    "blackhole": ArchConfig(
        "blackhole", "blackhole", "blackhole_defines", "blackhole", "ARCH_BLACKHOLE",
        get_arch("blackhole").circular_buffers,
        ("NUM_DRAM_BANKS=8", "LOG_BASE_2_OF_NUM_DRAM_BANKS=3", "NUM_L1_BANKS=140",
         "IS_NOT_POW2_NUM_L1_BANKS=1", "LOG_BASE_2_OF_NUM_L1_BANKS=8", "PCIE_NOC_X=2", "PCIE_NOC_Y=0"),
    ),
}


def normalize_kind(kind: str) -> str:
    """``reader`` | ``writer`` | ``compute`` for any accepted spelling (e.g. ``riscv_0``)."""
    return processor_of_role(kind).role


def define_value(value: object) -> str:
    """A Python value as the text of a C preprocessor define."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


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
    kind = normalize_kind(kind)
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
            for trisc, index in TRISCS
        ]
    processor = processor_of_role(kind)
    risc = processor.risc.upper()
    label, wrapper = f"{risc} ({processor.metal_name})", f"{processor.risc}k.cc"
    proc = (f"COMPILE_FOR_{risc}", 0 if processor is Processor.RISCV_0 else 1)
    noc = processor.default_noc if noc_index is None else noc_index
    user_defines = [f"-D{k}={define_value(v)}" for k, v in defines.items()]
    return [(label, [*common, f"-D{proc[0]}", f"-DPROCESSOR_INDEX={proc[1]}", f"-DNOC_INDEX={noc}",
                     "-DNOC_MODE=0", *user_defines, *includes, str(firmware / wrapper)])]
