"""Build an LLK test source for tilecraft's Tensix machine and run it on one core.

The LLK test suite (the wheel's ``tt-llk/tests``) compiles each test source three times, once per
TRISC (``-DLLK_TRISC_UNPACK`` / ``_MATH`` / ``_PACK``), against the real LLK. Here the same three
compiles run with the host g++ against the machine include tree (``tensix_tree.py``: the wheel's
headers with instruction issue and memory-mapped registers replaced), each into a shared object
whose symbols stay local (``-fvisibility=hidden``, ``-Bsymbolic``, loaded ``RTLD_LOCAL``), so the
three TRISCs' globals and ODR-different inline functions stay separate as three ELFs do on the
device. A runner executable (the machine's sources, built once per arch) maps the L1 image,
writes the runtime args where the kernels read them, runs the three kernels on fibers and writes
L1 back. Everything is cached by content under ``<cache>/emu``.

Interface (docs/emulator.md, "The Tensix machine"; the LLK suite harness calls it):
``build_llk_test(source, build_h | None, arch, extra_includes, defines) -> LlkProgram`` and
``LlkProgram.run(l1, runtime_args | None, timeout_s)``, raising :class:`TensixRunError`.
"""

from __future__ import annotations

import os
import re
import subprocess
import tempfile
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from .. import wheel_headers
from ..diagnostics import Diagnostic, KernelError
from . import cache, tensix_tree
from .toolchain import Compiler, clang, compiler

MACHINE_DIR = Path(__file__).resolve().parent / "tensix"
SFPI_DIR = MACHINE_DIR / "sfpi"  # our sfpi.h and lltt.h: the suite's -Isfpi/include
TRISCS = ("UNPACK", "MATH", "PACK")
#: the suite's defines for every test compile (test_config.py: INITIAL_OPTIONS_COMPILE)
SUITE_DEFINES = ("-DTENSIX_FIRMWARE", "-DENV_LLK_INFRA", "-DKERNEL_BUILD", "-DENABLE_LLK_ASSERT")
ARCH_DEFINES = {"wormhole": "-DARCH_WORMHOLE", "blackhole": "-DARCH_BLACKHOLE"}
#: tt-metal's name of each machine architecture: its chip model (device_model.py) and the
#: ``hw/ckernels/<name>`` directory
METAL_ARCH_NAMES = tensix_tree.METAL_ARCH_NAMES
#: Each architecture's machine in a C++ namespace of its own. The kernel emulator loads the compute
#: bridge of every architecture a process runs into one address space, globally (the TRISC objects
#: resolve the machine's layer there, tensix_compute.py), and the two machines differ in their
#: code (config addresses, encodings, opcode tables): with one name, the first loaded would serve
#: both. Blackhole's build renames the namespace ``tc_tensix`` on the command line, so its machine,
#: its TRISC objects and its bridge bind to one another only.
MACHINE_NAMESPACES = {"wormhole": "tc_tensix", "blackhole": "tc_tensix_blackhole"}
#: The suite's OPTIONS_ALL as far as they apply on the host (docs/emulator.md lists what is dropped
#: and why: -ftt-* and -mno-tt-fix-whbhebreak are SFPI-toolchain options; -ffast-math and its
#: refinements would let g++ rewrite the machine model's host arithmetic; -g and -Werror are
#: not needed for a run), plus what a shared object with local symbols needs. C++20, not the
#: suite's C++17: the header cache's g++ 12 stand-in for `static_assert(false, ...)`
#: (wheel_headers.py) names a lambda in an unevaluated context, which C++17 rejects; the SFPU
#: headers (ckernel_sfpu_fill.h, ...) have it.
KERNEL_FLAGS = ("-std=c++20", "-O3", "-fno-exceptions", "-fno-rtti", "-fno-use-cxa-atexit", "-ffp-contract=off",
                "-fPIC", "-shared", "-fvisibility=hidden", "-fvisibility-inlines-hidden", "-fno-gnu-unique",
                "-Wl,-Bsymbolic", "-Wno-attributes", "-Wno-ignored-attributes", "-fno-diagnostics-color")
