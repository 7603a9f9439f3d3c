"""ttnn compute kernels on the Tensix machine: the JIT build's three TRISC compiles, and the bridge
that runs them inside the kernel emulator (docs/emulator.md, "ttnn compute kernels on the Tensix
machine").

A compute kernel is compiled as tt-metal's JIT compiles it for the device: once per TRISC, each
translation unit laid out as ``trisck.cc`` (the kernel's defines, here as -D flags; the firmware's
``firmware_common.h`` and ``compile_time_args.h``, then ``chlkc_list.h``, which includes the
generated ``chlkc_descriptors.h`` and ``chlkc_<trisc>.cpp``, the kernel behind ``#define
TRISC_<X>``), with ``-DUCK_CHLKC_<X> -DNAMESPACE=chlkc_<x> -DCOMPILE_FOR_TRISC=<i>`` and the
processor index; what every kernel shares up to the descriptors comes precompiled
(tensix_prefix.py). The include tree is the machine's (``tensix_tree.py``: the wheel's real
``api/compute`` -> ``llk_api``/``llk_io`` -> LLK, with instruction issue and the memory map
replaced). The firmware's part before the kernel is ``tc_compute_trisc_main.h``. Each TRISC is a
shared object with local symbols, as in tensix_build.py.

The data-movement kernels run on the emulator's runtime (tensix_dataflow.py); the compute bridge
(``tensix/bridge/compute_bridge.cpp``, linked with every machine source into one library loaded
next to the emulator's runtime) runs the three TRISCs on the core's machine, on the core's L1 and
CB counters (its module comment says how).
"""

from __future__ import annotations

import ctypes
import functools
import os
import re
import shutil
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from . import cache, chlkc, native, tensix_prefix, tensix_tree, tt_kernel_entry
from .bindings import NO_LOCATION
from .build import COMPILE_LOG, INCLUDE, RUNTIME, KernelBuild, ttnn_include_roots
from .compile_errors import compile_failure, missing_kernel_main
from .tensix_build import (ARCH_DEFINES, CLANG_NOTE, KERNEL_FLAGS, MACHINE_DIR, MACHINE_FLAGS, METAL_ARCH_NAMES, SFPI_DIR,
                           TRISCS, hash_tree, kernel_arch_flags, machine_arch_flags, run_compiler,
                           compile_machine_source, machine_archive, whole_archive)
from .toolchain import clang, compiler

#: the machine's architecture for the arch define the emulator's build gives a kernel (launch.py)
ARCHS = {define.removeprefix("-D"): arch for arch, define in ARCH_DEFINES.items()}
#: the machine's architecture for a chip model's name (device_model.py)
CHIP_ARCHS = {name: arch for arch, name in METAL_ARCH_NAMES.items()}
#: What the JIT passes a TRISC compile beyond the suite's flags (tt-metal's jit_build), and what the
#: host needs: ``-fpermissive`` because the 32-bit RISC-V code casts L1 pointers to uint32_t
#: (get_arg_addr, the CB counters' addresses); the emulator's L1 lies below 2 GiB, so they survive.
#: Those casts' warnings are off; the others stay on, so the MATH TRISC's log (kept beside its object,
#: as the emulator's build keeps its own) carries the API's deprecation warnings to the kernel's lines.
#: ``DISABLE_CB_ASSEMBLY`` selects the C loop of setup_local_cb_read_write_interfaces (the other is
#: RISC-V assembly).
#: The arch's own defines come from ``tensix_build.kernel_arch_flags``.
TRISC_FLAGS = ("-fpermissive", "-Wno-int-to-pointer-cast", "-Wno-volatile", "-DKERNEL_BUILD", "-DTENSIX_FIRMWARE",
               "-DPROGRAMMABLE_CORE_TYPE=TENSIX", "-DDISABLE_CB_ASSEMBLY=1", "-DLOCAL_MEM_EN=0")
