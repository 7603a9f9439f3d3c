"""Function signatures of a C++ header tree: the kernel API tables of the wheel's headers
(compute_api_table.py, dataflow_api_table.py) that PyKernel and the compile-error hints read.

A small declaration scanner, not a C++ parser: it strips comments, string literals and
preprocessor lines, walks the braces keeping track of namespace and class scope, and reads every
function declared or defined at namespace scope, and every public member function of a class
defined there (``Noc::async_read``): its template parameter list, return type, name and
parameter list. Types are normalised (whitespace, ``std::`` prefixes, ``const`` on by-value
parameters, attributes and inline specifiers dropped) so that two spellings of one signature
compare equal; parameter names are dropped, default values kept.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_COMMENT = re.compile(r"//[^\n]*|/\*.*?\*/", re.S)
_STRING = re.compile(r'"(?:\\.|[^"\\])*"')
_ATTRIBUTE = re.compile(r"\[\[.*?\]\]\s*|__attribute__\s*\(\(.*?\)\)\s*")
_SPECIFIERS = re.compile(r"\b(?:ALWI|FORCE_INLINE|NOC_TRANSFER_INLINE|inline|static|constexpr|extern|explicit|virtual|"
                         r"__always_inline)\b\s*")
_KEYWORDS = {"if", "for", "while", "switch", "return", "sizeof", "decltype", "static_assert", "catch", "alignof",
             "requires", "operator", "defined"}


@dataclass(frozen=True)
class Signature:
    name: str
    template: tuple[str, ...]
    returns: str
    params: tuple[str, ...]
    file: str

    def render(self) -> str:
        head = f"template <{', '.join(self.template)}> " if self.template else ""
        return f"{head}{self.returns} {self.name}({', '.join(self.params)})"


def _split_top(text: str, sep: str = ",") -> list[str]:
    """Split at `sep` outside (), <>, [] and {}."""
    parts, depth, current = [], 0, []
    for ch in text:
        if ch in "(<[{":
            depth += 1
        elif ch in ")>]}":
            depth -= 1
        if ch == sep and depth == 0:
            parts.append("".join(current))
            current = []
        else:
            current.append(ch)
    tail = "".join(current).strip()
    if tail or parts:
        parts.append("".join(current))
    return [p.strip() for p in parts if p.strip()]


def _normal_type(text: str) -> str:
    text = _ATTRIBUTE.sub("", text)
    text = re.sub(r"\b(?:tt_l1_ptr|tt_reg_ptr)\b", "", text)
    text = re.sub(r"\bstd::(u?int\d+_t|size_t)\b", r"\1", text)
    text = re.sub(r"\bunsigned int\b", "uint", text)
    text = re.sub(r"\s*([*&<>(),=])\s*", r"\1", text)
    return " ".join(text.split())


def _param(text: str) -> str:
    """A parameter with its name dropped and its default value kept."""
    default = ""
    parts = _split_top(text, "=")
    if len(parts) > 1:
        text, default = parts[0], "=".join(parts[1:])
    text = _normal_type(text)
    # drop the name: the last identifier when something precedes it (a type)
    match = re.match(r"^(.*?[\w*&>\]])\s+([A-Za-z_]\w*)$", text)
    if match and match.group(1) not in ("const", "volatile", "unsigned"):
        text = match.group(1)
    text = re.sub(r"^const\s+(?=[\w:]+$)", "", text)  # top-level const of a by-value parameter
    default = _normal_type(default)
    return f"{text}={default}" if default else text


def _template_param(text: str) -> str:
    parts = _split_top(text, "=")
    head = _normal_type(parts[0])
    match = re.match(r"^(.*?)\s+([A-Za-z_]\w*)$", head)
    kind = match.group(1) if match else head
    kind = re.sub(r"^(class|typename)$", "typename", kind)
    default = _normal_type("=".join(parts[1:])) if len(parts) > 1 else ""
    return f"{kind}={default}" if default else kind


def _clean(source: str) -> str:
    source = _COMMENT.sub(" ", source)
    source = _STRING.sub('""', source)
    # preprocessor lines (with continuations) go; both branches of a conditional stay
    return re.sub(r"^[ \t]*#(?:[^\n]*\\\n)*[^\n]*", " ", source, flags=re.M)


_NAMESPACE = re.compile(r"\b(?:namespace|extern\s*\"\")\b(?P<name>[^;{}]*)$")
_CLASS = re.compile(r"(?:^|[\s>])(?P<kind>class|struct)\s+(?:\[\[[^\]]*\]\]\s*)?(?P<name>[A-Za-z_]\w*)\s*"
                    r"(?:final\s*)?(?::[^{]*)?$")
_ACCESS = re.compile(r"^\s*(?P<access>public|private|protected)\s*:(?!:)")


@dataclass
class _Class:
    name: str
    public: bool  # the current access of the class body


def scan(source: str, file: str = "") -> list[Signature]:
    """Every function declared or defined at namespace scope in ``source``, and every public member
    function of a class defined at namespace scope (named ``Class::member``); template
    specialisations of classes are left out."""
    text = _clean(source)
    found: list[Signature] = []
    scopes: list[object] = []  # "ns", a _Class, or None (a function body, enum, ...)
    start = 0

    def declare(head: str) -> None:
        if all(s == "ns" for s in scopes):
            _declaration(head, file, found)
        elif isinstance(scopes[-1], _Class) and all(s == "ns" for s in scopes[:-1]):
            cls = scopes[-1]
            while match := _ACCESS.match(head):
                cls.public = match.group("access") == "public"
                head = head[match.end():]
            if cls.public and not re.match(r"\s*friend\b", head):
                _declaration(head, file, found, prefix=f"{cls.name}::")

    for i, ch in enumerate(text):
        if ch == "{":
            head = text[start:i]
            namespace = _NAMESPACE.search(head)
            cls = _CLASS.search(head) if "(" not in head and "enum" not in head.split() else None
            if namespace and "(" not in namespace.group("name"):
                scopes.append("ns")
            elif cls and all(s == "ns" for s in scopes) and not head[cls.end("name"):].lstrip().startswith("<"):
                scopes.append(_Class(cls.group("name"), cls.group("kind") == "struct"))
            else:
                if scopes and isinstance(scopes[-1], _Class):
                    head = _ACCESS.sub("", head)
                declare(head)
                scopes.append(None)
            start = i + 1
        elif ch == "}":
            if scopes:
                scopes.pop()
            start = i + 1
        elif ch == ";":
            declare(text[start:i])
            start = i + 1
        elif ch == ":" and scopes and isinstance(scopes[-1], _Class) and _ACCESS.match(text[start:i + 1]):
            match = _ACCESS.match(text[start:i + 1])
            scopes[-1].public = match.group("access") == "public"
            start = i + 1
    return found


def _declaration(head: str, file: str, out: list[Signature], prefix: str = "") -> None:
    head = " ".join(head.split())
    if "(" not in head or head.startswith(("using ", "typedef ", "return ")):
        return
    template: tuple[str, ...] = ()
    match = re.match(r"^template\s*<", head)
    if match:
        depth, j = 1, match.end()
        while j < len(head) and depth:
            depth += {"<": 1, ">": -1}.get(head[j], 0)
            j += 1
        template = tuple(_template_param(p) for p in _split_top(head[match.end():j - 1]))
        head = head[j:].strip()
    head = _ATTRIBUTE.sub("", head)
    head = _SPECIFIERS.sub("", head).strip()
    # name ( params ) [const] [noexcept] [-> ...] [: init...]
    match = re.match(r"^(.*?)\b([A-Za-z_]\w*)\s*\(", head)
    if not match:
        return
    returns, name = match.group(1).strip(), match.group(2)
    if name in _KEYWORDS or not returns or returns.endswith(("=", ".", "->", "(", ",")) or "=" in returns:
        return
    depth, j = 1, match.end()
    while j < len(head) and depth:
        depth += {"(": 1, ")": -1}.get(head[j], 0)
        j += 1
    params = head[match.end():j - 1]
    rest = head[j:].strip()
    if rest and not re.match(r"^(const\b|noexcept\b|->|requires\b|=\s*delete)", rest):
        return  # a variable with a constructor call, a macro invocation, ...
    plist = tuple(_param(p) for p in _split_top(params)) if params.strip() not in ("", "void") else ()
    out.append(Signature(prefix + name, template, _normal_type(returns), plist, file))