#: the machine's own sources (position-independent: the compute bridge links them into a library)
MACHINE_FLAGS = ("-std=c++20", "-O2", "-ffp-contract=off", "-fPIC", "-fno-diagnostics-color")
#: RUNTIME_ARGS_START of the suite's linker scripts: where the runner writes the runtime args
RUNTIME_ARGS_START = 0x20000
#: how long the runner may take beyond the caller's timeout (loading, writing L1 back)
RUNNER_GRACE_S = 10.0

CODE_RUN = "E5871"
CODE_BUILD = "E5872"
CODE_TIMEOUT = "E5873"


class TensixRunError(KernelError):
    """A run on the Tensix machine ended without finishing: a hard error (an unmodelled
    instruction, a failed LLK_ASSERT, an unbacked device address), a deadlock, a crash or a timeout.
    The message is the machine's."""


class TensixBuildError(KernelError):
    """An LLK test source did not compile (or link) for the Tensix machine."""


def hash_tree(directory: Path, suffixes: tuple[str, ...] = (".h", ".hpp", ".inl", ".cpp", ".c")) -> str:
    parts: list[str | bytes] = []
    for path in sorted(directory.rglob("*")):
        if path.is_file() and path.suffix in suffixes:
            parts += [path.relative_to(directory).as_posix(), path.read_bytes()]
    return cache.digest(*parts)


def _include_roots(tt_metal: Path, arch: str, variant: Path, extra: Sequence[Path]) -> list[Path]:
    """The suite's include order (test_config.py: the compile command and INCLUDES), with our sfpi
    and kernel-side headers where the suite has the SFPI toolchain's."""
    tests = tt_metal / "tt-llk" / "tests"
    llk = tt_metal / "tt-llk" / tensix_tree.LLK_ARCH_DIRS[arch]
    hw = tt_metal / "hw" / "inc" / "internal" / "tt-1xx"
    if arch == "wormhole":
        hw_specific = [hw / "wormhole", hw / "wormhole" / "wormhole_b0_defines",
                       tt_metal / "hw" / "ckernels" / "wormhole_b0" / "metal" / "llk_api",
                       tt_metal / "hw" / "ckernels" / "wormhole_b0" / "metal" / "llk_api" / "llk_sfpu"]
    else:
        hw_specific = [hw / "blackhole", tt_metal / "hw" / "ckernels" / "blackhole" / "metal" / "llk_api",
                       tt_metal / "hw" / "ckernels" / "blackhole" / "metal" / "llk_api" / "llk_sfpu"]
    return [tests, tests / "helpers" / "src", variant, *extra, SFPI_DIR, tensix_tree.KERNEL_INCLUDE_DIR,
            llk / "llk_lib", llk / "llk_lib" / "hal", llk / "common" / "inc", llk / "common" / "inc" / "sfpu",
            tt_metal / "tt-llk" / "common", tt_metal / "tt-llk" / "tools" / "include", tt_metal / "hw" / "inc",
            tests / "firmware" / "riscv" / "common", tests / "helpers" / "include",
            tt_metal / "hostdevcommon" / "api", *hw_specific]


def machine_arch_flags(arch: str) -> list[str]:
    """What every compile of the machine's code for ``arch`` passes: the machine's architecture
    (arch.h) and its namespace (``MACHINE_NAMESPACES``)."""
    namespace = MACHINE_NAMESPACES[arch]
    return [f"-DTC_ARCH_{arch.upper()}", *([f"-Dtc_tensix={namespace}"] if namespace != "tc_tensix" else [])]