#: The suite's flags with -O1 for -O3: an SFPU kernel's MATH TRISC spends about 60% of its compile
#: optimising (the inlined SFPU algorithm; ``power_tile``: 1.72 s CPU at -O3, 1.21 s at -O1), and
#: the TRISC code is mostly calls into the machine (compiled at -O2), so the run does not slow. Both
#: define ``__OPTIMIZE__``, so the precompiled prefix built with these flags stays valid.
COMPUTE_FLAGS = tuple("-O1" if flag == "-O3" else flag for flag in KERNEL_FLAGS)
#: the object built for the MATH TRISC is the cache entry's; UNPACK's and PACK's lie beside it
BESIDE = {"UNPACK": "unpack.so", "PACK": "pack.so"}
#: ``$TILECRAFT_KERNEL_CXX=clang`` compiles every compute kernel's TRISCs with clang (toolchain.clang,
#: when installed) rather than only those g++ cannot compile (tensix_build.GXX_LIMITS): how clang's
#: objects are checked to run as g++'s do (tests/emu/test_kernel_clang.py); their own cache entries
KERNEL_CXX_VARIABLE = "TILECRAFT_KERNEL_CXX"


def clang_forced() -> bool:
    """Whether ``$TILECRAFT_KERNEL_CXX`` asks for clang and one is installed."""
    return os.environ.get(KERNEL_CXX_VARIABLE) == "clang" and clang() is not None


def kernel_arch(build: KernelBuild) -> str:
    """The architecture a kernel is built for (its arch define)."""
    return next(arch for define, arch in ARCHS.items() if define in dict(build.arch_defines))


def tree_roots(tt_metal: Path, arch: str) -> list[Path]:
    """The JIT's include path for a TRISC of ``arch`` as far as every kernel shares it, with our
    sfpi and kernel-side headers where the JIT has the SFPI toolchain's (the data-movement build,
    tensix_dataflow.py, uses it too). Wormhole's config register names lie in a directory of their
    own (``wormhole_b0_defines``), Blackhole's beside its other headers."""
    llk = tt_metal / "tt-llk" / tensix_tree.LLK_ARCH_DIRS[arch]
    metal = tt_metal / "hw" / "ckernels" / METAL_ARCH_NAMES[arch] / "metal"
    hw = tt_metal / "hw" / "inc" / "internal" / "tt-1xx" / arch
    defines = [hw / "wormhole_b0_defines"] if arch == "wormhole" else []
    return [SFPI_DIR, tensix_tree.KERNEL_INCLUDE_DIR, metal / "common",
            metal / "llk_io", metal / "llk_api", metal / "llk_api" / "llk_sfpu", llk / "llk_lib", llk / "common" / "inc",
            llk / "common" / "inc" / "sfpu", tt_metal / "tt-llk" / "common", tt_metal / "tt-llk" / "tools" / "include",
            tt_metal / "hw" / "firmware" / "src" / "tt-1xx", tt_metal / "hw" / "inc", hw.parent, hw,
            *defines, hw / "noc", tt_metal, tt_metal / "api", tt_metal / "hostdevcommon" / "api"]


def kernel_include_roots(tt_metal: Path, build: KernelBuild, directory: Path, arch: str) -> list[Path]:
    """The JIT's include path for one kernel's TRISC: its generated files, its own directory and
    the host's include paths first, ttnn's roots last."""
    return [directory, build.source.parent, *build.include_paths, *tree_roots(tt_metal, arch),
            *ttnn_include_roots(build.source)]


def descriptors_header(build: KernelBuild, dst_sync: bool = True) -> str:
    """The JIT's ``chlkc_descriptors.h``: the per-CB tables (chlkc.py) and the compute configuration
    (DST_ACCUM_MODE, DST_SYNC_MODE, MATH_FIDELITY, APPROX), all in every TRISC (0.81.1's compute API
    names APPROX outside MATH(...) too). Without ``dst_sync``
    (a data-movement kernel's) no DST_SYNC_MODE: kernel_lib's dest_helpers.hpp takes its absence for
    a data-movement kernel, which says full sync by DST_SYNC_FULL."""
    tables = chlkc.descriptor_tables(dict(build.cbs), build.fp32_dest_acc, build.unpack_to_dest_fp32,
                                     build.bfp8_pack_precise)
    return ("#pragma once\n#include <cstdint>\n" + tables
            + "#include \"llk_defs.h\"\n"
            + f"constexpr ckernel::MathFidelity MATH_FIDELITY = static_cast<ckernel::MathFidelity>({build.math_fidelity});\n"
            + f"constexpr bool APPROX = {str(build.approx).lower()};\n"
            + f"constexpr bool DST_ACCUM_MODE = {str(build.fp32_dest_acc).lower()};\n"
            + (f"#define DST_SYNC_MODE DstSync::Sync{'Full' if build.dst_full_sync else 'Half'}\n" if dst_sync else ""))


