"""A Metal 2.0 ``TT_KERNEL`` entry's ``kernel_main()``, generated as tt-metal's JIT generates it.

0.81.1's ``experimental/kernel_args.h`` defines ``TT_KERNEL`` as ``static FORCE_INLINE`` and says the
JIT generates ``kernel_main()`` from the entry's signature: a shim in the kernel's translation unit
that calls the entry with each parameter read as the named kernel arg of that name (``get_arg(args::
<name>)``), a template parameter as a compile-time arg of its name. Whether the host dispatches a name as a runtime, common runtime or compile-time arg is
its schema's choice, which the kernel source does not depend on (kernel_args.h: "moving an arg
between kinds only requires a host-side schema change"); the census's bindings declare each one a
runtime arg. Only ``uint32_t`` parameters exist (kernel_args.h: "only uint32_t args are
supported"); an entry with another parameter type is not generated.
"""

from __future__ import annotations

import re
from pathlib import Path

from tilecraft.emu import cache

_ENTRY = re.compile(r"(?:\btemplate\s*<([^>]*)>\s*)?\bTT_KERNEL\s+void\s+(\w+)\s*\(([^)]*)\)")
_PARAMETER = re.compile(r"^\s*(?:const\s+)?(?:std::)?uint32_t\s+(\w+)\s*$")


Entry = tuple[str, tuple[str, ...], tuple[str, ...]]


def entry(text: str) -> Entry | None:
    """The TT_KERNEL entry of a kernel ``text``: its name, template parameter names (compile-time
    args: a template argument must be a constant) and parameter names (None: no entry, or one with
    a parameter that is not a ``uint32_t``)."""
    found = _ENTRY.search(re.sub(r"//[^\n]*", "", text))
    if found is None:
        return None
    lists = [_names(found.group(1) or ""), _names(found.group(3))]
    if None in lists:
        return None
    return found.group(2), *lists  # type: ignore[return-value]


def _names(parameters: str) -> tuple[str, ...] | None:
    """The names of a ``uint32_t`` parameter list (None: a parameter of another type)."""
    matches = [_PARAMETER.match(p) for p in parameters.split(",") if p.strip() and p.strip() != "void"]
    return None if not all(matches) else tuple(m.group(1) for m in matches)  # type: ignore[union-attr]


def shim(name: str, template: tuple[str, ...], parameters: tuple[str, ...]) -> str:
    """The generated ``kernel_main()`` calling the entry ``name`` with its named args."""
    def args(names: tuple[str, ...]) -> str:
        return ", ".join(f"get_arg(args::{p})" for p in names)

    instance = f"{name}<{args(template)}>" if template else name
    return f"void kernel_main() {{ {instance}({args(parameters)}); }}\n"


def with_kernel_main(source: Path, text: str) -> tuple[Path, str] | None:
    """A translation unit of the kernel at ``source`` (``text``) followed by its generated
    ``kernel_main()`` (in the emulator's cache, by content), and that unit's text (the kernel's and
    the shim's: what the bindings are generated from); None for a kernel without a generated entry."""
    found = entry(text)
    if found is None:
        return None
    unit = f'#include "{source}"\n' + shim(*found)
    directory = cache.emu_cache() / "tt-kernel-entry" / cache.digest(str(source), text, unit)
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / source.name
    if not path.is_file():
        path.write_text(unit)
    return path, text + "\n" + unit