#: What every kernel built for the arch is compiled with beyond its arch define. Blackhole's take the
#: LLK's paths without SFPLOADMACRO (tt-metal's TT_METAL_DISABLE_SFPLOADMACRO=1, the mode Tenstorrent's
#: simulator ttsim requires): Blackhole's SFPLOADMACRO scheduling has no public description, so the
#: machine refuses it there (sfpu.cpp) rather than run Wormhole B0's reading of it.
KERNEL_ARCH_DEFINES = {"wormhole": (), "blackhole": ("-DDISABLE_SFPLOADMACRO",)}


def kernel_arch_flags(arch: str) -> list[str]:
    """What a kernel compile for ``arch`` passes (an LLK test's TRISC, a compute kernel's): the arch
    define, ``KERNEL_ARCH_DEFINES`` and the machine's namespace."""
    return [ARCH_DEFINES[arch], *KERNEL_ARCH_DEFINES[arch], *machine_arch_flags(arch)]


#: g++ 12's own limits on 0.81.1's kernels, on which a compile is retried with clang when one is
#: installed (toolchain.clang): it crashes substituting kernel_lib's ``BinaryFpu`` alias with a
#: class-type argument taken from a variable template (moreh_common.hpp; no flag, -std or -O level
#: avoids it), and it rejects a ``#pragma GCC unroll`` count that is a template parameter (conv's
#: readers), which clang, like the SFPI toolchain's newer GCC, accepts
GXX_LIMITS = re.compile(r"internal compiler error|'#pragma GCC unroll' requires an assignment-expression")
#: how the output of a compile clang did after g++ failed begins its last line
CLANG_NOTE = "tilecraft (g++ limit): "


def clang_command(command: Sequence[str], clang_compiler: Compiler) -> list[str]:
    """A g++ command of the machine's kernel builds, for clang: g++'s ``-fpermissive`` (the RISC-V
    code's pointer-to-``uint32_t`` casts) is clang's ``-fms-extensions``; ``-fno-gnu-unique`` is g++'s
    alone (clang never makes GNU-unique symbols); a forced ``-include`` goes to clang's front end
    directly, so the g++ precompiled form beside the prefix header is not looked for (its text is
    read); ``-fmax-errors`` is ``-ferror-limit``. A ``template`` keyword before a name without
    arguments (0.81.1's ``api/dataflow/endpoints.h``), which g++ accepts, stays a warning."""
    out = [clang_compiler.path, "-Wno-unknown-warning-option", "-Wno-missing-template-arg-list-after-template-kw"]
    flags = iter(command[1:])
    for flag in flags:
        if flag == "-fpermissive":
            out.append("-fms-extensions")
        elif flag == "-include":
            out += ["-Xclang", "-include", "-Xclang", next(flags)]
        elif flag.startswith("-fmax-errors="):
            out.append(flag.replace("-fmax-errors=", "-ferror-limit="))
        elif flag != "-fno-gnu-unique":
            out.append(flag)
    return out


def compile_host(command: list[str], with_clang: bool = False) -> subprocess.CompletedProcess[str]:
    """Runs a kernel compile with g++ (with clang when ``with_clang`` and one is installed); when g++
    fails on one of its own limits (GXX_LIMITS) and clang is installed, runs it again with clang and
    returns that run, its output ending with a note of what happened."""
    env = {**os.environ, "LC_ALL": "C"}
    alternative = clang()
    if with_clang and alternative is not None:
        return subprocess.run(clang_command(command, alternative), capture_output=True, text=True, env=env)
    done = subprocess.run(command, capture_output=True, text=True, env=env)
    if done.returncode == 0 or alternative is None or "c++-header" in command or not GXX_LIMITS.search(done.stderr):
        return done
    limit = "crash" if "internal compiler error" in done.stderr else "dependent '#pragma GCC unroll' count"
    retried = subprocess.run(clang_command(command, alternative), capture_output=True, text=True, env=env)
    retried.stderr += f"\n{CLANG_NOTE}{alternative.version} compiled this unit: g++ failed on its {limit}\n"
    return retried


