"""The table of docs/language.md section 14: every public name of the published simulator's ``ttl``
and ``ttnn``, and whether tilecraft supports it, decided by the conformance run.

The names come from ``surface.py`` (run with the reference's interpreter). For each name the
evidence is the conformance cases that use it: the names a case *calls* are recorded by the
reference launcher while the published simulator runs it (stored in the goldens), and the names
that cannot be called (constants, type aliases, enum classes) are found in the program's source.
A name is supported when some case using it agrees with the reference, and not supported when
every case using it disagrees; a name no case uses needs a note below saying what it is and
what was tried, or the table is not written.

    python -m benchmarks.conformance --surface-table    # runs every case, then rewrites the table
"""

from __future__ import annotations

import ast
import fnmatch
import importlib
import json
import subprocess
from dataclasses import dataclass
from pathlib import Path

from .catalogue import Program
from .execute import REPO_ROOT, Run

DOC = REPO_ROOT / "docs" / "language.md"
START, END = "<!-- api-table:start -->", "<!-- api-table:end -->"
UNCALLABLE = {"constant", "type alias", "attribute", "class", "namespace"}
SHOWN_CASES = 3

#: notes on names, by name or glob pattern: for names no case can use (the reason they need no
#: program, or what was tried instead), and remarks on names that cases do use
NOTES: dict[str, str] = {}


@dataclass(frozen=True)
class Row:
    name: str
    kind: str
    in_tilecraft: str
    status: str
    evidence: str
    note: str


def write(programs: list[Program], agreed: dict[str, bool], reference_python: str) -> None:
    """Rewrite the table between the markers of docs/language.md from this run's verdicts."""
    rows = build_rows(load_surface(reference_python), programs, agreed)
    missing = [r.name for r in rows if r.status == "?"]
    if missing:
        raise SystemExit(f"no case uses these names and no note explains them: {', '.join(missing)}")
    text = DOC.read_text()
    head, _, rest = text.partition(START)
    _, _, tail = rest.partition(END)
    if not rest:
        raise SystemExit(f"{DOC} has no {START} marker")
    DOC.write_text(head + START + "\n" + render(rows) + END + tail)


def load_surface(reference_python: str) -> list[dict[str, str]]:
    listed = subprocess.run([reference_python, "-m", "benchmarks.conformance.surface"], capture_output=True,
                            text=True, check=True, cwd=REPO_ROOT, env={"OMP_NUM_THREADS": "1", "PATH": ""})
    return json.loads(listed.stdout)


def build_rows(surface: list[dict[str, str]], programs: list[Program], agreed: dict[str, bool]) -> list[Row]:
    users = cases_using(surface, programs)
    rows = []
    for entry in surface:
        name, kind = entry["name"], entry["kind"]
        cases = users.get(name, [])
        good = [c for c in cases if agreed.get(c)]
        note = next((text for pattern, text in NOTES.items() if fnmatch.fnmatchcase(name, pattern)), "")
        if good:
            status, evidence = "yes", _shown(good)
        elif cases:
            status, evidence = "no", "fails: " + _shown(cases)
        else:
            status, evidence = ("see note" if note else "?"), ""
        rows.append(Row(name, kind, in_tilecraft(name), status, evidence, note))
    return rows


def cases_using(surface: list[dict[str, str]], programs: list[Program]) -> dict[str, list[str]]:
    """Case names by surface name: called (from the goldens) or, if uncallable, spelled in the source."""
    uncallable = {e["name"] for e in surface if e["kind"] in UNCALLABLE}
    users: dict[str, list[str]] = {}
    for program in programs:
        used = set(Run.load_golden(program.golden).coverage) if program.golden.exists() else set()
        used |= spelled(program.path) & uncallable
        for name in used:
            users.setdefault(name, []).append(program.name)
    return users


def spelled(path: Path) -> set[str]:
    """Every dotted prefix of ``ttl.…`` / ``ttnn.…`` attribute chains in a program's source."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        parts = []
        while isinstance(node, ast.Attribute):
            parts.append(node.attr)
            node = node.value
        if isinstance(node, ast.Name) and node.id in ("ttl", "ttnn") and parts:
            chain = [node.id, *reversed(parts)]
            names.update(".".join(chain[:i]) for i in range(2, len(chain) + 1))
    return names


def in_tilecraft(name: str) -> str:
    """Whether tilecraft's ``ttl`` / ``ttnn`` module has the name (members of objects: not looked up)."""
    root, _, rest = name.partition(".")
    if root not in ("ttl", "ttnn") or not rest:
        return "–"
    value: object = importlib.import_module("tilecraft" if root == "ttl" else "tilecraft.ttnn")
    for part in rest.split("."):
        if isinstance(value, type) and part.startswith("__"):  # an operator: defined, not inherited from object
            has = any(part in vars(k) for k in value.__mro__ if k is not object)
        else:
            has = hasattr(value, part)
        if not has:
            return "no"
        value = getattr(value, part)
    return "yes"


def _shown(cases: list[str]) -> str:
    shown = ", ".join(f"`{c}`" for c in sorted(cases)[:SHOWN_CASES])
    return shown + (f" (+{len(cases) - SHOWN_CASES})" if len(cases) > SHOWN_CASES else "")


def _section(name: str) -> str:
    root = name.split(".")[0]
    return f"`{root}`" if root in ("ttl", "ttnn") else "objects a program gets from `ttl`"


def render(rows: list[Row]) -> str:
    counts = {s: sum(r.status == s for r in rows) for s in ("yes", "no", "see note")}
    lines = [f"{len(rows)} names: {counts['yes']} supported (a conformance case using them agrees), "
             f"{counts['no']} not (every case using them disagrees), {counts['see note']} explained by a note.", ""]
    for title in ("`ttl`", "objects a program gets from `ttl`", "`ttnn`"):
        chosen = [r for r in rows if _section(r.name) == title]
        lines += [f"**{title}**", "", "| name | kind | in tilecraft | supported | conformance cases | note |",
                  "|---|---|---|---|---|---|"]
        lines += [f"| `{r.name}` | {r.kind} | {r.in_tilecraft} | {r.status} | {r.evidence} | {r.note} |"
                  for r in chosen]
        lines.append("")
    return "\n".join(lines)
