"""The table of docs/language.md section 14: every public name of the published simulator's ``ttl``
and ``ttnn``, and whether tilecraft supports it, decided by the conformance run.

The names come from ``surface.py`` (run with the reference's interpreter). For each name the
evidence is the conformance cases that use it: the names a case *calls* are recorded by the
reference launcher while the published simulator runs it (stored in the goldens), and the names
the launcher cannot see used (constants, type aliases, enum classes) are found in the program's
source, for all its variants alike. A name is supported when some case using it agrees with the
reference, and not supported when every case using it disagrees, or when it is one of those
spelled names and tilecraft lacks it; a name no case uses needs a note below saying what it is
and what was tried, or the table is not written.

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
SHOWN_CASES = 3

_INTERNAL = "internal to the published simulator (its scheduler, block state machine or implementation), " \
            "not part of the language: no program uses it"
_ALIAS = "a type alias for annotations: tilecraft defines it for them (it changes no behaviour, so no case " \
         "compares it; tests/end_to_end/test_published.py evaluates annotations that use it)"
_LEAK = "a helper the published simulator's math module imports; it leaks into `ttl.math` because that " \
        "namespace copies every callable of the module: not API"

#: notes on names: by exact name, a remark shown on the row; by glob pattern (the first match), the
#: explanation of names no case uses (what the name is, and what was tried instead)
NOTES: dict[str, str] = {
    "ttl.SrcPipeIdentity": "the object `PipeNet.if_src` hands its function (see `SrcPipeIdentity.dst`); "
                           "programs do not make one, tilecraft has the name for annotations",
    "ttl.DstPipeIdentity": "the object `PipeNet.if_dst` hands its function (see `DstPipeIdentity.src`); "
                           "programs do not make one, tilecraft has the name for annotations",
    "ttl.DstT": _ALIAS, "ttl.NodeCoord": _ALIAS, "ttl.NodeRange": _ALIAS, "ttl.Shape": _ALIAS, "ttl.Size": _ALIAS,
    "ttl.math.Callable": _LEAK, "ttl.math.List": _LEAK, "ttl.math.Optional": _LEAK, "ttl.math.PositiveInt": _LEAK,
    "ttl.math.Set": _LEAK, "ttl.math.Tuple": _LEAK, "ttl.math.Block": _LEAK, "ttl.math.Tensor": _LEAK,
    "ttl.math.check_same_layout": _LEAK, "ttl.math.get_context": _LEAK, "ttl.math.track_source_blocks": _LEAK,
    "ttl.Program": "1.1.6's internal launcher, `Program(compute, dm0, dm1, grid=...)`, which `ttl.operation` "
                   "calls; tilecraft's `ttl.Program` is the seed specification's `Program(*threads)(tensors)` "
                   "(section 1.1), which also takes 1.1.6's `grid=` (the kernel's own) and, in an operation, "
                   "no tensors: `return ttl.Program(compute, dm0, dm1, grid=grid)()` runs as in 1.1.6, "
                   "where an operation's body sees the name `grid` as its grid (conformance program "
                   "`operation_in_function`)",
    "ttnn.Tensor.__getitem__": "supported as a tensor slice in `ttl.copy`; 1.1.6 also slices host tensors in "
                               "tile units, which tilecraft does not (E0501 at the slice, as ttnn has no such "
                               "indexing)",
    "ttnn.Tensor.__setitem__": "1.1.6 assigns into host tensors in tile units; ttnn has no item assignment and "
                               "tilecraft neither (not tried by a case)",
    "ttnn.Tensor.element_size": "1.1.6's own property (ttnn has `element_size()` as a method); not in tilecraft",
    "ttnn.Tensor.size_in_bytes": "1.1.6's own accounting helper; not in tilecraft",
    "ttnn.Tensor.underlying_dtype": "the float32 storage 1.1.6 keeps narrow formats in; tilecraft stores the "
                                    "declared format, so there is nothing to report",
    "ttnn.Tensor.element_slice_starts": _INTERNAL,
    "ttnn.Device": "the type of `ttnn.open_device()`'s result, which every case uses; tilecraft has it",
    "ttnn.MeshDevice": "the type of `ttnn.open_mesh_device()`'s result (cases `mesh_*`); tilecraft has it",
    "ttnn.TensorToMesh": "the base class of the mesh mappers (cases `mesh_*`); tilecraft has it",
    "ttnn.ShardTensor2dMesh": "supported (tests/ttnn/test_ttnn_mesh.py); no case compares it, because 1.1.6 "
                              "keeps a mesh tensor whole, ignores composers and has no ConcatMesh2dToTensor, so "
                              "a 2-D mesh tensor cannot be read back the same way in both",
    "ttnn.IndexType": "1.1.6's name for the layout enum (`TILE_LAYOUT` is `IndexType.TILE`); tilecraft's is "
                      "`ttnn.Layout`",
    "ttnn.MeshShardInfo": _INTERNAL, "ttnn.TRACE": "1.1.6's trace recorder (`tt-lang-sim --trace`); tilecraft "
                                                   "traces with `tilecraft profile --trace`",
    "ttnn.NdShardSpec": "N-d sharding specs are not modelled by tilecraft (not tried by a case)",
    "ttnn.TensorSpec": "tensor specs (`TensorSpec(...).height_sharded(...)`) are not modelled by tilecraft "
                       "(not tried by a case)",
    "ttnn.ShardingStrategy": "1.1.6's internal sharding enum (ttnn's is `TensorMemoryLayout`)",
    "ttnn.ShardDistributionStrategy": "N-d sharding is not modelled by tilecraft",
    "ttnn.broadcast_tensors": _INTERNAL, "ttnn.check_count_match": _INTERNAL,
    "ttnn.normalize_selector_to_slice": _INTERNAL, "ttnn.tile_*": _INTERNAL,
    "ttnn.TTNN_AVAILABLE": "1.1.6's flag saying whether the real ttnn is installed next to it (it then wraps "
                           "ttnn's golden functions); tilecraft's ttnn is its own",
    "ttnn.set_disable_float32_promotion": "switches 1.1.6's float32 storage of narrow formats off; tilecraft "
                                          "always stores the declared format, so there is nothing to switch",
    "ttnn.set_num_devices": "1.1.6's setting of the simulated device count (`tt-lang-sim --num-devices`); "
                            "issue 7 adds `--devices` to tilecraft",
    "ttnn.split_work_to_cores": "`all_cores` holds the cores that get work, as in ttnn; 1.1.6 returns the whole "
                                "grid when there are fewer units than cores (case `ttnn_core_ranges.split_range_set`, "
                                "warned W0503 here)",
    "DataflowBuffer.*": _INTERNAL,
    "Block.__getitem__": "a tile of the block as a tensor in 1.1.6 (its tile-list view); kernels have no "
                         "per-tile indexing of blocks and tilecraft neither (E0101)",
    "Block.__setitem__": "see `Block.__getitem__`",
    "Pipe.src": "read by case `object_members.pipe_attributes` (an attribute: the launcher cannot see it read); "
                "tilecraft's `Pipe` has `.src`",
    "Pipe.dst": "read by case `object_members.pipe_attributes` (an attribute: the launcher cannot see it read); "
                "tilecraft's `Pipe` has `.dst`, as written",
    "Pipe.__eq__": "pipes compare by value in 1.1.6 (a dataclass); not used by programs",
    "CopyTransaction.can_wait": _INTERNAL, "CopyTransaction.is_completed": _INTERNAL,
}
_BLOCK_INTERNAL = ("access_state", "acquisition", "copy_as_dest", "dfb", "dfb_slot_idx", "dfb_state", "expected_ops",
                   "from_list", "from_tensor", "get_item", "is_temporary", "kernel_type", "layout", "mark_*", "name",
                   "raw_tensor", "to_list", "to_tensor")
NOTES.update({f"Block.{member}": _INTERNAL for member in _BLOCK_INTERNAL})


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


def load_surface(reference_python: str) -> list[dict[str, object]]:
    listed = subprocess.run([reference_python, "-m", "benchmarks.conformance.surface"], capture_output=True,
                            text=True, check=True, cwd=REPO_ROOT, env={"OMP_NUM_THREADS": "1", "PATH": ""})
    return json.loads(listed.stdout)


def build_rows(surface: list[dict[str, object]], programs: list[Program], agreed: dict[str, bool]) -> list[Row]:
    called, spelled_in = cases_using(surface, programs)
    rows = []
    for entry in surface:
        name, kind = str(entry["name"]), str(entry["kind"])
        present = in_tilecraft(name)
        calls, spellings = called.get(name, []), spelled_in.get(name, [])
        # a spelled name counts for every variant of its program: not where tilecraft lacks it
        trusted = calls + (spellings if present != "no" else [])
        good = sorted({c for c in trusted if agreed.get(c)})
        note = NOTES.get(name) or ("" if calls or spellings else next(
            (text for pattern, text in NOTES.items() if fnmatch.fnmatchcase(name, pattern)), ""))
        if good:
            status, evidence = "yes", _shown(good)
        elif calls:
            status, evidence = "no", "fails: " + _shown(calls)
        elif spellings:
            status, evidence = "no", "missing in tilecraft" if present == "no" else "fails: " + _shown(spellings)
        else:
            status, evidence = ("see note" if note else "?"), ""
        rows.append(Row(name, kind, present, status, evidence, note))
    return rows


def cases_using(surface: list[dict[str, object]],
                programs: list[Program]) -> tuple[dict[str, list[str]], dict[str, list[str]]]:
    """Case names by surface name: the cases that call it (from the goldens), and the cases whose
    source spells it, for the names that are not plain callables (constants, aliases, classes)."""
    spellable = {str(e["name"]) for e in surface if e["kind"] not in ("function", "method", "operator", "property")}
    called: dict[str, list[str]] = {}
    spelled_in: dict[str, list[str]] = {}
    for program in programs:
        for name in (Run.load_golden(program.golden).coverage if program.golden.exists() else []):
            called.setdefault(name, []).append(program.name)
        for name in spelled(program.path) & spellable:
            spelled_in.setdefault(name, []).append(program.name)
    return called, spelled_in


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