def run_compiler(command: list[str], what: str, explain: Callable[[str], Exception | None] | None = None,
                 with_clang: bool = False) -> str:
    """Runs a machine compile and returns its diagnostics output (warnings); on failure raises
    ``explain(stderr)`` when that gives an exception (the caller's own diagnosis, e.g. an error in a
    kernel's own source), else a TensixBuildError (E5872) with the compiler's first error. A compile
    g++ cannot do for a reason of its own is done by clang when installed (compile_host)."""
    done = compile_host(command, with_clang)
    if done.returncode != 0 and explain is not None and (diagnosed := explain(done.stderr)) is not None:
        raise diagnosed
    if done.returncode != 0:
        errors = [line for line in done.stderr.splitlines() if ": error:" in line or "fatal error" in line]
        first = errors[0] if errors else (done.stderr.strip().splitlines() or ["(no output)"])[-1]
        raise TensixBuildError(Diagnostic(
            CODE_BUILD, f"{what} does not compile for tilecraft's Tensix machine: {first}",
            hint="the full compiler output follows:\n" + done.stderr[-6000:]))
    return done.stderr


# --- the runner -----------------------------------------------------------------------------------

def _opcode_names_source(tt_metal: Path, arch: str) -> str:
    """C++ naming every opcode of the arch's assembly.yaml, so an unmodelled one is named."""
    yaml = tt_metal / "tt-llk" / tensix_tree.LLK_ARCH_DIRS[arch] / "instructions" / "assembly.yaml"
    pairs = re.findall(r"^([A-Z][A-Z0-9_]*):\s*\n(?:[ \t]+.*\n)*?[ \t]+op_binary:\s*(0x[0-9a-fA-F]+)",
                       yaml.read_text(), flags=re.M)
    lines = [f'    tc_tensix::Machine::name_opcode({code}, "{name}");' for name, code in pairs]
    return ("// Generated by tilecraft/emu/tensix_build.py from the wheel's assembly.yaml.\n"
            '#include "machine.h"\nnamespace {\nstruct OpcodeNames {\n    OpcodeNames() {\n'
            + "\n".join(lines) + "\n    }\n} names;\n}  // namespace\n")


def machine_archive(arch: str = "wormhole") -> Path:
    """Every machine source (and the generated opcode names) compiled once per arch into one
    archive of position-independent objects, cached by content: the runner links it, and so does
    the kernel emulator's compute bridge (tensix_compute.py), so a cold cache builds the machine
    once. Link it whole (``whole_archive``): the units register their opcodes from static
    initialisers that nothing else references."""
    tt_metal = tensix_tree.machine_tree(arch)
    gxx = compiler()
    key = cache.digest("tensix-machine", arch, gxx.version, *MACHINE_FLAGS, *machine_arch_flags(arch), hash_tree(MACHINE_DIR),
                       tt_metal.parent.name)

    def make(directory: Path) -> Path:
        names = directory / "opcode_names.cpp"
        names.write_text(_opcode_names_source(tt_metal, arch))
        sources = [*sorted(MACHINE_DIR.glob("*.cpp")), names]
        with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
            objects = list(pool.map(lambda source: compile_machine_source(source, directory, arch), sources))
        out = directory / "libtcmachine.a"
        done = subprocess.run(["ar", "rcs", str(out), *map(str, objects)], capture_output=True, text=True)
        if done.returncode != 0:
            raise TensixBuildError(Diagnostic(CODE_BUILD, f"archiving the Tensix machine failed: {done.stderr.strip()}"))
        return out

    return cache.build("tensix-machine", key, make)[0]


