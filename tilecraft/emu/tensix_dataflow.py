"""Data-movement kernels on the real 0.81.1 dataflow API: the JIT build's BRISC/NCRISC compile over
the emulator's model of the NoC's registers (docs/emulator.md section 12).

A data-movement kernel is compiled as tt-metal's JIT compiles it for the device: the translation
unit of ``brisck.cc`` / ``ncrisck.cc`` (the firmware's headers, ``internal/firmware_common.h``,
``api/dataflow/dataflow_api.h`` and ``api/debug/kernel_profiler.hpp``, then the kernel) with the
JIT's defines (``COMPILE_FOR_BRISC``/``NCRISC``, ``NOC_INDEX``, ``NOC_MODE``, the bank counts, the
compile-time args), the generated ``chlkc_descriptors.h`` and Metal 2.0 bindings, against the
machine include tree (``tensix_tree.py``: the wheel's headers with the NIU register accessors, the
other device-register casts and ``invalidate_l1_cache`` replaced, each rewrite logged). Nothing of
the dataflow API is re-implemented: ``Noc``, ``DataflowBuffer``, ``TensorAccessor``,
``noc_async_read`` ... are Tenstorrent's; under them the emulator's runtime (``runtime/noc_niu.cpp``)
is the NIU of each core and NoC, and its NoC, L1 and DRAM carry the bytes.

The firmware's part (``tc_dataflow_main.h``) sets up the globals ``brisc.cc``/``ncrisc.cc`` set
(bank tables, coordinates, argument and semaphore bases, CB interfaces) and calls ``kernel_main``.
Those globals are the core's own, so every core runs its own copy of the kernel's shared object.
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path

from . import cache, call_sites, native, tensix_prefix, tensix_tree, tt_kernel_entry
from .build import COMPILE_LOG, INCLUDE, KernelBuild
from .tensix_build import ARCH_DEFINES, KERNEL_FLAGS, MACHINE_DIR, hash_tree, run_compiler
from .tensix_compute import (arch_define_lines, descriptors_header, kernel_arch, kernel_define_flags, kernel_errors,
                             kernel_include_roots, tree_roots)
from .toolchain import compiler

#: What the JIT passes a BRISC/NCRISC compile beyond KERNEL_FLAGS that applies on the host:
#: warnings as the compute build keeps them (the log's deprecations are E5007); ``-fpermissive`` because the 32-bit RISC-V code casts L1 pointers to uint32_t (the emulator's L1
#: window lies below 2 GiB, so they survive); ``DISABLE_CB_ASSEMBLY`` selects the C loop of
#: setup_local_cb_read_write_interfaces; ``TC_DATAFLOW_KERNEL`` selects the data-movement layer in
#: tc_tensix_kernel.h (the emulator's runtime backs the device addresses).
DATAFLOW_FLAGS = ("-fpermissive", "-Wno-int-to-pointer-cast", "-Wno-volatile", "-DKERNEL_BUILD", "-DTENSIX_FIRMWARE", "-DPROGRAMMABLE_CORE_TYPE=TENSIX",
                  "-DDISABLE_CB_ASSEMBLY=1", "-DLOCAL_MEM_EN=0", "-DTC_DATAFLOW_KERNEL", "-DNOC_MODE=0")
#: the firmware's includes ahead of the kernel (brisck.cc / ncrisck.cc)
FIRMWARE_INCLUDES = ("risc_common.h", "tensix.h", "tensix_types.h", "noc.h", "noc_overlay_parameters.h",
                     "stream_io_map.h", "noc_nonblocking_api.h", "internal/firmware_common.h",
                     "api/dataflow/dataflow_api.h", "api/debug/kernel_profiler.hpp")


#: the vararg helpers of the generated bindings take their caller's line and pass it to get_arg_val
#: (the machine tree gives get_arg_val a call site on a data-movement RISC: tensix_tree.py)
SITE_LOCATION = (f", {call_sites.SITE_PARAMETER}", ", tc_site")


@dataclass(frozen=True)
class SocDefines:
    """What the JIT derives from an architecture's SoC for every data-movement kernel beyond the bank
    counts: the PCIe endpoint (NoC 0 coordinates, the wheel's soc descriptors wormhole_b0_80_arch.yaml
    and blackhole_140_arch.yaml; the first listed) and DISPATCH_MESSAGE_ADDR, a stream register of
    the dispatcher's (stream 48) that a worker kernel only writes to signal the dispatcher (here an
    unmodelled register, E5861)."""

    pcie_xy: tuple[int, int]
    dispatch_message_addr: int


SOC_DEFINES = {"wormhole": SocDefines((0, 3), 0xFFB70010), "blackhole": SocDefines((2, 0), 0xFFB70438)}


def jit_defines(build: KernelBuild) -> list[str]:
    """The defines the JIT derives from the SoC for a data-movement kernel: the RISC's processor
    index, the PCIe endpoint, the dispatcher's message address and how bank ids divide (a shift
    for a power-of-two bank count, else IS_NOT_POW2_NUM_*_BANKS)."""
    arch = dict(build.arch_defines)
    soc = SOC_DEFINES[kernel_arch(build)]
    lines = [f"#define PROCESSOR_INDEX {0 if 'COMPILE_FOR_BRISC' in arch else 1}",
             f"#define PCIE_NOC_X {soc.pcie_xy[0]}", f"#define PCIE_NOC_Y {soc.pcie_xy[1]}",
             f"#define DISPATCH_MESSAGE_ADDR {soc.dispatch_message_addr:#x}"]
    for kind in ("DRAM", "L1"):
        banks = int(arch[f"NUM_{kind}_BANKS"])
        lines.append(f"#define LOG_BASE_2_OF_NUM_{kind}_BANKS {banks.bit_length() - 1}" if banks & (banks - 1) == 0
                     else f"#define IS_NOT_POW2_NUM_{kind}_BANKS 1")
    return lines


def prefix_defines(build: KernelBuild) -> str:
    """What the JIT defines for every kernel of the RISC and NoC ahead of the firmware's headers:
    the arch's defines, the SoC-derived ones and ``NOC_INDEX`` (part of the shared prefix, so a
    prefix per RISC and NoC); and the macro by which the headers leave what reads the kernel's
    args and descriptors to the kernel's unit (tensix_tree.Deferral)."""
    return (arch_define_lines(build) + "".join(f"{line}\n" for line in jit_defines(build))
            + f"#define NOC_INDEX {build.noc}\n#define {tensix_tree.DEFER_MACRO} 1\n")


