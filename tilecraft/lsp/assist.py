"""Completion and hover: what the editor asks about the text at the cursor.

Pure functions of the text and a position (0-based line, column in characters), so they are
tested without an editor. The file is parsed to learn what the language module is called in it
and what kind of object each variable holds (``vocabulary.py``); while the user types, the line
being edited often does not parse (``a_dfb.``), so it is replaced by ``pass`` for that purpose,
and failing that the last text that parsed is used.
"""

from __future__ import annotations

import ast
import inspect
import re
from dataclasses import dataclass

import tilecraft
from .docs import Reference
from .vocabulary import METHODS, Name, infer_kinds, module_aliases, module_names, submodule_names

#: ``receiver.prefix`` just before the cursor
_RECEIVER = re.compile(r"(?P<chain>[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)\.(?P<prefix>\w*)$")


@dataclass(frozen=True)
class FileFacts:
    aliases: frozenset[str]
    kinds: dict[str, str]


def parse_for_editing(text: str, line: int) -> ast.Module | None:
    """The module, or the module with the cursor's line replaced by ``pass``; None if neither parses."""
    try:
        return ast.parse(text)
    except SyntaxError:
        pass
    lines = text.splitlines()
    if not 0 <= line < len(lines):
        return None
    indent = re.match(r"\s*", lines[line]).group(0)  # type: ignore[union-attr]
    for stand_in in (indent + "pass", "pass"):
        lines[line] = stand_in
        try:
            return ast.parse("\n".join(lines))
        except SyntaxError:
            continue
    return None


def file_facts(tree: ast.Module) -> FileFacts:
    aliases = module_aliases(tree)
    return FileFacts(frozenset(aliases), infer_kinds(tree, aliases))


@dataclass(frozen=True)
class Hover:
    markdown: str
    #: the hovered name's columns on its line
    start: int
    end: int


class Assistant:
    def __init__(self, reference: Reference):
        self.reference = reference
        self.names = {"": module_names(), "math": submodule_names("math"), "block": submodule_names("block")}
        self._docs: dict[Name, str | None] = {}

    def members(self, chain: str, facts: FileFacts) -> list[Name] | None:
        """What may follow ``chain.``: the language's names or an object's methods."""
        parts = chain.split(".")
        if parts[0] in facts.aliases:
            sub = ".".join(parts[1:])
            return self.names.get(sub)
        if len(parts) == 1 and parts[0] in facts.kinds:
            return list(METHODS.get(facts.kinds[parts[0]], ()))
        return None

    def complete(self, line_text: str, col: int, facts: FileFacts) -> list[Name] | None:
        """Completions at ``col`` of ``line_text``; None when the cursor is not after ``x.``."""
        match = _RECEIVER.search(line_text[:col])
        if match is None:
            return None
        found = self.members(match.group("chain"), facts)
        if found is None:
            return None
        return [n for n in found if n.name.startswith(match.group("prefix"))]

    def hover(self, line_text: str, col: int, facts: FileFacts) -> Hover | None:
        """Documentation of the dotted name under the cursor (up to the end of the hovered word)."""
        start = col
        while start > 0 and (line_text[start - 1].isalnum() or line_text[start - 1] in "_."):
            start -= 1
        end = col
        while end < len(line_text) and (line_text[end].isalnum() or line_text[end] == "_"):
            end += 1
        chain = line_text[start:end].strip(".")
        if "." not in chain:
            return None
        receiver, _, name = chain.rpartition(".")
        found = next((n for n in self.members(receiver, facts) or () if n.name == name), None)
        text = self.documentation(found) if found is not None else None
        if text is None:
            return None
        word_start = start + line_text[start:end].rfind(".") + 1
        return Hover(text, word_start, end)

    def documentation(self, name: Name) -> str | None:
        """Markdown for a name: its place in the language reference, or its docstring."""
        if name not in self._docs:
            found = self.reference.find(list(name.forms), name.bare, name.scope)
            if found is not None:
                self._docs[name] = self.reference.markdown(name.detail, found)
            else:
                value = getattr(tilecraft, name.name, None) if name.forms[0] == f"ttl.{name.name}" else None
                doc = inspect.getdoc(value) if value is not None else None
                self._docs[name] = f"**{name.detail}**\n\n{doc}" if doc else None
        return self._docs[name]
