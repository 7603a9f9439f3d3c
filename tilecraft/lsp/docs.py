"""Hover text for the language's names, read from the language reference (docs/language.md).

The reference is the maintained description of every construct (the stubs in ``tilecraft/lang``
only say "compiled in threads"), so hover shows the reference's own words: where a name is
introduced, the section (or the table row, list item or paragraph) that introduces it. Rules, in
order, for a name given as forms to look for (``ttl.copy``; ``ttl.math.exp``, ``math.exp`` and, in
the sections about ``ttl.math``, ``exp``):

1. a section whose heading names it (``### 6.1 `ttl.copy` ``): that section;
2. a section with an example line that starts with it (``xf = ttl.copy(src, dst)``; an
   unindented line of a fenced example, after an optional assignment): that section;
3. a section with an unindented example line that mentions it: that section;
4. a table row, list item or paragraph that opens with it in code, then one that has it in code:
   that piece, under its section's title;
5. last, a row of the name-by-name table of the published API (between ``<!-- api-table:start -->``
   and ``<!-- api-table:end -->``): it lists every name, so it only answers for names nothing else
   describes.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

#: where the reference lives in a checkout (the package is installed editable from one)
REFERENCE = Path(__file__).resolve().parents[2] / "docs" / "language.md"
#: at most this many lines of a section are shown in a hover
MAX_LINES = 32

_SPAN = re.compile(r"`([^`]+)`")
_HEADING = re.compile(r"^(#{2,3})\s+(.*)$")


@dataclass
class Section:
    title: str
    anchor: str
    lines: list[str] = field(default_factory=list)
    #: the prose pieces (paragraphs, list items, table rows) and the unindented example lines
    pieces: list[str] = field(default_factory=list)
    examples: list[str] = field(default_factory=list)
    #: rows of the name-by-name API table, consulted after everything else
    index_rows: list[str] = field(default_factory=list)

    def text(self) -> str:
        body = "\n".join(self.lines).strip("\n").splitlines()
        if len(body) > MAX_LINES:
            cut = max((i for i in range(MAX_LINES) if not body[i].strip()), default=MAX_LINES)
            fenced = sum(line.startswith("```") for line in body[:cut]) % 2 == 1
            body = body[:cut] + (["```"] if fenced else []) + ["", "*(continued in the reference)*"]
        return "\n".join(body)


@dataclass(frozen=True)
class Found:
    section: Section
    #: the piece that mentions the name, or None when the whole section is about it
    piece: str | None


def _slug(title: str) -> str:
    """GitHub's heading anchor: lower case, punctuation dropped, spaces to dashes."""
    return re.sub(r"[^\w\- ]", "", title.lower()).replace(" ", "-")


def parse_reference(text: str) -> list[Section]:
    sections: list[Section] = [Section("TT-Lang language reference", "")]
    fenced = False
    piece: list[str] = []
    table: list[str] = []  # the header and separator rows of the table being read
    in_index = False

    def end_piece() -> None:
        if piece:
            sections[-1].pieces.append(" ".join(s.strip() for s in piece))
            piece.clear()

    for line in text.splitlines():
        if not line.startswith("|"):
            table.clear()
        if line.startswith(("<!-- api-table:start", "<!-- api-table:end")):
            in_index = "start" in line
        if line.startswith("```"):
            end_piece()
            fenced = not fenced
        elif fenced:
            if line and not line[0].isspace():
                sections[-1].examples.append(line)
        elif (heading := _HEADING.match(line)) is not None:
            end_piece()
            sections.append(Section(heading.group(2).strip(), _slug(heading.group(2).strip())))
            continue
        elif line.startswith("|"):  # a table row is a piece of its own, shown under the table's header
            end_piece()
            if len(table) < 2:
                table.append(line)
            else:
                rows = sections[-1].index_rows if in_index else sections[-1].pieces
                rows.append("\n".join([*table, line]))
        elif not line.strip() or line.startswith(("- ", "* ")) or re.match(r"\d+\. ", line):
            end_piece()
            if line.strip():
                piece.append(line)
        else:
            piece.append(line)
        sections[-1].lines.append(line)
    end_piece()
    return sections


def _names(text: str, form: str) -> bool:
    """Whether code text starts with ``form`` as a whole name (``ttl.copy`` in ``ttl.copy(a, b)``)."""
    text = text.lstrip("@")
    return text.startswith(form) and not re.match(r"\w", text[len(form):len(form) + 1])


def _mentions(text: str, form: str) -> bool:
    return re.search(rf"(?<![\w.]){re.escape(form)}(?!\w)", text) is not None


class Reference:
    def __init__(self, sections: list[Section]):
        self.sections = sections

    @classmethod
    def load(cls, path: Path = REFERENCE) -> "Reference":
        return cls(parse_reference(path.read_text()) if path.exists() else [])

    def find(self, forms: list[str], bare: str | None = None, bare_in: str | None = None) -> Found | None:
        """Where the reference introduces a name. ``bare`` is the unqualified name, looked for only
        in sections whose title mentions ``bare_in`` (``exp`` where ``ttl.math`` is described)."""
        titled = forms + ([bare] if bare else [])
        for section in self.sections:
            if any(_names(code, f) for code in _SPAN.findall(section.title) for f in titled):
                return Found(section, None)
        for test in (_starts_statement, _mentions):
            for section in self.sections:
                if any(test(line, f) for line in section.examples for f in forms):
                    return Found(section, None)
        scoped = [s for s in self.sections if bare_in and bare_in in s.title]
        for test in (_leads, _cites):
            for sections, candidates in ((self.sections, forms), (scoped, [bare] if bare else [])):
                for section in sections:
                    for piece in section.pieces:
                        if any(test(piece, f) for f in candidates):
                            return Found(section, piece)
        for section in self.sections:
            for row in section.index_rows:
                if any(_leads(row, f) for f in forms):
                    return Found(section, row)
        return None

    def markdown(self, title: str, found: Found, source: Path = REFERENCE) -> str:
        where = f"[language reference: {found.section.title}]({source.as_uri()}#{found.section.anchor})"
        body = found.piece if found.piece is not None else found.section.text()
        return f"**{title}** — {where}\n\n{body}"


def _leads(piece: str, form: str) -> bool:
    """A piece that opens with the name in code (``- `ttl.signpost("label")` marks ...``)."""
    first = re.match(r"^[-*|\s]*`([^`]+)`", piece.splitlines()[-1])
    return first is not None and _names(first.group(1), form)


def _cites(piece: str, form: str) -> bool:
    return any(_names(code, form) for code in _SPAN.findall(piece))


def _starts_statement(line: str, form: str) -> bool:
    """An example line that starts with ``form``, after an optional ``name =`` assignment."""
    code = re.sub(r"^\s*[\w, ]+=\s*(?!=)", "", line, count=1)
    return _names(code, form)
