"""The machine include tree: the wheel's LLK and kernel-side headers, with the layers under the LLK replaced.

Tenstorrent's LLK code runs unchanged on the host over tilecraft's Tensix machine (tensix/). Only
two layers under it are replaced here, mechanically, in a cached copy of the wheel's headers
(never committed; see docs/emulator.md, "The Tensix machine"):

* instruction issue: ``ckernel_ops.h``'s ``TTI_INSN`` / ``TT_INSN`` (RISC-V ``.ttinsn`` / a store
  to the instruction buffer) become ``::tc_tensix::issue_from_kernel(word)``: the calling fiber's
  core and TRISC issue the instruction word;
* memory-mapped registers: every pointer ``reinterpret_cast<T *>(x)`` in the LLK, the test
  helpers and the test sources becomes ``::tc_tensix::mmio_cast<T *>(x)``, which maps a device
  address (config registers, MOP config, GPRs, debug registers, L1) to the current core's/thread's
  backing store and leaves a host pointer as it is; the two register windows with side effects (the PC buffer's
  semaphore access and the mailboxes) are declared as proxy types; the RISC-V inline assembly of
  the blocking load/store helpers becomes plain accesses.

Every rewrite names the file and the count it expects; a wheel whose text differs fails loudly
(``TreeError``) instead of compiling half-replaced code. The rewrites applied are listed in the
tree's ``PATCHES.txt``.

The LLK test suite (``tt-llk/tests``: sources, helpers, python tests, golden generators) is not
in the kernel-header cache; the harness's extraction of the wheel's ``tt-llk``
(``llk_suite.suite_tree``) provides it and the tree places it where the suite's relative include
roots expect it.
"""

from __future__ import annotations

import re
import shutil
from dataclasses import dataclass
from pathlib import Path

from .. import user_cache, wheel_headers, wheels
from . import cache, cache_budget, call_sites, dataflow_checks, tensix_call_events
from .llk_suite import suite_tree

PATCH_LOG = "PATCHES.txt"
#: LLK tree directory per architecture name used by tilecraft
LLK_ARCH_DIRS = {"wormhole": "tt_llk_wormhole_b0", "blackhole": "tt_llk_blackhole"}
#: tt-metal's name of each architecture: its ``hw/ckernels/<name>`` directory
METAL_ARCH_NAMES = {"wormhole": "wormhole_b0", "blackhole": "blackhole"}
#: the machine's own headers the rewritten code includes (tc_tensix_kernel.h, lltt.h, ...)
KERNEL_INCLUDE_DIR = Path(__file__).resolve().parent / "tensix" / "kernel_include"


class TreeError(RuntimeError):
    """The wheel's headers do not have the text a rewrite expects (a different wheel, or a bug)."""


# --- the rewrites ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class Rewrite:
    """``pattern`` -> ``replacement`` in each file matching ``glob`` (relative to ``tt_metal``).

    ``expect``: the exact number of matches per file (None: any number, including none).
    ``arch``: the one architecture whose tree gets it (None: every architecture). ``{llk}``,
    ``{arch}`` and ``{ckernels}`` in ``glob`` name the architecture's LLK, ``hw/inc`` and
    ``hw/ckernels`` directories.
    """

    glob: str
    pattern: str
    replacement: str | None
    why: str
    expect: int | None = 1
    flags: int = re.M
    arch: str | None = None
    #: a ``str.format`` template of the match's groups, used instead of ``replacement``
    group_replacement: str | None = None

    def substitute(self, match: re.Match[str]) -> str:
        if self.group_replacement is not None:
            return self.group_replacement.format(*match.groups())
        assert self.replacement is not None
        return self.replacement


_KERNEL_HEADER = '#include "tc_tensix_kernel.h"\n'

