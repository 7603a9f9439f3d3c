"""Matmul kernels: y = a @ b (+ c), blocks of output split over the nodes, a K loop per block.

Each node owns some of the GM x GN output blocks (BM x BN tiles). For each, the reader streams
the K slices of ``a`` (BM x BK tiles) and ``b`` (BK x BN tiles); the compute thread builds the
block by one of the accumulation idioms of the tutorials and the examples:

- "fill": ``y.store(fill(0))``, then ``y += a @ b`` per K step;
- "first": ``y.store(a @ b)`` (or ``bias + a @ b`` with a bias) at K step 0, ``y += a @ b`` after;
- "value": the published 1.1.6 idiom, an accumulator value ``acc = ttl.block.fill(0, shape=...)``,
  ``acc += a @ b`` per step, ``y.store(acc)`` at the end (issue 7 item 1).

``+=`` rounds on every store (docs/numerics.md section 4), so the golden rounds its partial sums
to the output format after each K step as well.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import torch

from .programs import TILE, TORCH_OF, Features, HostTensor, Program, Spelling, WorkSplit, host_script, prelude
from .source import Source

IDIOMS = ("fill", "first", "value")


@dataclass(frozen=True)
class MatmulSpec:
    spelling: Spelling
    grid: tuple[int, int]
    split: str
    GM: int
    GN: int
    KS: int
    BM: int
    BN: int
    BK: int
    dtypes: tuple[str, str, str]  # a, b, y
    bias: str | None  # the bias tensor's dtype, or None
    idiom: str
    fill_spelling: str  # "block" | "math" | "number"
    matmul_spelling: str  # "@" | "ttl.math.matmul"
    explicit: bool
    factors: tuple[int, int, int]
    names: dict[str, str]
    seed: int

    @property
    def work(self) -> WorkSplit:
        return WorkSplit(self.split, self.grid, self.GM, self.GN)


def build(spec: MatmulSpec) -> Program:
    src = Source()
    n = spec.names
    prelude(src)
    tensors = ["a", "b", *(["bias"] if spec.bias else []), "y"]
    buffers = {t: f"{t}_{n['buffer']}" for t in tensors}
    blocks = {t: f"{t}_{n['blk']}" for t in tensors}
    shapes = {"a": (spec.BM, spec.BK), "b": (spec.BK, spec.BN), "bias": (spec.BM, spec.BN), "y": (spec.BM, spec.BN)}
    src.add(spec.spelling.decorator(repr(spec.grid)), kernel_decorator="")
    with src.block(f"def {n['kernel']}({', '.join(tensors)}):", kernel_def=""):
        spec.work.kernel_prologue(src, spec.spelling, n)
        factors = dict(zip(("a", "b", "y"), spec.factors), bias=1)
        for t in tensors:
            src.add(f"{buffers[t]} = {spec.spelling.buffer(t, shapes[t], factors[t])}", kernel_buffer=buffers[t])
        src.add()
        _reader(src, spec, buffers, blocks)
        src.add()
        _compute(src, spec, buffers, blocks)
        src.add()
        _writer(src, spec, buffers, blocks)
        src.add()
        launch = spec.spelling.launch([n["compute"], n["read"], n["write"]], tensors)
        if launch:
            src.add(launch, kernel_launch="")
    M, N, K = spec.GM * spec.BM * TILE, spec.GN * spec.BN * TILE, spec.KS * spec.BK * TILE
    hosts = [HostTensor("a", (M, K), spec.dtypes[0], True, -1.0, 1.0),
             HostTensor("b", (K, N), spec.dtypes[1], True, -1.0, 1.0)]
    if spec.bias:
        hosts.append(HostTensor("bias", (M, N), spec.bias, True, -2.0, 2.0))
    hosts.append(HostTensor("y", (M, N), spec.dtypes[2], True, creator="zeros"))
    host_script(src, hosts, f"{n['kernel']}({', '.join(tensors)})", spec.seed)
    out = len(tensors) - 1
    features = Features({"matmul", spec.spelling.name, spec.split, f"idiom_{spec.idiom}",
                         *(f"dtype_{d}" for d in spec.dtypes)})
    if spec.bias:
        features.add("bias")
    if spec.work.nodes > 1:
        features.add("multinode")
    return Program("matmul", src, lambda values: {out: golden(spec, values)}, {out: spec.dtypes[2]},
                   features=features.frozen())


def _product(spec: MatmulSpec, blocks: dict[str, str]) -> str:
    a, b = blocks["a"], blocks["b"]
    return f"{a} @ {b}" if spec.matmul_spelling == "@" else f"ttl.math.matmul({a}, {b})"


def _reader(src: Source, spec: MatmulSpec, buffers: dict[str, str], blocks: dict[str, str]) -> None:
    n = spec.names
    k, r, c = n["k"], n["r"], n["c"]
    BM, BN, BK = spec.BM, spec.BN, spec.BK
    src.add("@ttl.datamovement()", thread_decorator=n["read"])
    with src.block(f"def {n['read']}():", thread_def=n["read"]):
        def body() -> None:
            rows, cols = f"{r} * {BM}:({r} + 1) * {BM}", f"{c} * {BN}:({c} + 1) * {BN}"
            inner = f"{k} * {BK}:({k} + 1) * {BK}"
            if spec.bias:
                _read(src, spec, buffers["bias"], blocks["bias"], f"bias[{rows}, {cols}]")
            with src.block(f"for {k} in range({spec.KS}):", read_kloop=""):
                _read(src, spec, buffers["a"], blocks["a"], f"a[{rows}, {inner}]")
                _read(src, spec, buffers["b"], blocks["b"], f"b[{inner}, {cols}]")
        spec.work.loop(src, spec.spelling, n, "read", body)


def _read(src: Source, spec: MatmulSpec, buffer: str, block: str, tensor_slice: str) -> None:
    copy = f"ttl.copy({tensor_slice}, {block})"
    if spec.explicit:
        src.add(f"{block} = {buffer}.reserve()", read_acquire=block)
        src.add(f"{copy}.wait()", read_copy=block, read_wait=block)
        src.add(spec.spelling.release(buffer, block, "push"), read_release=block)
    else:
        with src.block(f"with {buffer}.reserve() as {block}:", read_acquire=block, read_release=block):
            src.add(f"{copy}.wait()", read_copy=block, read_wait=block)


def _compute(src: Source, spec: MatmulSpec, buffers: dict[str, str], blocks: dict[str, str]) -> None:
    n = spec.names
    k, y, a, b = n["k"], blocks["y"], blocks["a"], blocks["b"]
    product = _product(spec, blocks)
    fill = {"block": f"ttl.block.fill(0.0, shape={y}.shape)", "math": f"ttl.math.fill(0.0, {(spec.BM, spec.BN)})",
            "number": "0.0"}[spec.fill_spelling]
    src.add("@ttl.compute()", thread_decorator=n["compute"])
    with src.block(f"def {n['compute']}():", thread_def=n["compute"]):
        def steps(accumulate: str) -> None:
            with src.block(f"for {k} in range({spec.KS}):", compute_kloop=""):
                if spec.explicit:
                    src.add(f"{a} = {buffers['a']}.wait()", compute_acquire=a)
                    src.add(f"{b} = {buffers['b']}.wait()", compute_acquire=b)
                    accumulate_step(accumulate)
                    src.add(spec.spelling.release(buffers["a"], a, "pop"), compute_pop=a)
                    src.add(spec.spelling.release(buffers["b"], b, "pop"), compute_pop=b)
                else:
                    with src.block(f"with {buffers['a']}.wait() as {a}, {buffers['b']}.wait() as {b}:",
                                   compute_acquire=a):
                        accumulate_step(accumulate)

        def accumulate_step(target: str) -> None:
            if spec.idiom == "first":
                first = f"{blocks['bias']} + {product}" if spec.bias else product
                with src.block(f"if {k} == 0:"):
                    src.add(f"{target}.store({first})", compute_store=target)
                with src.block("else:"):
                    src.add(f"{target} += {product}", compute_accumulate=target)
            else:
                src.add(f"{target} += {product}", compute_accumulate=target)

        def body() -> None:
            if spec.bias:
                src.add(f"{blocks['bias']} = {buffers['bias']}.wait()", compute_bias=blocks["bias"])
            if spec.idiom == "value":
                acc = n["acc"]
                src.add(f"{acc} = ttl.block.fill(0.0, shape={(spec.BM, spec.BN)})")
                if spec.bias:
                    src.add(f"{acc} = {acc} + {blocks['bias']}")
                steps(acc)
                with src.block(f"with {buffers['y']}.reserve() as {y}:", compute_release=y):
                    src.add(f"{y}.store({acc})", compute_store=y)
            else:
                with src.block(f"with {buffers['y']}.reserve() as {y}:", compute_release=y):
                    if spec.idiom == "fill":
                        src.add(f"{y}.store({fill})", compute_store=y)
                        if spec.bias:
                            src.add(f"{y} += {blocks['bias']}")
                    steps(y)
            if spec.bias:
                src.add(spec.spelling.release(buffers["bias"], blocks["bias"], "pop"), compute_pop=blocks["bias"])
        spec.work.loop(src, spec.spelling, n, "compute", body)


def _writer(src: Source, spec: MatmulSpec, buffers: dict[str, str], blocks: dict[str, str]) -> None:
    n = spec.names
    r, c, y = n["r"], n["c"], blocks["y"]
    BM, BN = spec.BM, spec.BN
    src.add("@ttl.datamovement()", thread_decorator=n["write"])
    with src.block(f"def {n['write']}():", thread_def=n["write"]):
        def body() -> None:
            with src.block(f"with {buffers['y']}.wait() as {y}:", write_acquire=y, write_release=y):
                src.add(f"ttl.copy({y}, y[{r} * {BM}:({r} + 1) * {BM}, {c} * {BN}:({c} + 1) * {BN}]).wait()",
                        write_copy=y)
        spec.work.loop(src, spec.spelling, n, "write", body)


def golden(spec: MatmulSpec, values: Sequence[torch.Tensor]) -> torch.Tensor:
    """Partial sums rounded to the output format after every store, as ``+=`` does."""
    a, b = values[0].double(), values[1].double()
    held = TORCH_OF[spec.dtypes[2]]

    def stored(x: torch.Tensor) -> torch.Tensor:
        return x.to(held).double() if spec.idiom != "value" else x.float().double()

    kt = spec.BK * TILE
    acc = values[2].double() if spec.bias else torch.zeros(a.shape[0], b.shape[1], dtype=torch.float64)
    if spec.idiom == "fill" and spec.bias:
        acc = stored(acc)
    for step in range(spec.KS):
        acc = stored(acc + a[:, step * kt:(step + 1) * kt] @ b[step * kt:(step + 1) * kt])
    return acc.float()
