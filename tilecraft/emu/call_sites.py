"""The kernel's line for every finding on the real dataflow API: a call-site parameter for the API's functions.

Why: on the real path (tensix_dataflow.py) a NoC transfer reaches the emulator as a register write
deep inside Tenstorrent's headers (``noc_nonblocking_api.h``), which knows the core, the RISC and
the transfer but not the kernel line that asked for it. A defaulted ``std::source_location``
parameter, evaluated at the call site, knows it, so this rewrite gives the real headers' API
functions one: each function *defined* in the rewritten
headers gets a trailing parameter ``::tc_tensix::Site tc_site = ::tc_tensix::Site::current()`` and
opens its body with ``::tc_tensix::SiteScope tc_site_scope(tc_site, "NAME");``, NAME as a kernel
writes the call (``cb_wait_front``, ``DataflowBuffer::wait_front``). The scope records the site and
the name of the outermost API call only (the kernel's, or a kernel helper header's), so the calls
the API makes of itself do not overwrite them; the emulator reports every finding of that call
there, and a deadlock report names the call a polling loop is in (``tc_tensix_kernel.h``). Nothing else of a function changes.

What is left alone, by construction: functions declared elsewhere without a body (a prototype
would make every call ambiguous), constructors and destructors (no declared type), operators,
``constexpr``/``consteval`` functions (a scope object is not allowed there in C++20), functions with
a parameter pack (a parameter after a pack is never defaulted in deduction), and anything whose
head is not a plain declaration (a call, a control statement, a lambda, a member initializer).
Comments, string literals and preprocessor lines are not looked into.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterator, Mapping

from .dataflow_checks import ApiCheck

#: the parameter and the statement the rewrite adds (tc_tensix_kernel.h defines both names)
SITE_PARAMETER = "::tc_tensix::Site tc_site = ::tc_tensix::Site::current()"
SITE_SCOPE = ' ::tc_tensix::SiteScope tc_site_scope(tc_site, "{name}");'

_NAME_PAREN = re.compile(r"\b([A-Za-z_]\w*)\s*\(")
#: what follows a function's parameter list: its body, or the end of a declaration
_FOLLOWS = re.compile(r"\s*(?:(?:const|noexcept|override|final)\b\s*)*[{;]")
_NOT_FUNCTIONS = frozenset({"if", "for", "while", "switch", "catch", "return", "sizeof", "alignof", "decltype",
                            "static_assert", "defined", "__attribute__", "noexcept", "requires", "operator",
                            "alignas", "constexpr"})
_SPECIFIERS = re.compile(r"\b(?:inline|static|explicit|virtual|friend|extern|FORCE_INLINE|ALWI)\b"
                         r"|__attribute__\s*\(\(.*?\)\)|\[\[.*?\]\]|\b(?:public|private|protected)\s*:", re.S)
_CLASS_HEAD = re.compile(r"\b(?:class|struct)\s+(\w+)\b[^;{}()]*\{")
_REFUSED_HEADS = re.compile(r"\b(?:constexpr|consteval|operator|typedef|using|return|else|new|delete)\b|[=,;]\s*$")


def code_mask(text: str) -> str:
    """``text`` with comments, string and character literals and preprocessor lines blanked (same
    length, newlines kept), so that only code is matched."""
    out = list(text)
    i, n = 0, len(text)
    at_line_start = True

    def blank(start: int, end: int) -> None:
        for k in range(start, end):
            if out[k] != "\n":
                out[k] = " "

    while i < n:
        c = text[i]
        if at_line_start and c == "#":
            end = i
            while end < n and (text[end] != "\n" or text[end - 1] == "\\"):
                end += 1
            blank(i, end)
            i = end
            continue
        if c == "\n":
            at_line_start = True
            i += 1
            continue
        if not c.isspace():
            at_line_start = False
        if text.startswith("//", i):
            end = text.find("\n", i)
            end = n if end < 0 else end
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            end = n if end < 0 else end + 2
        elif c in "\"'" and not (c == "'" and i > 0 and text[i - 1].isalnum()):  # 1'000 is a digit separator
            end = i + 1
            while end < n and text[end] != c:
                end += 2 if text[end] == "\\" else 1
            end = min(end + 1, n)
        else:
            i += 1
            continue
        blank(i, end)
        i = end
    return "".join(out)


def _matching_paren(masked: str, start: int) -> int:
    """The index after the parenthesis group opening at ``start``, or -1."""
    depth = 0
    for i in range(start, len(masked)):
        if masked[i] == "(":
            depth += 1
        elif masked[i] == ")":
            depth -= 1
            if depth == 0:
                return i + 1
    return -1


def _strip_templates(head: str) -> str:
    """``head`` without its ``template <...>`` introducers (angle brackets balanced)."""
    while (match := re.search(r"\btemplate\s*<", head)) is not None:
        depth, end = 0, match.end() - 1
        for end in range(match.end() - 1, len(head)):
            depth += {"<": 1, ">": -1}.get(head[end], 0)
            if depth == 0:
                break
        head = head[:match.start()] + head[end + 1:]
    return head


def _declares_a_function(head: str) -> bool:
    """Whether ``head`` (the text from the previous statement to the name) declares a function
    with a declared type (not a constructor, a call or a control statement)."""
    if _REFUSED_HEADS.search(head):
        return False
    rest = _SPECIFIERS.sub(" ", _strip_templates(head)).strip()
    return re.search(r"\w", rest) is not None and rest[-1] not in "~:.,(=!?+-/%^|<[" and not rest.endswith("->")


def _declarations(masked: str) -> Iterator[tuple[re.Match[str], int, re.Match[str]]]:
    """Each function declaration of ``masked`` (code_mask's): its name match, the index after its
    parameter list, and the match of what follows it (``{`` a definition, ``;`` a declaration only)."""
    for match in _NAME_PAREN.finditer(masked):
        if match.group(1) in _NOT_FUNCTIONS:
            continue
        close = _matching_paren(masked, match.end() - 1)
        if close < 0:
            continue
        follows = _FOLLOWS.match(masked, close)
        if follows is None:
            continue
        boundary = max(masked.rfind(c, 0, match.start()) for c in ";{}")
        if _declares_a_function(masked[boundary + 1:match.start()]):
            yield match, close, follows


def defined_names(text: str) -> set[str]:
    """The names of the functions ``text`` defines."""
    return {m.group(1) for m, _, follows in _declarations(code_mask(text)) if follows.group(0).endswith("{")}


_WORD = re.compile(r"\w+")
#: a declaration of a function without a body, on the lines of a header: what precedes the name
#: on its first line, the name, a parameter list without nested parentheses, and ``;``
_PROTOTYPE = re.compile(r"^([^\n#;{}]*?)\b([A-Za-z_]\w*)\s*\([^;{}()]*\)\s*(?:const\s*|noexcept\s*)*;", re.M)


def declared_names(text: str, names: set[str]) -> set[str]:
    """The ``names`` that ``text`` declares without a body (a prototype): the rewrite leaves those
    functions alone, as a prototype without the parameter would make every call ambiguous."""
    found: set[str] = set()
    if names.isdisjoint(_WORD.findall(text)):
        return found
    for match in _PROTOTYPE.finditer(text):
        head, name = match.groups()
        if name in names and "/" not in head and not head.lstrip().startswith("*") and _declares_a_function(head):
            found.add(name)
    return found


def site_scope(name: str) -> str:
    """The scope statement a function named ``name`` (qualified by its class) opens with."""
    return SITE_SCOPE.format(name=name)


def _class_bodies(masked: str) -> list[tuple[int, int, str]]:
    """Each class or struct body of ``masked``: where its ``{`` and its ``}`` are, and its name."""
    bodies = []
    for match in _CLASS_HEAD.finditer(masked):
        depth, close = 0, len(masked)
        for close in range(match.end() - 1, len(masked)):
            depth += {"{": 1, "}": -1}.get(masked[close], 0)
            if depth == 0:
                break
        bodies.append((match.end() - 1, close, match.group(1)))
    return bodies


def _qualified(name: re.Match[str], bodies: list[tuple[int, int, str]]) -> str:
    """The function's name as a kernel calls it: with the innermost class whose body defines it
    (an out-of-class definition is a declaration this rewrite leaves alone)."""
    inside = [body for body in bodies if body[0] < name.start() < body[1]]
    return f"{max(inside)[2]}::{name.group(1)}" if inside else name.group(1)


def _parameter_names(parameters: str) -> list[str]:
    """The names of a (code_mask'ed) parameter list's parameters, in order (defaults dropped)."""
    names, depth, start = [], 0, 0
    for i, c in enumerate(parameters + ","):
        depth += {"(": 1, "<": 1, "[": 1, "{": 1, ")": -1, ">": -1, "]": -1, "}": -1}.get(c, 0)
        if c == "," and depth == 0:
            words = _WORD.findall(parameters[start:i].split("=")[0])
            if words:
                names.append(words[-1])
            start = i + 1
    return names


def _returns(masked: str, body_open: int) -> list[re.Match[str]]:
    """The ``return EXPR;`` statements of the body whose ``{`` is at ``body_open``."""
    depth = 0
    for end in range(body_open, len(masked)):
        depth += {"{": 1, "}": -1}.get(masked[end], 0)
        if depth == 0:
            break
    return list(re.compile(r"\breturn\b\s*([^;]*);").finditer(masked, body_open, end))


def add_call_sites(text: str, skip: Collection[str] = (),
                   checks: Mapping[str, ApiCheck] | None = None) -> tuple[str, int]:
    """``text`` with a call-site parameter and scope in each function it defines (module doc),
    except those named in ``skip``, and their count; a function named in ``checks`` also reports
    its call to the emulator's checks (dataflow_checks.py)."""
    masked = code_mask(text)
    edits: list[tuple[int, int, str]] = []  # (start, end, replacement) in text
    bodies = _class_bodies(masked)
    count = 0
    for match, close, follows in _declarations(masked):
        if not follows.group(0).endswith("{") or match.group(1) in skip:
            continue
        open_paren = match.end() - 1
        parameters = masked[open_paren + 1:close - 1]
        if "..." in parameters:
            continue
        if parameters.strip() in ("", "void"):
            edits.append((open_paren + 1, close - 1, SITE_PARAMETER))
        else:
            edits.append((close - 1, close - 1, f", {SITE_PARAMETER}"))
        check = (checks or {}).get(match.group(1))
        names = _parameter_names(parameters)
        edits.append((follows.end(), follows.end(),
                      site_scope(_qualified(match, bodies)) + (check.entry(names) if check else "")))
        if check is not None and check.on_result:
            edits.extend((r.start(1), r.end(1), check.result(names, text[r.start(1):r.end(1)]))
                         for r in _returns(masked, follows.end() - 1))
        count += 1
    return _edited(text, edits), count


def _edited(text: str, edits: list[tuple[int, int, str]]) -> str:
    """``text`` with each ``(start, end, replacement)`` applied (the spans do not overlap)."""
    out, pos = [], 0
    for start, end, replacement in sorted(edits):
        out += [text[pos:start], replacement]
        pos = end
    return "".join(out) + text[pos:]


def add_checks(text: str, checks: Mapping[str, ApiCheck]) -> tuple[str, int]:
    """``text`` with the emulator's check (dataflow_checks.py) opening each function named in
    ``checks`` it defines, and their count; the functions keep their signatures (no call site)."""
    masked = code_mask(text)
    edits = [(follows.end(), follows.end(), checks[match.group(1)].entry(_parameter_names(masked[match.end():close - 1])))
             for match, close, follows in _declarations(masked)
             if follows.group(0).endswith("{") and match.group(1) in checks]
    return _edited(text, edits), len(edits)