REWRITES: tuple[Rewrite, ...] = (
    Rewrite("tt-llk/{llk}/common/inc/ckernel_ops.h",
            r"^#if __riscv_xtttensix.*?^#endif\n",
            _KERNEL_HEADER
            + "#define TTI_INSN(ENCODING) ::tc_tensix::issue_from_kernel(unsigned(ENCODING))\n"
            + "#define TT_INSN(ENCODING) ::tc_tensix::issue_from_kernel(unsigned(ENCODING))\n",
            "instruction issue: the calling fiber's TRISC issues the word to the machine", flags=re.M | re.S),
    Rewrite("tt-llk/{llk}/common/inc/ckernel.h",
            r"^extern volatile std::uint32_t tt_reg_ptr \*pc_buf_base;",
            "extern ::tc_tensix::PcBuf pc_buf_base;",
            "PC buffer: semaphore reads/writes (SEMPOST/SEMGET side effects) and TTSync through a proxy"),
    Rewrite("tt-llk/{llk}/common/inc/ckernel.h",
            r"^extern volatile std::uint32_t tt_reg_ptr \*mailbox_base\[4\];",
            "extern ::tc_tensix::Mailbox mailbox_base[4];",
            "mailboxes: FIFO push on write, blocking pop on read, through a proxy"),
    Rewrite("tt-llk/{llk}/common/inc/ckernel.h",
            r'asm volatile\(\s*"lhu .*?: "memory"\);',
            "raw = 0;\n        std::memcpy(&raw, const_cast<const T *>(ptr), sizeof(T));",
            "load_blocking (16 bit): a plain host load instead of RISC-V lhu", flags=re.S),
    Rewrite("tt-llk/{llk}/common/inc/ckernel.h",
            r'asm volatile\(\s*"lw .*?: "memory"\);',
            "std::memcpy(&raw, const_cast<const T *>(ptr), sizeof(T));",
            "load_blocking (32 bit): a plain host load instead of RISC-V lw", flags=re.S),
    Rewrite("tt-llk/{llk}/common/inc/ckernel.h",
            r'asm volatile\(\s*"sw .*?: "memory"\);',
            "std::memcpy(const_cast<T *>(ptr), &raw, sizeof(raw));",
            "store_blocking: a plain host store instead of RISC-V sw/lw", flags=re.S),
    Rewrite("tt-llk/{llk}/llk_lib/llk_unpack_common.h",
            r'^#define consume_discard\(x\) __asm volatile\(.*\)$',
            "#define consume_discard(x) ((void)(x))",
            "consume_discard: the RISC-V load-use fence has no host meaning"),
    Rewrite("tt-llk/{llk}/llk_lib/llk_unpack_common.h",
            r'__asm volatile\("sw %2, %1; lw %0, %1".*?\);',
            "*addr = to_store;\n    result = *addr;",
            "store_then_load: a plain host store and load instead of RISC-V sw/lw", flags=re.S),
    Rewrite("tt-llk/common/llk_assert.h",
            r"^#pragma once$",
            "#pragma once\n" + _KERNEL_HEADER.rstrip("\n"),
            "LLK_ASSERT reports through the machine (the declaration it calls)"),
    Rewrite("tt-llk/common/llk_assert.h",
            r'asm volatile\("ebreak"\);',
            "::tc_tensix::llk_assert_failed(#condition, message, __FILE__, __LINE__);",
            "LLK_ASSERT: a failed assertion is a hard error naming it and its file:line (RISC-V ebreak)"),
    Rewrite("tt-llk/tests/helpers/include/barrier.h",
            r'asm volatile\("mv %0, %0" : "\+r"\(value\)\);',
            'asm volatile("" : "+r"(value));',
            "barrier: the RISC-V register-dependency idiom as an empty host asm with the same constraint",
            expect=None),
    # Blackhole's ckernel.h orders memory with RISC-V `fence` and switches instruction gathering
    # through CSR 0x7c0; on the host memory is coherent and there is no gathering.
    Rewrite("tt-llk/{llk}/common/inc/ckernel.h",
            r'asm(?: volatile)?\("fence"(?: ::: "memory")?\);',
            'asm volatile("" ::: "memory");',
            "fence: a compiler memory barrier instead of the RISC-V fence (host memory is coherent)",
            expect=6, arch="blackhole"),
    Rewrite("tt-llk/{llk}/common/inc/ckernel.h",
            r'asm\("csrr[sc] zero, 0x7c0, %0" : : "r"\([^;]*\)\);',
            "((void)0);",
            "instruction gathering (CSR 0x7c0): no host meaning", expect=4, arch="blackhole"),
    # The NoC's command buffers (noc_parameters.h's NOC_TARG_ADDR_LO ... NOC_CMD_CTRL per NoC and
    # buffer, the NIU status counters, NOC_CFG): every access of the data-movement API funnels
    # through these accessors, and a register write has side effects (NOC_CMD_CTRL issues the
    # transaction), so they call the emulator's NIU model instead of storing through a pointer.
    Rewrite("hw/inc/internal/tt-1xx/{arch}/noc_nonblocking_api.h",
            r"volatile uint32_t\* ptr = \(volatile uint32_t\*\)offset;\s*\*ptr = (\w+);",
            None, "NoC command/NIU register writes: the NIU model (a write to NOC_CMD_CTRL issues the transaction)",
            expect=2, group_replacement="::tc_tensix::noc_register_write(offset, {0});"),
    Rewrite("hw/inc/internal/tt-1xx/{arch}/noc_nonblocking_api.h",
            r"volatile uint32_t\* ptr = \(volatile uint32_t\*\)offset;\s*return \*ptr;",
            "return ::tc_tensix::noc_register_read(offset);",
            "NoC command/status/config register reads: the NIU model", expect=3),
    Rewrite("hw/inc/internal/tt-1xx/{arch}/noc_nonblocking_api.h",
            r"\*\(volatile uint32_t\*\)offset = val;",
            "::tc_tensix::noc_register_write(offset, val);",
            "NOC_CFG_WRITE_REG: the NIU model", arch="blackhole"),
    # get_arg_val / get_common_arg_val: tensor_accessor.h and tensor_accessor_args.h declare them
    # ahead of dataflow_api.h's definitions, so the call-site rewrite leaves them alone; here the
    # first declaration takes the defaulted call-site parameter and the definition the parameter,
    # its scope and the emulator's argument check (E5103), on a data-movement RISC only
    # (TC_FIRST_SITE..., tc_tensix_kernel.h; compute/common.h defines its own, unchanged).
    *(Rewrite(f"hw/inc/api/tensor/{header}", rf"^T ({name})\(int arg_idx\);$", None,
              f"{name}'s first declaration takes the caller's line on a data-movement RISC",
              group_replacement="T {0}(int arg_idx TC_FIRST_SITE);")
      for header, name in (("tensor_accessor.h", "get_arg_val"), ("tensor_accessor_args.h", "get_common_arg_val"))),
    *(Rewrite("hw/inc/api/dataflow/dataflow_api.h", rf"^(FORCE_INLINE T {name})\(int arg_idx\) \{{$", None,
              f"{name}: the caller's line and the emulator's argument check (E5103) on a data-movement RISC",
              group_replacement="{0}(int arg_idx TC_LATER_SITE) {{ TC_LATER_SCOPE TC_API_CHECK(" + kind
                                + ", arg_idx, 0, 0);")
      for name, kind in (("get_arg_val", "Arg"), ("get_common_arg_val", "CommonArg"))),
    # ASSERT in a build without the watcher compiles to nothing; the emulator checks every ASSERT, as
    # a watcher build does, and a data-movement kernel's failed one is E5008 at its line (TC_ASSERT).
    Rewrite("hw/inc/internal/debug/assert_common.h",
            r"^#define ASSERT\(condition, \.\.\.\) \(void\(sizeof\(decltype\(not\(condition\)\)\)\)\)$",
            "#define ASSERT(condition, ...) TC_ASSERT(condition)",
            "ASSERT without the watcher: checked on a data-movement RISC (E5008 at its line; TC_ASSERT)"),
    # DEVICE_PRINT in a build without the device's print server compiles to nothing; a
    # data-movement kernel's prints are formatted on the host instead, as the emulator's API does
    # (the device's server formats them on the host too, from the ELF's strings).
    Rewrite("hw/inc/api/debug/device_print.h",
            r"^#define DEVICE_PRINT\(format, \.\.\.\)$",
            "#define DEVICE_PRINT(format, ...) TC_DEVICE_PRINT(format, ##__VA_ARGS__)",
            "DEVICE_PRINT without the print server: formatted on the host on a data-movement RISC (TC_DEVICE_PRINT)"),
    # A named compile-time arg the host did not pass: the wheel's lookup runs off its end into
    # __builtin_unreachable (undefined behaviour at run time); here the lookup takes its caller's
    # line and the end is the emulator's E5116 at it (TC_NAMED_ARG_MISSING; not constexpr, so a
    # compile-time use still fails to compile, as the wheel intends).
    Rewrite("hw/inc/api/compile_time_args.h",
            r"^constexpr uint32_t (get_named_ct_arg|get_named_compile_time_arg_val)\(std::string_view name\)",
            None, "the named-arg lookup takes its caller's line (call sites)", expect=2,
            group_replacement="constexpr uint32_t {0}(std::string_view name, " + call_sites.SITE_PARAMETER + ")"),
    Rewrite("hw/inc/api/compile_time_args.h",
            r"\{ return get_named_ct_arg\(name\); \}",
            "{ return get_named_ct_arg(name, tc_site); }",
            "get_named_compile_time_arg_val passes its caller's line to the lookup"),
    Rewrite("hw/inc/api/compile_time_args.h",
            r"__builtin_unreachable\(\);(  // Invalid named compile time argument)$",
            None, "a named compile-time arg the host did not pass: E5116 at the caller's line (TC_NAMED_ARG_MISSING)",
            group_replacement="TC_NAMED_ARG_MISSING(name, tc_site);{0}"),
    # The build's per-buffer read/write notes: a RISC-V immediate ("n") printed into a .4byte; on
    # x86 the plain operand carries the immediate's '$', the 'c' modifier prints the bare constant.
    Rewrite("hw/inc/api/dataflow/buf_rw_note.h",
            r'"\.4byte %([01])\\n\\t"', None,
            "buffer read/write notes: the constants as bare numbers in the x86 assembler's syntax (%c)",
            expect=2, group_replacement='".4byte %c{0}\\n\\t"'),
    # A data-movement RISC's polling loops on L1 (noc_semaphore_wait, remote CB credits) call
    # invalidate_l1_cache in each iteration: there the polling fiber gives the other cores a turn.
    Rewrite("hw/inc/internal/tt-1xx/cache.h",
            r"^inline __attribute__\(\(always_inline\)\) void invalidate_l1_cache\(\) \{$",
            "inline __attribute__((always_inline)) void invalidate_l1_cache() {\n    TC_L1_POLL();",
            "invalidate_l1_cache: a polling loop's turn for the other fibers (TC_L1_POLL, tc_tensix_kernel.h)"),
    # Blackhole's RISC-V L1 cache is invalidated by a `fence`; the host has no such cache, what stays is
    # the fence's ordering of the RISC's memory accesses, for the compiler.
    Rewrite("hw/inc/internal/tt-1xx/cache.h",
            r'^    asm\("fence"\);$', '    asm volatile("" ::: "memory");',
            "invalidate_l1_cache on Blackhole: RISC-V `fence` -> a compiler barrier (no L1 cache on the host)"),
    Rewrite("tt-llk/{llk}/common/inc/ckernel_code_sequence.h",
            r"detail::build_table<Seq, N>\(entry\)",
            "detail::build_table<Seq, N>(std::remove_cvref_t<Entry>{})",
            "code_seq::make_table: the host g++ 12 does not read a reference parameter in a constant expression "
            "(C++23's P2280, in the SFPI toolchain's GCC); the stateless entry lambda is rebuilt by value instead"),
    Rewrite("tt-llk/{llk}/llk_lib/llk_unpack_AB_reduce.h",
            r"^#include <sys/_stdint\.h>$",
            "#include <cstdint>",
            "sys/_stdint.h: the RISC-V toolchain's newlib header for the fixed-width integers; the host's <cstdint>",
            arch="blackhole"),
    # Blackhole's block matmul reads a throttle flag the ARC firmware writes into L1
    # (MEM_L1_ARC_FW_SCRATCH) through a pointer initialised at load time, which on a TRISC keeps
    # the device address (firmware_cast); the read goes through the memory map to the core's L1.
    Rewrite("hw/inc/api/compute/matmul.h",
            r"\*\(throttle_ptr\) % 2",
            "*::tc_tensix::mmio_cast<volatile std::uint32_t *>(reinterpret_cast<std::uintptr_t>(throttle_ptr)) % 2",
            "matmul_block's firmware throttle flag: read from the core's L1 (MEM_L1_ARC_FW_SCRATCH) through the "
            "memory map", arch="blackhole"),
    # The compute API calls the kernel emulator's trace records (tensix_call_events.py): each
    # reports itself with its caller's file:line.
    *(Rewrite(f"hw/inc/api/{event.header}", tensix_call_events.pattern(event), None,
              f"{event.function}: reports a {event.kind.name} trace event with its caller's file:line",
              group_replacement=tensix_call_events.replacement(event))
      for event in tensix_call_events.CALL_EVENTS),
    *(Rewrite(f"hw/ckernels/{{ckernels}}/metal/{event.header}", tensix_call_events.pattern(event), None,
              f"{event.function}: reports a {event.kind.name} trace event with its caller's file:line (a kernel "
              "calling the LLK directly)", group_replacement=tensix_call_events.replacement(event))
      for event in tensix_call_events.LLK_CALL_EVENTS),
    *(Rewrite(f"hw/inc/api/{header}", pattern, None, "passes its caller's file:line on to the call it forwards to",
              group_replacement=template) for header, pattern, template in tensix_call_events.FORWARDS),
)

