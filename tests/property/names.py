"""Scalar programs whose variables have awkward names, checked against Python itself.

A thread computes integers from its node index with loops, branches and a helper, and prints
them; in a compute thread it also stores each into a tile (``ttl.block.fill``) that a writer
copies out, which is what the metal level can check (``print`` is simulator-only there). The
same statements, run as plain Python for every node, say what must be printed and stored. The
names come from a pool given by the strategy: names of the front end's temporaries once
mangled (``t_1``, ``c_1``), C++ keywords and Metalium names (``int``, ``new``, ``kernel_main``),
Python builtins (``len``, ``sum``): a name must mean the user's variable at every level
(issue 8 item 1).
"""

from __future__ import annotations

import io
from contextlib import redirect_stdout
from dataclasses import dataclass

import torch

from .programs import Features, Program, prelude
from .source import Source


@dataclass(frozen=True)
class Statement:
    """One line of the thread body (``depth`` relative to the body)."""

    depth: int
    text: str


@dataclass(frozen=True)
class NamesSpec:
    grid: tuple[int, int]
    thread: str  # "datamovement" | "compute"
    node_name: str
    body: tuple[Statement, ...]
    variables: tuple[str, ...]  # printed, and stored by a compute thread
    helper: str  # a module-level helper function's source, or ""
    published: bool

    def twin(self) -> str:
        """The thread as a plain Python function of the node index."""
        lines = [f"def thread({self.node_name}):"]
        lines += ["    " * (1 + s.depth) + s.text for s in self.body]
        lines.append(f"    return ({', '.join(self.variables)},)")
        return "\n".join(lines) + "\n"


    @property
    def nodes(self) -> int:
        return self.grid[0] * self.grid[1]


def python_results(spec: NamesSpec) -> tuple[tuple[str, ...], list[tuple[int, ...]]]:
    """What Python prints, and the values it computes, for every node."""
    namespace: dict = {}
    exec(spec.helper + spec.twin(), namespace)  # noqa: S102 - our own generated text
    out = io.StringIO()
    values = []
    with redirect_stdout(out):
        for node in range(spec.nodes):
            values.append(namespace["thread"](node))
    return tuple(out.getvalue().splitlines()), values


def build(spec: NamesSpec) -> Program:
    src = Source()
    prelude(src)
    if spec.helper:
        src.extend(spec.helper)
        src.add()
        src.add()
    decorator = "@ttl.operation" if spec.published else "@ttl.kernel"
    src.add(f"{decorator}(grid={spec.grid!r})", kernel_decorator="")
    node = "ttl.node(dims=1)" if spec.published else "ttl.core(dims=1)"
    compute = spec.thread == "compute"
    with src.block("def kern(y):", kernel_def=""):
        src.add("out_cb = " + ("ttl.make_dataflow_buffer_like(y, shape=(1, 1), block_count=2)" if spec.published
                               else "ttl.make_circular_buffer_like(y, shape=(1, 1), buffer_factor=2)"))
        src.add(f"@ttl.{spec.thread}()", thread_decorator="body")
        with src.block("def body():", thread_def="body"):
            src.add(f"{spec.node_name} = {node}", thread_first="compute" if compute else "dm")
            base = src.depth
            for statement in spec.body:
                src.depth = base + statement.depth
                src.add(statement.text, names_statement="")
            src.depth = base
            for variable in spec.variables if compute else ():
                with src.block("with out_cb.reserve() as out_blk:"):
                    src.add(f"out_blk.store(ttl.block.fill({variable}, shape=(1, 1)))", compute_store="out_blk")
        threads = ["body"]
        if compute:
            threads.append("writer")
            src.add("@ttl.datamovement()", thread_decorator="writer")
            with src.block("def writer():", thread_def="writer"):
                src.add(f"node_index = {node}", thread_first="dm")
                with src.block(f"for j in range({len(spec.variables)}):", write_loop=""):
                    with src.block("with out_cb.wait() as out_blk:", write_acquire="out_blk", write_release="out_blk"):
                        src.add("ttl.copy(out_blk, y[node_index, j]).wait()", write_copy="out_blk")
        if not spec.published:
            src.add(f"return ttl.Program({', '.join(threads)})(y)", kernel_launch="")
    src.add()
    src.add()
    shape = (spec.nodes * 32, len(spec.variables) * 32)
    src.add(f"kern(ttnn.zeros({shape}, dtype=ttnn.float32, layout=ttnn.TILE_LAYOUT))", host_call="")
    printed, values = python_results(spec)

    def golden(held) -> dict[int, torch.Tensor]:
        tiles = torch.tensor(values, dtype=torch.float32) if compute else torch.zeros(spec.nodes, len(spec.variables))
        return {0: tiles.repeat_interleave(32, 0).repeat_interleave(32, 1)}

    features = Features({"names", spec.thread, "published" if spec.published else "seed"})
    return Program("names", src, golden, {0: "float32"}, features=features.frozen(), stdout=printed)