def arch_define_lines(build: KernelBuild) -> str:
    """What the JIT passes every kernel of the arch on the command line (in the shared prefix)."""
    return "".join(f"#define {name} {value}\n" for name, value in build.arch_defines
                   if name != "COMPILE_FOR_TRISC")


def kernel_define_flags(build: KernelBuild) -> list[str]:
    """The kernel's own defines and compile-time args, as -D flags: defined before the shared
    prefix, as the JIT defines them before the firmware headers (tensix_prefix.py says why g++ then
    checks them against the prefix)."""
    return [f"-D{name}={value}" for name, value in (*build.compile_time_arg_defines(), *build.defines)]


def write_units(build: KernelBuild, directory: Path) -> None:
    """The files the JIT generates for a compute kernel, in ``directory``: its defines, the chlkc
    descriptors, a Metal 2.0 kernel's bindings, and each TRISC's translation unit
    (``trisc_<x>.cpp``, laid out as ``trisck.cc``) with its ``chlkc_<x>.cpp`` (the kernel, and the
    ``kernel_main()`` the JIT writes for a ``TT_KERNEL`` entry: tt_kernel_entry.py)."""
    (directory / "defines_generated.h").write_text("".join(f"#define {n} {v}\n" for n, v in build.defines))
    (directory / "chlkc_descriptors.h").write_text(descriptors_header(build))
    # a Metal 2.0 kernel's generated bindings, which the JIT includes in each TRISC's prologue
    bindings = '#include "kernel_bindings_generated.h"\n' if build.bindings is not None else ""
    if build.bindings is not None:
        (directory / "kernel_bindings_generated.h").write_text("#pragma once\n" + build.bindings.header(NO_LOCATION))
    entry = tt_kernel_entry.kernel_main_for(build.text)
    for name in TRISCS:
        (directory / f"chlkc_{name.lower()}.cpp").write_text(
            f'#define TRISC_{name}\n{bindings}#include "defines_generated.h"\n#include "{build.source}"\n{entry}')
        (directory / f"trisc_{name.lower()}.cpp").write_text(
            '#include "internal/firmware_common.h"\n#include "api/compile_time_args.h"\n'
            '#include "chlkc_list.h"\n#include "tc_compute_trisc_main.h"\n')


def trisc_command(build: KernelBuild, tt_metal: Path, directory: Path, index: int) -> list[str]:
    """The compiler command for TRISC ``index`` of a kernel whose units ``write_units`` wrote in
    ``directory``, with the shared precompiled prefix (built on first use), without an output (the
    caller adds ``-o``, or ``-fsyntax-only``)."""
    gxx = compiler()
    name = TRISCS[index]
    arch = kernel_arch(build)
    trisc = [*gxx.command(), *COMPUTE_FLAGS, *TRISC_FLAGS, *kernel_arch_flags(arch), f"-DUCK_CHLKC_{name}",
             f"-DNAMESPACE=chlkc_{name.lower()}", f"-DCOMPILE_FOR_TRISC={index}", f"-DPROCESSOR_INDEX={2 + index}"]
    prefix = tensix_prefix.precompiled(
        [*trisc, *(f"-I{p}" for p in tree_roots(tt_metal, arch))],
        tensix_prefix.header_text(
            tensix_tree.KERNEL_INCLUDE_DIR / "tc_tensix_kernel.h", arch_define_lines(build),
            (*tensix_prefix.FIRMWARE,
             *tensix_prefix.unit_headers(tt_metal / "tt-llk" / tensix_tree.LLK_ARCH_DIRS[arch], name))),
        cache.digest(gxx.version, tt_metal.parent.name, hash_tree(MACHINE_DIR, (".h",))),
        f"the Tensix machine's TRISC {name} prefix", run_compiler)
    return [*trisc, *kernel_define_flags(build), "-include", str(prefix),
            *(f"-I{p}" for p in kernel_include_roots(tt_metal, build, directory, arch)),
            str(directory / f"trisc_{name.lower()}.cpp")]


