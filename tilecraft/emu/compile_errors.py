"""The compiler's errors as diagnostics at the kernel's own lines.

g++ reports an error in the file where it happened; for a mistake in the kernel that is the
kernel, but a wrong template argument or a static assertion fires inside the API's headers, and the
kernel line is the "required from here" context above it. The first error becomes the
diagnostic (the compiler's message at the kernel line), later ones its notes. Three kinds get a
message of their own:

* a name 0.81.1 removed (``mm_init``, ``binary_op_init_common``, ...): E5003, naming the
  0.81.1 replacement;
* a header path 0.81.1 renamed (``compute_kernel_api/...``): E5005, naming the new path;
* a name the 0.81.1 API does not declare: E5002, "unknown API call", saying which header
  declares it when the kernel merely did not include it; a kernel API header (``api/...``) the
  API does not have is E5002 too, naming the header.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path

from ..diagnostics import Diagnostic, KernelError, Note, Span, error
from .. import wheel_headers
from . import compute_api_table, dataflow_api_table

#: names older kernels use that 0.81.1 removed, with what replaces them
REMOVED: dict[str, str] = {
    "binary_op_init_common": "compute_kernel_hw_startup(icb0, icb1, ocb)",
    "add_tiles_init": "add_init(icb0, icb1, acc_to_dest = false)",
    "sub_tiles_init": "sub_init(icb0, icb1, acc_to_dest = false)",
    "mul_tiles_init": "mul_init(icb0, icb1)",
    "add_tiles_init_nof": "add_init(icb0, icb1)",
    "mul_tiles_init_f": "mul_init(icb0, icb1)",
    "mm_init": "compute_kernel_hw_startup<SrcOrder::Reverse>(in0, in1, out) then matmul_init(in0, in1, transpose = 0)",
    "mm_init_short": "matmul_init(in0, in1, transpose = 0)",
    "mm_block_init": "compute_kernel_hw_startup<SrcOrder::Reverse>(in0, in1, out) then "
                     "matmul_block_init(in0, in1, transpose, ct_dim, rt_dim, kt_dim)",
    "mm_block_init_short": "matmul_block_init(in0, in1, transpose, ct_dim, rt_dim, kt_dim)",
    "pack_tile_block": "pack_block(ifrom_dst, icb, ntiles)",
    "binary_dest_reuse_tiles": "binary_reuse_dest_tiles<EltwiseBinaryType, EltwiseBinaryReuseDestType>"
                               "(in_cb, in_tile, dst_tile)",
    "binary_dest_reuse_tiles_init": "binary_reuse_dest_init<EltwiseBinaryType, EltwiseBinaryReuseDestType>"
                                    "(icb, call_line), or add/sub/mul_reuse_dest_init<...>(icb)",
    "transpose_wh_init": "transpose_init(icb)",
    "transpose_wh_tile": "transpose_tile(icb, itile, idst)",
    "reduce_init_delta": "reduce_init<PoolType, ReduceDim>(icb, icb_scaler, ocb)",
    "reduce_revert_delta": "reduce_uninit()",
    "unpack_reconfig_data_format": "reconfig_data_format(icb0, icb1)",
    "unpack_reconfig_data_format_srca": "reconfig_data_format_srca(icb)",
    "unpack_reconfig_data_format_srcb": "reconfig_data_format_srcb(icb)",
    "MAIN": "void kernel_main() (0.81.1 compute kernels define kernel_main at namespace scope; "
            "`namespace NAMESPACE { void MAIN {...} }` is gone)",
}

#: header paths that moved in 0.81.1: old prefix -> new prefix
RENAMED_HEADERS: dict[str, str] = {
    "compute_kernel_api/": "api/compute/",
    "compute_kernel_api.h": "api/compute/compute_kernel_api.h",
    "dataflow_api.h": "api/dataflow/dataflow_api.h",
    "debug/dprint.h": "api/debug/dprint.h",
}

#: where 0.81.1's kernel API headers live, as kernels include them (tt_metal/hw/inc/...)
KERNEL_API_ROOTS = ("api/", "hostdevcommon/", "internal/")

_LOCATED = re.compile(r"^(?P<file>.+?):(?P<line>\d+):(?P<col>\d+): (?P<kind>fatal error|error|warning|note): "
                      r"(?P<msg>.*)$")
#: a kernel line an error in a header is reached from: a template's instantiation, or a constant
#: expression's evaluation (a named compile-time arg the host did not pass)
_CONTEXT = re.compile(r"^(?P<file>.+?):(?P<line>\d+):(?P<col>\d+):\s+(?:required from|in 'constexpr' expansion of)")
_UNDECLARED = re.compile(r"'(?P<name>[A-Za-z_]\w*)' (?:was not declared in this scope|has not been declared|"
                         r"is not a member of)")
_NO_FILE = re.compile(r"(?P<path>[\w./-]+): No such file or directory")
_NOT_MODELLED = re.compile(r"not modelled by the tilecraft emulator: (?P<what>[^\"]+?)\"?$")
#: a Metal 2.0 binding the host did not declare: `args::x` with no such arg, or no `args::` at all
_UNBOUND = re.compile(r"'(?P<name>\w+)' is not a member of '(?P<ns>args|dfb|tensor)'"
                      r"|'(?P<bare>args|tensor)' has not been declared")
_NO_MEMBER = re.compile(r"'(?:const )?(?:class |struct )?(?P<cls>\w+)(?:<[^']*>)?' has no member named '(?P<name>\w+)'")
#: the classes of 0.81.1's object API (a member the emulator lacks is an unknown API call)
OBJECT_API = ("Noc", "DataflowBuffer", "CircularBuffer", "Semaphore", "TensorAccessor", "UnicastEndpoint",
              "MulticastEndpoint")
_API_LIKE = re.compile(r"(_tile|_tiles|_init|_uninit|_block)$|^(noc_|cb_|get_|pack_|copy_|tile_regs_|reconfig_)")


@functools.cache
def kernel_api() -> dict[str, str]:
    """Every API function a kernel compiles against -> the header (path as kernels include it): the
    wheel's real compute and data-movement APIs (compute_api_table.py, dataflow_api_table.py), where
    their headers can be had (no kernel compiles without them)."""
    try:
        real = (*compute_api_table.signatures(), *dataflow_api_table.signatures())
    except wheel_headers.HeadersUnavailable:
        real = ()
    return {sig.name: sig.file for sig in real if "::" not in sig.name}


def compile_failure(stderr: str, source: Path, display: str, text: str) -> KernelError:
    """The KernelError for a failed kernel compile."""
    kernel = str(source)
    errors: list[tuple[Span | None, str]] = []
    context: Span | None = None
    for raw in stderr.splitlines():
        ctx = _CONTEXT.match(raw)
        if ctx and ctx.group("file") == kernel:
            context = Span(display, int(ctx.group("line")), int(ctx.group("col")))
            continue
        m = _LOCATED.match(raw)
        if m is None or m.group("kind") not in ("error", "fatal error"):
            continue
        here = Span(display, int(m.group("line")), int(m.group("col"))) if m.group("file") == kernel else context
        errors.append((here, m.group("msg")))
        context = None
    if not errors:
        tail = "\n".join(stderr.strip().splitlines()[-12:])
        return error("E5001", f"the kernel {display} does not compile:\n{tail}")
    span, message = errors[0]
    notes = tuple(Note(f"error: {msg}", sp) for sp, msg in errors[1:6])
    return _classify(span, message, notes, display)


def _classify(span: Span | None, message: str, notes: tuple[Note, ...], display: str) -> KernelError:
    unbound = _UNBOUND.search(message)
    if unbound:
        name = f"{unbound.group('ns')}::{unbound.group('name')}" if unbound.group("ns") else f"{unbound.group('bare')}::"
        field = {"args": "runtime_args, common_runtime_args or compile_time_args", "dfb": "dfbs",
                 "tensor": "tensors"}[unbound.group("ns") or unbound.group("bare")]
        return error("E5001", f"the kernel names the Metal 2.0 binding {name}, which its host did not declare",
                     span, hint=f"declare it in the KernelDescriptor's bindings=ttnn.KernelBindings({field}=...) "
                                "(tilecraft's extension: docs/emulator.md, Metal 2.0 named bindings)", notes=notes)
    undeclared = _UNDECLARED.search(message)
    if undeclared:
        name = undeclared.group("name")
        if name in REMOVED:
            return error("E5003", f"'{name}' was removed in TT-Metalium 0.81.1", span,
                         hint=f"use {REMOVED[name]}", notes=notes)
        header = kernel_api().get(name)
        if header is not None:
            return error("E5002", f"unknown API call '{name}': it is declared in {header}, which the kernel does not "
                         "include", span, hint=f'#include "{header}"', notes=notes)
        if _API_LIKE.search(name):
            return error("E5002", f"unknown API call '{name}': it is not part of the TT-Metalium 0.81.1 kernel API "
                         "the emulator models", span,
                         hint="check the spelling against the 0.81.1 headers (docs/emulator.md lists what is "
                              "modelled)", notes=notes)
    missing = _NO_FILE.search(message)
    if missing:
        path = missing.group("path")
        for old, new in RENAMED_HEADERS.items():
            if path.startswith(old) or path == old:
                renamed = new + path[len(old):] if old.endswith("/") else new
                return error("E5005", f"header '{path}' does not exist in TT-Metalium 0.81.1", span,
                             hint=f'#include "{renamed}"', notes=notes)
        if path.startswith(KERNEL_API_ROOTS):
            return error("E5002", f"header '{path}' is not part of the TT-Metalium 0.81.1 kernel API: the "
                         "wheel's headers have no such file", span,
                         hint="docs/emulator.md lists what is modelled (section 3) and what is not (section 7); "
                              "check the path against the 0.81.1 headers", notes=notes)
    if "Old style DPRINT" in message:
        return error("E5003", "the stream form of DPRINT (`DPRINT << x << ENDL();`) was removed in TT-Metalium 0.81.1",
                     span, hint='use the fmt-style form: DPRINT("x = {}\\n", x);', notes=notes)
    modelled = _NOT_MODELLED.search(message)
    if modelled:
        return error("E5002", f"{modelled.group('what')} is part of the TT-Metalium 0.81.1 kernel API but the "
                     "emulator does not model it", span, hint="docs/emulator.md lists what is modelled",
                     notes=notes)
    member = _NO_MEMBER.search(message)
    if member and member.group("cls") in OBJECT_API:
        return error("E5002", f"unknown API call '{member.group('cls')}::{member.group('name')}': the emulator "
                     f"does not model it", span, hint="docs/emulator.md lists the modelled members of the object API",
                     notes=notes)
    if "MAIN" in message and "declared void" in message:
        return error("E5003", "'MAIN' was removed in TT-Metalium 0.81.1", span, hint=f"use {REMOVED['MAIN']}",
                     notes=notes)
    if "tc_named_compile_time_arg_is_not_defined" in message:
        return error("E5001", "get_named_compile_time_arg_val names an argument the host did not pass", span,
                     hint="add it to KernelDescriptor.named_compile_time_args", notes=notes)
    return error("E5001", f"the kernel does not compile: {message}", span, notes=notes)


def missing_kernel_main(text: str, display: str) -> KernelError:
    """The build's entry point (the JIT's ``chlkc_list.h`` calls ``kernel_main()``) found no
    ``kernel_main``: the old ``MAIN`` spelling (E5003, at its line), else a kernel without one (E5001)."""
    old = re.search(r"\bMAIN\b", text)
    if old is None:
        return error("E5001", f"the kernel {display} defines no kernel_main()", hint=f"define {REMOVED['MAIN']}")
    line = text.count("\n", 0, old.start()) + 1
    span = Span(display, line, old.start() - text.rfind("\n", 0, old.start()))
    return error("E5003", "'MAIN' was removed in TT-Metalium 0.81.1", span, hint=f"use {REMOVED['MAIN']}")


_DEPRECATED = re.compile(r"'(?:[^'(]*?\b)?(?P<name>[A-Za-z_]\w*)\s*(?:<[^'(]*>)?\([^']*' is deprecated"
                         r"(?:: (?P<why>.*?))?\s*\[-Wdeprecated-declarations\]")


def deprecation_warnings(log: str, source: Path, display: str) -> list[Diagnostic]:
    """Warnings (E5007) for the deprecated API names a kernel uses, at the kernel's lines."""
    kernel = str(source)
    found: list[Diagnostic] = []
    seen: set[tuple[int, str]] = set()
    for raw in log.splitlines():
        m = _LOCATED.match(raw)
        if m is None or m.group("kind") != "warning" or m.group("file") != kernel:
            continue
        dep = _DEPRECATED.search(m.group("msg"))
        if dep is None:
            continue
        line, name = int(m.group("line")), dep.group("name")
        if (line, name) in seen:
            continue
        seen.add((line, name))
        why = (dep.group("why") or "").strip()
        found.append(Diagnostic("E5007", f"'{name}' is deprecated in TT-Metalium 0.81.1" + (f": {why}" if why else ""),
                                Span(display, line, int(m.group("col"))), (), None, "warning"))
    return found
