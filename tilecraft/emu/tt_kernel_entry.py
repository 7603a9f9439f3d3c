"""The ``kernel_main()`` a Metal 2.0 kernel's ``TT_KERNEL`` entry gets from the JIT.

A kernel may declare its entry as a function marked ``TT_KERNEL`` (``experimental/kernel_args.h``)
whose template parameters and function parameters are its named arguments::

    template <uint32_t Kt, uint32_t Vt>
    TT_KERNEL void dataflow(uint32_t worker_index, uint32_t group) { ... }

0.81.1's JIT (``generate_tt_kernel_shim_if_present`` in the wheel's libtt_metal.so) then writes
``kernel_main()`` itself: the entry called with each parameter read by ``get_arg(args::NAME)``
(a template parameter must be a compile-time arg, ``CtaVal``). The shim here is written after the
kernel the same way, so such a kernel builds like any other.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_COMMENT = re.compile(r"//[^\n]*|/\*.*?\*/", re.S)
_ENTRY = re.compile(r"\bTT_KERNEL\s+void\s+(\w+)\s*\(")


@dataclass(frozen=True)
class Entry:
    name: str
    template_params: tuple[str, ...]  # named compile-time args, in order
    params: tuple[str, ...]  # named args (runtime or compile-time), in order


def _names(parameters: str) -> tuple[str, ...]:
    """The declared names of a comma-separated parameter list (each one's last identifier)."""
    depth, parts, current = 0, [], ""
    for char in parameters:
        depth += 1 if char in "<(" else -1 if char in ">)" else 0
        if char == "," and depth == 0:
            parts.append(current)
            current = ""
        else:
            current += char
    parts.append(current)
    return tuple(re.findall(r"(\w+)\s*$", part.split("=")[0])[0] for part in parts if part.strip())


def _template_clause(before: str) -> str:
    """The parameters of the ``template <...>`` clause that ends ``before`` (empty if none)."""
    end = len(before.rstrip())
    if not before[:end].endswith(">"):
        return ""
    depth = 0
    for i in range(end - 1, -1, -1):
        depth += {">": 1, "<": -1}.get(before[i], 0)
        if depth == 0:
            head = before[:i].rstrip()
            return before[i + 1:end - 1] if head.endswith("template") else ""
    return ""


def entry(text: str) -> Entry | None:
    """The kernel's ``TT_KERNEL`` entry, or None when it has a plain ``kernel_main``."""
    code = _COMMENT.sub(" ", text)
    found = _ENTRY.search(code)
    if found is None:
        return None
    close = code.index(")", found.end())
    while code[found.end():close].count("(") > code[found.end():close].count(")"):
        close = code.index(")", close + 1)
    return Entry(found.group(1), _names(_template_clause(code[:found.start()])), _names(code[found.end():close]))


def kernel_main_for(text: str) -> str:
    """The ``kernel_main()`` the JIT writes after the kernel ``text`` (empty when it has its own):
    what every build of a kernel appends to its translation unit."""
    found = entry(text)
    return shim(found) if found is not None else ""


def shim(found: Entry) -> str:
    """The ``kernel_main()`` that calls ``found`` with its named args."""
    template = f"<{', '.join(f'get_arg(args::{n})' for n in found.template_params)}>" if found.template_params else ""
    call = f"{found.name}{template}({', '.join(f'get_arg(args::{n})' for n in found.params)});"
    return f"// kernel_main() shim for the TT_KERNEL entry (the JIT's)\nvoid kernel_main() {{\n    {call}\n}}\n"