def kernel_errors(build: KernelBuild) -> Callable[[str], Exception | None]:
    """A failed TRISC (or, tensix_dataflow.py, BRISC/NCRISC) compile whose errors include one in the
    kernel's own source is the kernel's mistake: diagnosed at the kernel's line (compile_errors.py: a
    removed or renamed name or header E5002-E5005 with its replacement, else E5001), not as the
    machine's E5872; so is one without ``kernel_main`` (the old ``MAIN`` spelling)."""
    # an error at a kernel line, or an error in a header reached from a kernel line (a template
    # "required from" it, a constant expression "in 'constexpr' expansion of" it)
    located = re.compile(rf"^{re.escape(str(build.source))}:\d+:\d+:(?: (?:fatal )?error: "
                         r"|\s+required from|\s+in 'constexpr' expansion of)", re.M)

    def explain(stderr: str) -> Exception | None:
        if located.search(stderr):
            return compile_failure(stderr, build.source, build.display, build.text)
        if "'kernel_main' was not declared in this scope" in stderr:
            return missing_kernel_main(build.text, build.display)
        return None

    return explain


def _key(build: KernelBuild, tt_metal: Path) -> str:
    """What decides a compute kernel's three TRISC compiles."""
    forced = (clang().version,) if clang_forced() else ()  # type: ignore[union-attr]
    return cache.digest("tensix-compute", compiler().version, *forced, *COMPUTE_FLAGS, *TRISC_FLAGS,
                        *kernel_arch_flags(kernel_arch(build)), build.key(),
                        tt_metal.parent.name, hash_tree(MACHINE_DIR, (".h",)), *tensix_prefix.STANDARD,
                        *tensix_prefix.FIRMWARE, repr(tensix_prefix.UNIT_HEADERS))


def check_kernel(build: KernelBuild) -> str:
    """Compiles the kernel's three TRISC units syntax-only (``-fsyntax-only``: no code, no link),
    one after the other; a TensixBuildError (E5872) names the first TRISC's first error, also in
    the kernel's own source (the census clusters the compiler's own words). A kernel
    that compiled is remembered by the same content key as compile_kernel's (a marker in
    ``<cache>/emu/tensix-check``), so a census rerun builds only what changed. The corpus census
    (benchmarks/wheel_compute_compile.py) uses it. Returns the marker's text: what compiled the
    units (a line per TRISC that clang compiled, tensix_build.compile_host)."""
    tt_metal = tensix_tree.machine_tree(kernel_arch(build))

    def make(directory: Path) -> Path:
        write_units(build, directory)
        notes = []
        for index, name in enumerate(TRISCS):
            log = run_compiler([*trisc_command(build, tt_metal, directory, index), "-fsyntax-only"],
                               f"{build.display} (TRISC {name})", with_clang=clang_forced())
            notes += [f"TRISC {name}: {line}\n" for line in log.splitlines() if line.startswith(CLANG_NOTE)]
        marker = directory / "compiles"
        marker.write_text("syntax-only: the three TRISC units compile\n" + "".join(notes))
        return marker

    return cache.build("tensix-check", _key(build, tt_metal), make)[0].read_text()