#: The dataflow API a data-movement kernel calls (free functions, Noc, DataflowBuffer, CircularBuffer,
#: Semaphore): each function defined there takes the kernel's call site (call_sites.py).
CALL_SITE_FILES = ("hw/inc/api/dataflow/dataflow_api.h", "hw/inc/api/dataflow/noc.h",
                   "hw/inc/api/dataflow/dataflow_buffer.h", "hw/inc/api/dataflow/circular_buffer.h",
                   "hw/inc/api/semaphore.h")

#: The internal header whose multicast writes (the free functions' and the object API's) the emulator checks.
RAW_CHECK_FILE = "hw/inc/internal/dataflow/dataflow_api_raw.h"

#: Defined while the data-movement build's precompiled prefix is parsed (tensix_dataflow.py): the
#: headers leave their deferred parts (``DEFERRALS``) for the kernel's own unit.
DEFER_MACRO = "TC_DEFER_KERNEL_PARTS"


@dataclass(frozen=True)
class Deferral:
    """Moves the parts of ``glob`` that read what varies per kernel into a header of their own, ``target``.

    Why: a g++ precompiled header is valid only if no macro defined before it is named in its text,
    even in a skipped block, and the prefix every data-movement kernel of a RISC shares
    (tensix_prefix.py) reaches ``dataflow_api.h`` (through ``internal/firmware_common.h``), which
    reads the kernel's compile-time args (``KERNEL_COMPILE_TIME_ARGS``, ``..._MAP``) and its
    generated ``chlkc_descriptors.h``. Those parts move verbatim to ``target``; the header includes
    ``target`` where the last of them stood, unless ``DEFER_MACRO`` is defined (the prefix's
    build), in which case the kernel's unit includes it right after the prefix. Every ``patterns``
    entry must match exactly once; ``declarations`` is what the rest of the header needs of the
    moved parts (a forward declaration), left in its place. ``target`` is relative to ``hw/inc``
    (an include root of every Tensix build).
    """

    glob: str
    patterns: tuple[str, ...]
    target: str
    why: str
    declarations: str = ""

    def apply(self, tt_metal: Path) -> str:
        """Moves the parts; returns the PATCHES line."""
        path = tt_metal / self.glob
        text = path.read_text()
        moved: list[str] = []
        for index, pattern in enumerate(self.patterns):
            matches = list(re.finditer(pattern, text, re.M | re.S))
            if len(matches) != 1:
                raise TreeError(f"{self.glob}: expected 1 match of /{pattern}/ for '{self.why}', found "
                                f"{len(matches)}; the wheel's headers are not the ones this rewrite was written for")
            moved.append(matches[0].group(0))
            in_place = (self.declarations + f'#ifndef {DEFER_MACRO}\n#include "{self.target}"\n#endif\n'
                        if index == len(self.patterns) - 1 else "")
            text = text.replace(moved[-1], in_place, 1)
        path.write_text(text)
        target = tt_metal / "hw" / "inc" / self.target
        target.write_text(f"// tilecraft: moved verbatim from {self.glob} (tensix_tree.py, Deferral)\n#pragma once\n"
                          + "".join(moved))
        return f"{self.glob}: {len(moved)} part(s) moved to hw/inc/{self.target} ({self.why})"


