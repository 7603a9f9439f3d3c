"""The TT-Metalium 0.81.1 kernel API as PyKernel kernels call it: functions, overloads, enums.

A PyKernel call is checked against the same declarations the emulator compiles the kernel with,
read through the emulator's declaration scanner, so the two cannot drift apart: the wheel's real
0.81.1 headers, a data-movement kernel's against the dataflow API (emu/dataflow_api_table.py), a
compute kernel's against the compute API (emu/compute_api_table.py). It adds what a Python front
end needs on top:
the kind of value each parameter takes, which parameters a kernel never spells (the emulator's
source-location parameter, ``call_line``), the enums (``SrcOrder::Reverse``), which calls belong
to which kind of kernel, and the names 0.81.1 removed.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from ..emu import compute_api_table, dataflow_api_table
from ..emu.compile_errors import REMOVED
from ..emu.signatures import Signature
from ..ir.program_ir import COMPUTE, DATAMOVEMENT

#: how messages name the kinds of kernel
KIND_NAMES = {COMPUTE: "compute", DATAMOVEMENT: "data-movement"}
#: where each kind of kernel gets the argument accessors (get_arg_val, ...) in the real tree
BASE_HEADER = {COMPUTE: "api/compute/common.h", DATAMOVEMENT: "api/dataflow/dataflow_api.h"}

_INTEGERS = {"uint8_t", "uint16_t", "uint32_t", "int32_t", "uint64_t", "int", "uint", "uintptr_t", "size_t",
             "int8_t", "int16_t", "int64_t", "unsigned"}
#: kinds of parameter: an integer, a bool (an integer is accepted too), a float, a value of an enum
#: ("enum:Name"), an address generator or tensor accessor object ("object:<class>"), a semaphore
#: pointer, a string literal, or a type (a template's typename)
INT, BOOL, FLOAT, POINTER, STRING, TYPE = "int", "bool", "float", "pointer", "string", "type"


@dataclass(frozen=True)
class Param:
    """One parameter a kernel can pass (hidden ones are left out): its C++ type and kind."""

    ctype: str
    kind: str
    default: str | None = None


@dataclass(frozen=True)
class Overload:
    name: str
    header: str
    template: tuple[Param, ...]
    returns: str
    params: tuple[Param, ...]

    @property
    def required(self) -> int:
        return sum(1 for p in self.params if p.default is None)

    @property
    def template_required(self) -> int:
        return sum(1 for p in self.template if p.default is None and p.kind != "deduced")

    def render(self) -> str:
        """The overload as a kernel author reads it: ``add_tiles(uint32_t, ..., uint32_t idst)``."""
        explicit = [p for p in self.template if p.kind != "deduced"]
        head = f"<{', '.join(_param_text(p) for p in explicit)}>" if explicit else ""
        return f"{self.returns} {self.name}{head}({', '.join(_param_text(p) for p in self.params)})"


def _param_text(p: Param) -> str:
    return p.ctype + (f" = {p.default}" if p.default is not None else "")


# ---------------------------------------------------------------- reading the headers
def _is_hidden(raw: str) -> bool:
    """Parameters the header fills in and a kernel never passes."""
    return "__builtin_LINE()" in raw or raw.startswith("decltype(")


def _kind(ctype: str, enum_names: set[str]) -> str:
    base = re.sub(r"\b(const|volatile)\b", "", ctype).strip()
    if "*" in base:
        return POINTER
    if "&" in base:
        cls = re.match(r"\s*([A-Za-z_]\w*)", base)
        return f"object:{cls.group(1) if cls else base}"
    if base == "bool":
        return BOOL
    if base == "float":
        return FLOAT
    if base in ("std::string_view", "string_view"):
        return STRING
    base = base.split("::")[-1]
    if base in _INTEGERS:
        return INT
    if base in enum_names:
        return f"enum:{base}"
    return f"other:{base}"


def _split_default(raw: str) -> tuple[str, str | None]:
    if "=" not in raw:
        return raw, None
    ctype, default = raw.split("=", 1)
    return ctype, default


def _template_param(raw: str, params: tuple[str, ...], enum_names: set[str]) -> Param:
    """A template parameter; those an object parameter's type deduces (``AddrGen``, the ``DRAM`` of
    ``InterleavedAddrGenFast<DRAM, tile_hw>``) are never written by a kernel."""
    ctype, default = _split_default(raw)
    deduced = any("&" in p for p in params)
    if ctype.startswith("class...") or (deduced and default is None):
        return Param(ctype, "deduced", default)
    if ctype in ("typename", "class"):
        return Param("typename", TYPE, default)  # get_arg_val<T>: the type is the caller's to name
    return Param(ctype.split("::")[-1], _kind(ctype, enum_names), default)


def _overload(sig: Signature, enum_names: set[str]) -> Overload:
    visible = tuple(p for p in sig.params if not _is_hidden(p))
    params = []
    for raw in visible:
        ctype, default = _split_default(raw)
        ctype = re.sub(r"([&*])\s*[A-Za-z_]\w*$", r"\1", ctype)  # the scanner keeps names after & and *
        params.append(Param(ctype, _kind(ctype, enum_names), default))
    template = tuple(_template_param(t, visible, enum_names) for t in sig.template)
    return Overload(sig.name, sig.file, template, sig.returns, tuple(params))


_ENUM = re.compile(r"\benum\s+(?:class\s+)?(?P<name>[A-Za-z_]\w*)\s*(?::\s*[\w:]+\s*)?\{(?P<body>[^}]*)\}")


@functools.cache
def enums() -> dict[str, tuple[str, ...]]:
    """Every enum a kernel may name (``SrcOrder``, ``PoolType``, ``DataFormat``, ...) -> its members."""
    found: dict[str, tuple[str, ...]] = {}
    files = [*compute_api_table.enum_files(), *(path for path, _ in dataflow_api_table.api_files())]
    for path in files:
        text = re.sub(r"//[^\n]*|/\*.*?\*/", " ", path.read_text(), flags=re.S)
        for match in _ENUM.finditer(text):
            members = tuple(m.split("=")[0].strip() for m in match.group("body").split(",") if m.strip())
            found[match.group("name")] = members
    return found


@functools.cache
def _tables() -> dict[str, dict[str, tuple[Overload, ...]]]:
    enum_names = set(enums())
    sources = {COMPUTE: compute_api_table.signatures(), DATAMOVEMENT: dataflow_api_table.signatures()}
    tables: dict[str, dict[str, list[Overload]]] = {COMPUTE: {}, DATAMOVEMENT: {}}
    for kind, signatures in sources.items():
        for sig in signatures:
            if sig.name not in _INTERNAL:
                tables[kind].setdefault(sig.name, []).append(_overload(sig, enum_names))
    return {kind: {name: tuple(found) for name, found in table.items()} for kind, table in tables.items()}


#: helpers of the headers themselves, not API a kernel calls
_INTERNAL = frozenset({"make_array", "get_ct_arg", "get_named_ct_arg"})


def overloads(name: str, kind: str) -> tuple[Overload, ...]:
    """The overloads of ``name`` a kernel of ``kind`` (COMPUTE or DATAMOVEMENT) may call; () if none."""
    return _tables()[kind].get(name, ())


def other_kind(name: str, kind: str) -> str | None:
    """The other kind of kernel, when ``name`` is API there but not in ``kind``."""
    other = DATAMOVEMENT if kind == COMPUTE else COMPUTE
    return other if name in _tables()[other] else None


def removed(name: str) -> str | None:
    """The 0.81.1 replacement of a name 0.81.1 removed (the seed's older names), or None."""
    return REMOVED.get(name)


def names(kind: str) -> tuple[str, ...]:
    """Every API name of ``kind`` (what a misspelt call is matched against)."""
    return tuple(_tables()[kind])