def compile_machine_source(source: Path, directory: Path, arch: str, extra_includes: Sequence[Path] = ()) -> Path:
    """One source against the machine's headers, as the machine's own units are compiled."""
    # The machine's sources see the wheel's headers as the unit tests compile them
    # (tests/emu/tensix/conftest.py): the original ckernel_ops.h for TT_OP_*, cfg_defines.h.
    original = wheel_headers.ensure_headers() / "tt_metal"
    hw = original / "hw" / "inc" / "internal" / "tt-1xx" / arch
    includes = [MACHINE_DIR, hw, original / "tt-llk" / tensix_tree.LLK_ARCH_DIRS[arch] / "common" / "inc"]
    includes += [hw / "wormhole_b0_defines"] if arch == "wormhole" else []
    obj = directory / f"{source.stem}.o"
    run_compiler([*compiler().command(), *MACHINE_FLAGS, *machine_arch_flags(arch),
                   *(f"-I{p}" for p in [*includes, *extra_includes]), "-c", str(source), "-o", str(obj)],
                  f"the Tensix machine's {source.name} ({arch})")
    return obj


def whole_archive(archive: Path) -> list[str]:
    """Linker arguments that take every object of ``archive``."""
    return ["-Wl,--whole-archive", str(archive), "-Wl,--no-whole-archive"]


def runner_executable(arch: str = "wormhole") -> Path:
    """The runner for ``arch``: runner_main.cpp linked with the machine's archive, cached."""
    archive = machine_archive(arch)
    gxx = compiler()
    main = MACHINE_DIR / "runner" / "runner_main.cpp"
    key = cache.digest("tensix-runner", arch, gxx.version, *MACHINE_FLAGS, *machine_arch_flags(arch),
                       hash_tree(MACHINE_DIR), cache.digest(archive.read_bytes()))

    def make(directory: Path) -> Path:
        out = directory / "tensix_runner"
        run_compiler([*gxx.command(), *MACHINE_FLAGS, "-rdynamic", str(compile_machine_source(main, directory, arch)),
                       *whole_archive(archive), "-ldl", "-o", str(out)], f"the Tensix machine runner ({arch})")
        return out

    return cache.build("tensix-runner", key, make)[0]


# --- the kernels ----------------------------------------------------------------------------------

@dataclass(frozen=True)
class LlkProgram:
    """The three TRISC kernels of one LLK test variant, built for the machine, and its runner."""

    source: Path
    arch: str
    triscs: tuple[Path, Path, Path]
    runner: Path

    def run(self, l1: bytearray, runtime_args: bytes | None, timeout_s: float = 60) -> None:
        """Run the three TRISCs on one core whose L1 is ``l1`` (modified in place, also when the run
        ends with a TensixRunError).

        ``runtime_args`` are written at RUNTIME_ARGS_START and must be ``sizeof(RuntimeParams)``
        bytes (the runner checks it against each TRISC's build). ``None`` writes none: each TRISC
        copies ``sizeof(RuntimeParams)`` bytes of ``l1`` as they stand, as the firmware does, for a
        source that defines its own ``RuntimeParams``, whose size only its compile knows."""
        if runtime_args is not None and RUNTIME_ARGS_START + len(runtime_args) > len(l1):
            raise TensixRunError(Diagnostic(CODE_RUN, f"the runtime args ({len(runtime_args)} bytes) do not fit in "
                                                      f"the {len(l1)}-byte L1 at {RUNTIME_ARGS_START:#x}"))
        with tempfile.TemporaryDirectory(prefix="tc-tensix-run-") as tmp:
            image, args = Path(tmp) / "l1.bin", Path(tmp) / "args.bin"
            image.write_bytes(l1)
            if runtime_args is not None:
                args.write_bytes(runtime_args)
            args_operand = "-" if runtime_args is None else str(args)
            command = [str(self.runner), str(image), args_operand, str(timeout_s), *map(str, self.triscs)]
            try:
                done = subprocess.run(command, capture_output=True, text=True, timeout=timeout_s + RUNNER_GRACE_S)
            except subprocess.TimeoutExpired:
                raise TensixRunError(Diagnostic(
                    CODE_TIMEOUT, f"{self.source.name} did not finish within {timeout_s} s on the Tensix machine",
                    hint="a TRISC loops without issuing instructions or polling machine state (for example a "
                         "busy wait on a debug register)")) from None
            l1[:] = image.read_bytes()  # also after an error: what ran before it stays inspectable
            if done.returncode != 0:
                message = done.stderr.strip() or f"the runner exited with status {done.returncode}"
                raise TensixRunError(Diagnostic(CODE_RUN, f"{self.source.name} on the Tensix machine: {message}"))