DEFERRALS: tuple[Deferral, ...] = (
    Deferral("hw/inc/api/dataflow/dataflow_api.h",
             (r'^#if __has_include\("chlkc_descriptors\.h"\)\n#include "chlkc_descriptors\.h"\n'
              r"#define DATA_FORMATS_DEFINED\n#endif\n",
              r"^#ifdef DATA_FORMATS_DEFINED\n.*?^#endif\n"),
             "api/dataflow/tc_deferred_data_formats.h",
             "the kernel's generated chlkc_descriptors.h and get_tile_size ... over it"),
    Deferral("hw/inc/api/compile_time_args.h",
             (r"^#ifdef KERNEL_COMPILE_TIME_ARG_MAP\n#include <string_view>\n#endif\n",
              r"^#ifndef KERNEL_COMPILE_TIME_ARGS\n.*?TC_NAMED_ARG_MISSING\(name, tc_site\);[^\n]*\n\}\n#endif\n",
              r"^#ifdef KERNEL_COMPILE_TIME_ARG_MAP\nconstexpr uint32_t get_named_compile_time_arg_val[^\n]*\n#endif\n"),
             "api/tc_deferred_compile_time_args.h",
             "the kernel's compile-time args: kernel_compile_time_args, get_ct_arg, the named-arg map",
             declarations="template <uint32_t Idx>\nconstexpr uint32_t get_ct_arg();\n"),
)