def translation_unit(build: KernelBuild) -> str:
    """The kernel's translation unit after the shared prefix (``compile_command`` force-includes it:
    the firmware's headers as brisck.cc/ncrisck.cc include them): the headers' parts that read the
    kernel's args and descriptors, then the kernel (and the kernel_main the JIT writes for a
    ``TT_KERNEL`` entry: tt_kernel_entry.py), with the firmware stand-in after it."""
    bindings = '#include "kernel_bindings_generated.h"\n' if build.bindings is not None else ""
    deferred = "".join(f'#include "{deferral.target}"\n' for deferral in tensix_tree.DEFERRALS)
    entry = tt_kernel_entry.kernel_main_for(build.text)
    return deferred + bindings + f'#include "{build.source}"\n{entry}#include "tc_dataflow_main.h"\n'


def compile_command(build: KernelBuild, directory: Path, tt_metal: Path, arch: str) -> list[str]:
    """The g++ command (without the source and output) for ``build``, its generated files written to
    ``directory``: the kernel's defines and compile-time args as -D flags (the JIT's command line),
    then the precompiled prefix of the RISC's firmware headers (tensix_prefix.py; built on first use)."""
    (directory / "chlkc_descriptors.h").write_text(descriptors_header(build, dst_sync=False))
    if build.bindings is not None:
        (directory / "kernel_bindings_generated.h").write_text("#pragma once\n" + build.bindings.header(SITE_LOCATION))
    gxx = compiler()
    risc = [*gxx.command(), *KERNEL_FLAGS, *DATAFLOW_FLAGS, ARCH_DEFINES[arch]]
    prefix = tensix_prefix.precompiled(
        [*risc, *(f"-I{p}" for p in tree_roots(tt_metal, arch))],
        tensix_prefix.header_text(tensix_tree.KERNEL_INCLUDE_DIR / "tc_tensix_kernel.h", prefix_defines(build),
                                  FIRMWARE_INCLUDES, "every data-movement kernel of a RISC and NoC"),
        cache.digest(gxx.version, tt_metal.parent.name, hash_tree(MACHINE_DIR / "kernel_include", (".h",)),
                     hash_tree(INCLUDE / "tc_emu", (".h",))),
        "the real dataflow API's prefix", run_compiler)
    return [*risc, *kernel_define_flags(build), "-include", str(prefix),
            *(f"-I{p}" for p in kernel_include_roots(tt_metal, build, directory, arch))]


def compile_kernel(build: KernelBuild) -> tuple[Path, bool]:
    """The kernel's shared object, cached by content; an error in the kernel's own source is
    diagnosed as on the emulator's API (E5001-E5005 at its line), any other a TensixBuildError
    (E5872) naming the first compiler error."""
    arch = kernel_arch(build)
    tt_metal = tensix_tree.machine_tree(arch)
    gxx = compiler()
    key = cache.digest("tensix-dataflow", gxx.version, *KERNEL_FLAGS, *DATAFLOW_FLAGS, build.key(),
                       tt_metal.parent.name, hash_tree(MACHINE_DIR / "kernel_include", (".h",)),
                       hash_tree(INCLUDE / "tc_emu", (".h",)), *tensix_prefix.STANDARD, *FIRMWARE_INCLUDES, *SITE_LOCATION)

    def make(directory: Path) -> Path:
        unit = directory / "dataflow_kernel.cpp"
        unit.write_text(translation_unit(build))
        out = directory / cache.OBJECT
        log = run_compiler([*compile_command(build, directory, tt_metal, arch), str(unit), "-o", str(out)],
                           f"{build.display} (real dataflow API)", kernel_errors(build))
        (directory / COMPILE_LOG).write_text(log)  # the kernel's deprecated API uses (E5007), as on the emulator's API
        return out

    return cache.build("tensix-dataflow", key, make)


def load_kernel(device: native.NativeDevice, obj: Path, name: str, noc: int, scratch: Path | None) -> int:
    """Loads the kernel for one core: every core after the first gets a copy placed in ``scratch``
    (the loader shares one image per file, and the firmware's globals are the core's own)."""
    if scratch is not None:
        scratch.mkdir(parents=True, exist_ok=True)
        obj = Path(shutil.copy(obj, scratch / obj.name))
    return device.load_kernel(str(obj), name, noc)