def compile_kernel(build: KernelBuild) -> tuple[Path, bool]:
    """The compute kernel's three TRISC objects (the MATH one's path; UNPACK's and PACK's beside it,
    ``BESIDE``), cached by content; a TensixBuildError (E5872) names the first compiler error."""
    tt_metal = tensix_tree.machine_tree(kernel_arch(build))

    def make(directory: Path) -> Path:
        def compile_trisc(index: int) -> Path:
            out = directory / BESIDE.get(TRISCS[index], "math.so")
            log = run_compiler([*trisc_command(build, tt_metal, directory, index), "-o", str(out)],
                               f"{build.display} (TRISC {TRISCS[index]})", kernel_errors(build), clang_forced())
            if TRISCS[index] == "MATH":  # one TRISC's: each sees every API call of the kernel
                (directory / COMPILE_LOG).write_text(log)
            return out

        write_units(build, directory)
        with ThreadPoolExecutor(max_workers=len(TRISCS)) as pool:
            return list(pool.map(compile_trisc, range(len(TRISCS))))[1]

    return cache.build("tensix-compute", _key(build, tt_metal), make)


def trisc_objects(math_object: Path) -> tuple[Path, Path, Path]:
    """The UNPACK, MATH and PACK objects of a compile_kernel entry."""
    return math_object.parent / BESIDE["UNPACK"], math_object, math_object.parent / BESIDE["PACK"]


@functools.cache
def bridge_library(arch: str) -> ctypes.CDLL:
    """The machine of ``arch`` and the compute bridge in one library, loaded next to the emulator's
    runtime (whose symbols it uses) and global, so the TRISC objects resolve the machine's layer in
    it; each arch's machine has its namespace (tensix_build.MACHINE_NAMESPACES), so both load side
    by side."""
    native.lib()  # the runtime first: the bridge's undefined tc:: symbols resolve against it
    archive = machine_archive(arch)
    gxx = compiler()
    bridge = MACHINE_DIR / "bridge" / "compute_bridge.cpp"
    key = cache.digest("tensix-bridge", arch, gxx.version, *MACHINE_FLAGS, *machine_arch_flags(arch),
                       cache.digest(archive.read_bytes()),
                       hash_tree(MACHINE_DIR), hash_tree(RUNTIME), hash_tree(INCLUDE))

    def make(directory: Path) -> Path:
        out = directory / cache.OBJECT
        run_compiler([*gxx.command(), *MACHINE_FLAGS, "-shared",
                       str(compile_machine_source(bridge, directory, arch, [INCLUDE, RUNTIME])),
                       *whole_archive(archive), "-ldl", "-o", str(out)], "the Tensix machine's compute bridge")
        return out

    library = ctypes.CDLL(str(cache.build("tensix-bridge", key, make)[0]), mode=ctypes.RTLD_GLOBAL)
    load = library.tc_load_tensix_kernel
    load.restype = ctypes.c_void_p
    load.argtypes = [ctypes.c_void_p, *[ctypes.c_char_p] * 4, ctypes.c_int, ctypes.c_int, ctypes.c_void_p,
                     ctypes.c_char_p, ctypes.c_int]
    return library


def load_kernel(device: native.NativeDevice, math_object: Path, name: str, scratch: Path | None, chip: str,
                fp32_dest_acc: bool = False, dst_full_sync: bool = False,
                unpack_to_dest_fp32: Sequence[bool] = ()) -> int:
    """Loads the kernel's three TRISC objects, built for the ``chip`` model's architecture
    (``CHIP_ARCHS``), as one emulator kernel, with its DST mode and its CBs' UnpackToDestFp32 flags
    (for the sanitizer's DST and unpack checks).
    Each core needs its own copy (a TRISC's globals are per core: its CB interfaces, runtime-arg
    bases), and the loader shares one image per file, so every core after the first loads copies
    placed in ``scratch``."""
    paths = trisc_objects(math_object)
    if scratch is not None:
        scratch.mkdir(parents=True, exist_ok=True)
        paths = tuple(Path(shutil.copy(p, scratch / p.name)) for p in paths)  # type: ignore[assignment]
    error = ctypes.create_string_buffer(1024)
    flags = (ctypes.c_uint8 * 64)(*(int(flag) for flag in unpack_to_dest_fp32[:64]))
    handle = bridge_library(CHIP_ARCHS[chip]).tc_load_tensix_kernel(device.handle, *(str(p).encode() for p in paths), name.encode(),
                                                    int(fp32_dest_acc), int(dst_full_sync), flags, error, len(error))
    if not handle:
        raise RuntimeError(f"loading {math_object.parent} failed: {error.value.decode()}")
    return handle