#: Directories (relative to ``tt_metal``) whose sources get the memory-mapped-register rewrite, and
#: the cast it makes: the LLK and its tests ``mmio_cast`` (every RISC), the kernel API and firmware
#: headers under ``hw/inc`` ``firmware_cast`` (mmio_cast on a data-movement RISC: stream registers,
#: the RISC's debug registers, L1 words at device addresses; the original cast on a TRISC).
MMIO_DIRS = (("tt-llk/{llk}/common/inc", "mmio_cast"), ("tt-llk/{llk}/llk_lib", "mmio_cast"),
             ("tt-llk/tests/helpers/include", "mmio_cast"), ("tt-llk/tests/sources", "mmio_cast"),
             ("hw/inc/api", "firmware_cast"), ("hw/inc/internal", "firmware_cast"))
_MMIO_SUFFIXES = (".h", ".hpp", ".cpp")
# A cast to a pointer type (no template arguments or function pointers inside the brackets).
_MMIO_CAST = re.compile(r"reinterpret_cast<\s*([^<>;()]*?\*)\s*>")
# A C-style cast to a volatile pointer type, as the firmware headers write register accesses:
# ``(volatile uint32_t*)addr``, ``(volatile uint32_t*)(uintptr_t)(STREAM_REG_ADDR(s, r))``.
_C_CAST = re.compile(r"\(\s*(volatile\b[^()<>;]*?\*)\s*\)\s*(\((?:std::)?u?int(?:ptr|32)_t\)\s*)?")
_IDENTIFIER = re.compile(r"[A-Za-z_]\w*")
_MEMBER = re.compile(r"(?:->|\.)[A-Za-z_]\w*")