def build_llk_test(source: Path, build_h: str | None, arch: str = "wormhole", extra_includes: Sequence[Path] = (),
                   defines: Sequence[str] = ()) -> LlkProgram:
    """Compile ``source`` for the three TRISCs (``build_h`` as its ``build.h``; ``None`` for a source
    that brings its own definitions, the suite's ``skip_build_header``, which has none) and the runner."""
    if arch not in ARCH_DEFINES:
        raise ValueError(f"unknown arch {arch!r}; expected one of {sorted(ARCH_DEFINES)}")
    source = Path(source).resolve()
    tt_metal = tensix_tree.machine_tree(arch)
    gxx = compiler()
    extra = [Path(p).resolve() for p in extra_includes]
    define_flags = [d if d.startswith("-D") else f"-D{d}" for d in defines]
    key_parts = ["tensix-trisc", arch, gxx.version, *KERNEL_FLAGS, *SUITE_DEFINES, *kernel_arch_flags(arch),
                 *define_flags, source.as_posix(),
                 source.read_bytes(), "no build.h" if build_h is None else build_h, tt_metal.parent.name,
                 hash_tree(MACHINE_DIR, (".h",)),  # our sfpi.h and kernel_include/ and the machine headers they use
                 *(p.as_posix() for p in extra),
                 *(hash_tree(p) for p in extra)]

    def build_trisc(index: int) -> Path:
        name = TRISCS[index]

        def make(directory: Path) -> Path:
            variant = directory / "variant"
            variant.mkdir()
            if build_h is not None:
                (variant / "build.h").write_text(build_h)
            # The source gets the tree's memory-mapped-register rewrite too (a no-op for the
            # suite's sources, already rewritten); its own directory stays first on the path.
            kernel = directory / "source" / source.name
            kernel.parent.mkdir()
            rewritten = tensix_tree.rewrite_casts(source.read_text(errors="surrogateescape"))[0]
            # `#line` keeps __FILE__ (LLK_ASSERT reports) and compiler messages at the original.
            kernel.write_text(f'#line 1 "{source}"\n{rewritten}', errors="surrogateescape")
            stub = directory / f"{name.lower()}.cpp"
            stub.write_text(f'#include "{kernel}"\n#include "tc_trisc_main.h"\n')
            out = directory / f"{name.lower()}.so"
            run_compiler([*gxx.command(), *KERNEL_FLAGS, *SUITE_DEFINES, *kernel_arch_flags(arch),
                           f"-DCOMPILE_FOR_TRISC={index}", f"-DLLK_TRISC_{name}", *define_flags,
                           "-include", str(tensix_tree.KERNEL_INCLUDE_DIR / "tc_tensix_kernel.h"),
                           f"-I{source.parent}", *(f"-I{p}" for p in _include_roots(tt_metal, arch, variant, extra)),
                           str(stub), "-o", str(out)], f"{source.name} (TRISC {name})")
            return out

        return cache.build("tensix-trisc", cache.digest(*key_parts, name), make)[0]

    with ThreadPoolExecutor(max_workers=4) as pool:
        runner = pool.submit(runner_executable, arch)
        triscs = tuple(pool.map(build_trisc, range(len(TRISCS))))
        runner_path = runner.result()
    return LlkProgram(source, arch, triscs, runner_path)  # type: ignore[arg-type]