def _rewrite_file(path: Path, rewrite: Rewrite, rel: str) -> str | None:
    text = path.read_text(errors="surrogateescape")
    new, count = re.subn(rewrite.pattern, rewrite.substitute, text, flags=rewrite.flags)
    if rewrite.expect is not None and count != rewrite.expect:
        raise TreeError(f"{rel}: expected {rewrite.expect} match(es) of /{rewrite.pattern}/ for '{rewrite.why}', "
                        f"found {count}; the wheel's headers are not the ones this rewrite was written for")
    if count == 0:
        return None
    path.write_text(new, errors="surrogateescape")
    return f"{rel}: {count} x {rewrite.why}"


def rewrite_casts(text: str, cast: str = "mmio_cast") -> tuple[str, int]:
    """``text`` with its pointer ``reinterpret_cast``s going through ``cast`` (``mmio_cast``), and their count.

    tensix_build.py applies it to a test source that is not in the tree (an out-of-tree test)."""
    return _MMIO_CAST.subn(rf"::tc_tensix::{cast}<\1>", text)


def _balanced_end(text: str, start: int) -> int:
    """The index after the bracket group opening at ``start`` (``(`` or ``[``), or -1."""
    depth = 0
    for i in range(start, len(text)):
        if text[i] in "([":
            depth += 1
        elif text[i] in ")]":
            depth -= 1
            if depth == 0:
                return i + 1
    return -1


def _operand_end(text: str, start: int) -> int:
    """The end of the unary expression a C cast applies to at ``start`` (a parenthesised group, or
    an identifier with its calls, subscripts and members), or -1 for anything else (``&x``, a
    literal): those are left as they are."""
    if start < len(text) and text[start] == "(":
        return _balanced_end(text, start)
    name = _IDENTIFIER.match(text, start)
    if name is None:
        return -1
    end = name.end()
    while True:
        member = _MEMBER.match(text, end)
        if member is not None:
            end = member.end()
        elif end < len(text) and text[end] in "([":
            end = _balanced_end(text, end)
            if end < 0:
                return -1
        else:
            return end


def rewrite_c_casts(text: str, cast: str = "mmio_cast") -> tuple[str, int]:
    """``text`` with its C-style casts to volatile pointers going through ``cast``, and their count."""
    out: list[str] = []
    pos = count = 0
    for match in _C_CAST.finditer(text):
        if match.start() < pos:
            continue
        end = _operand_end(text, match.end())
        if end < 0:
            continue
        operand = (match.group(2) or "") + text[match.end():end]
        out += [text[pos:match.start()], f"::tc_tensix::{cast}<{match.group(1)}>({operand})"]
        pos = end
        count += 1
    return "".join(out) + text[pos:], count


def _mmio_rewrite(root: Path, directory: str, cast: str) -> list[str]:
    log = []
    for path in sorted((root / directory).rglob("*")):
        if path.suffix not in _MMIO_SUFFIXES or not path.is_file():
            continue
        text = path.read_text(errors="surrogateescape")
        new, count = rewrite_casts(text, cast)
        new, c_count = rewrite_c_casts(new, cast) if cast != "mmio_cast" else (new, 0)
        if count or c_count:
            path.write_text(new, errors="surrogateescape")
        rel = path.relative_to(root).as_posix()
        if count:
            log.append(f"{rel}: {count} x reinterpret_cast<T *> -> "
                       f"::tc_tensix::{cast} (device address -> this core's/thread's backing store)")
        if c_count:
            log.append(f"{rel}: {c_count} x (volatile T *) C cast -> ::tc_tensix::{cast} (the same)")
    return log


def apply_rewrites(tt_metal: Path, arch: str) -> list[str]:
    """Apply every rewrite for ``arch`` under ``tt_metal`` in place; return the ``PATCHES`` lines."""
    llk = LLK_ARCH_DIRS[arch]
    log: list[str] = []
    for rewrite in REWRITES:
        if rewrite.arch not in (None, arch):
            continue
        rel = rewrite.glob.format(llk=llk, arch=arch, ckernels=METAL_ARCH_NAMES[arch])
        path = tt_metal / rel
        if not path.is_file():
            raise TreeError(f"{rel}: missing from the wheel's headers (needed for '{rewrite.why}')")
        line = _rewrite_file(path, rewrite, rel)
        if line:
            log.append(line)
    for directory, cast in MMIO_DIRS:
        log.extend(_mmio_rewrite(tt_metal, directory.format(llk=llk), cast))
    log.extend(_add_call_sites(tt_metal))
    log.extend(tensix_call_events.sfpu_rewrites(tt_metal / "hw" / "inc" / "api" / "compute"))
    log.extend(deferral.apply(tt_metal) for deferral in DEFERRALS)
    return log


def _add_call_sites(tt_metal: Path) -> list[str]:
    """The call-site rewrite of CALL_SITE_FILES, but for the free functions (those of the first
    file, ``dataflow_api.h``; the others define class members) that some header of ``hw/inc`` also
    declares without a body (call_sites.declared_names); the first file's functions the emulator
    checks (dataflow_checks.CHECKS) report their calls to it."""
    defined = call_sites.defined_names((tt_metal / CALL_SITE_FILES[0]).read_text())
    prototyped = set().union(*(call_sites.declared_names(path.read_text(errors="surrogateescape"), defined)
                               for path in sorted((tt_metal / "hw" / "inc").rglob("*"))
                               if path.suffix in _MMIO_SUFFIXES and path.is_file()))
    log = []
    for rel in CALL_SITE_FILES:
        path = tt_metal / rel
        checks = dataflow_checks.CHECKS if rel == CALL_SITE_FILES[0] else None
        text, count = call_sites.add_call_sites(path.read_text(), prototyped, checks)
        path.write_text(text)
        log.append(f"{rel}: {count} x a call-site parameter and scope (call_sites.py: findings name the kernel line)")
        if checks:
            log.append(_checks_placed(rel, text, checks))
    path = tt_metal / RAW_CHECK_FILE
    text, _ = call_sites.add_checks(path.read_text(), dataflow_checks.RAW_CHECKS)
    path.write_text(text)
    log.append(_checks_placed(RAW_CHECK_FILE, text, dataflow_checks.RAW_CHECKS))
    return log


def _checks_placed(rel: str, text: str, checks: dict[str, dataflow_checks.ApiCheck]) -> str:
    """The PATCHES line of the emulator's checks in ``text``; a TreeError if one found no definition."""
    missing = [name for name, check in checks.items()
               if f"TC_API_{'RESULT' if check.on_result else 'CHECK'}({check.kind}," not in text]
    if missing:
        raise TreeError(f"{rel}: the emulator's checks of {', '.join(missing)} found no definition to open "
                        "(dataflow_checks.py); the wheel's headers are not the ones they were written for")
    return f"{rel}: {len(checks)} x the emulator's API check (dataflow_checks.py: {', '.join(checks)})"


# --- the tree -------------------------------------------------------------------------------------

def _tree_key(arch: str) -> str:
    return cache.digest(arch, Path(__file__).read_bytes(), Path(call_sites.__file__).read_bytes(),
                        Path(dataflow_checks.__file__).read_bytes(),
                        Path(tensix_call_events.__file__).read_bytes(), wheels.TTNN_VERSION)


@cache_budget.memoized_entry(lambda tree: tree.parent)
def machine_tree(arch: str = "wormhole") -> Path:
    """The rewritten tree's ``tt_metal`` directory for ``arch`` (built once, cached by content)."""
    if arch not in LLK_ARCH_DIRS:
        raise ValueError(f"unknown arch {arch!r}; expected one of {sorted(LLK_ARCH_DIRS)}")
    key = _tree_key(arch)
    target = cache.emu_cache() / "tensix-tree" / f"{arch}-{key[:16]}"
    if wheels.is_unpacked(target, key):
        return target / "tt_metal"
    headers = wheel_headers.ensure_headers() / "tt_metal"
    tests = suite_tree.ensure_llk_root() / "tests"

    def make(staging: Path) -> None:
        shutil.copytree(headers, staging / "tt_metal", symlinks=True)
        shutil.copytree(tests, staging / "tt_metal" / "tt-llk" / "tests", symlinks=True)
        log = apply_rewrites(staging / "tt_metal", arch)
        (staging / PATCH_LOG).write_text("".join(f"{line}\n" for line in log))
        (staging / wheels.COMPLETE_MARKER).write_text(f"{key}\n")

    if user_cache.fill(target, lambda entry: wheels.is_unpacked(entry, key), make):
        cache_budget.after_build()
    return target / "tt_metal"
