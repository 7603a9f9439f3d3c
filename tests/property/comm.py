"""Kernels whose nodes talk: pipes (unicast, multicast, gather) and semaphores (barriers).

Each node of a gx x gy grid owns one BH x BW-tile block of ``a`` (block (cy, cx)) and applies
an expression ``f`` to it; the patterns differ in where the results go:

- "gather": the nodes of a row send f(block) to node (0, row) over unicast pipes; it adds
  them up: y[row] = sum over x of f(a[row, x]);
- "multicast": node (x, 0) multicasts its block of ``s`` down its column; the others compute
  y[row - 1, x] = f(a[row - 1, x]) * s[0, x];
- "ring": every node sends its block to the next node of its row: y[row, x] = f(a[row, x - 1]);
- "loopback": every node multicasts its block to its whole column, itself included, and sums
  what it receives: y[row, x] = sum over rows r of f(a[r, x]);
- "barrier": many-to-one: every node but 0 writes f(its block) to DRAM, then bumps node 0's
  semaphore; node 0 waits for all of them, reads the parts back and sums them;
- "release": one-to-many: node 0 writes f(its block) to DRAM and sets every node's semaphore;
  each node waits for it, reads it back and stores y[node] = shared * a[node].

Intermediate buffers are made like ``y`` (bfloat16 or float32), and ``+=`` rounds every partial
sum into that format; the goldens do the same.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import torch

from .expressions import Expr
from .programs import TILE, TORCH_OF, Features, HostTensor, Program, Spelling, host_script, prelude
from .source import Source

PATTERNS = ("gather", "multicast", "ring", "loopback", "barrier", "release")
PIPE_PATTERNS = PATTERNS[:4]


@dataclass(frozen=True)
class CommSpec:
    pattern: str
    spelling: Spelling
    grid: tuple[int, int]
    BH: int
    BW: int
    fn: Expr  # over the leaf named by names["blk"], key "a"
    a_dtype: str
    y_dtype: str
    helpers: str  # where the pipe helpers live: "thread" | "kernel"
    wait_style: str  # semaphore wait: "wait_for" | "wait_eq" | "wait_ge" | "wait_for_min"
    names: dict[str, str]
    seed: int

    @property
    def block(self) -> tuple[int, int]:
        return (self.BH, self.BW)

    def rows(self, index: str) -> str:
        return f"{index} * {self.BH}:({index} + 1) * {self.BH}"

    def cols(self, index: str) -> str:
        return f"{index} * {self.BW}:({index} + 1) * {self.BW}"


def build(spec: CommSpec) -> Program:
    src = Source()
    n = spec.names
    gx, gy = spec.grid
    prelude(src)
    tensors = ["a", *(["s"] if spec.pattern == "multicast" else []),
               *(["parts"] if spec.pattern in ("barrier", "release") else []), "y"]
    src.add(spec.spelling.decorator(repr(spec.grid)), kernel_decorator="")
    with src.block(f"def {n['kernel']}({', '.join(tensors)}):", kernel_def=""):
        BUILDERS[spec.pattern](src, spec)
        src.add()
        launch = spec.spelling.launch(["compute_fn", "reader", "mover"], tensors)
        if launch:
            src.add(launch, kernel_launch="")
    hosts = [HostTensor("a", _a_shape(spec), spec.a_dtype, True, -2.0, 2.0)]
    if spec.pattern == "multicast":
        hosts.append(HostTensor("s", (TILE * spec.BH, gx * spec.BW * TILE), spec.a_dtype, True, 0.5, 1.5))
    if spec.pattern in ("barrier", "release"):
        hosts.append(HostTensor("parts", _a_shape(spec), spec.y_dtype, True, creator="zeros"))
    hosts.append(HostTensor("y", _y_shape(spec), spec.y_dtype, True, creator="zeros"))
    host_script(src, hosts, f"{n['kernel']}({', '.join(tensors)})", spec.seed)
    out = len(tensors) - 1
    features = Features({spec.pattern, spec.spelling.name, f"helpers_{spec.helpers}", f"dtype_{spec.a_dtype}",
                         f"dtype_{spec.y_dtype}", "pipes" if spec.pattern in PIPE_PATTERNS else "semaphores"})
    return Program(spec.pattern, src, lambda values: {out: GOLDENS[spec.pattern](spec, values)},
                   {out: spec.y_dtype}, features=features.frozen())


def _a_shape(spec: CommSpec) -> tuple[int, int]:
    gx, gy = spec.grid
    rows = gy - 1 if spec.pattern == "multicast" else gy
    return (rows * spec.BH * TILE, gx * spec.BW * TILE)


def _y_shape(spec: CommSpec) -> tuple[int, int]:
    gx, gy = spec.grid
    if spec.pattern == "gather":
        return (gy * spec.BH * TILE, spec.BW * TILE)
    if spec.pattern == "loopback":
        return (spec.BH * TILE, gx * spec.BW * TILE)
    if spec.pattern == "barrier":
        return (spec.BH * TILE, spec.BW * TILE)
    return _a_shape(spec)


# ---------------------------------------------------------------------------- source pieces
def _buffers(src: Source, spec: CommSpec, **likes: str) -> None:
    for name, tensor in likes.items():
        src.add(f"{name} = {spec.spelling.buffer(tensor, spec.block, 2)}", kernel_buffer=name)


def _coords(src: Source, spec: CommSpec, site: str) -> None:
    n = spec.names
    node = "ttl.node(dims=2)" if spec.spelling.published else "ttl.core()"
    src.add(f"{n['cx']}, {n['cy']} = {node}", **{f"{site}_first": "", "thread_first": site})


def _read(src: Source, spec: CommSpec, buffer: str, tensor_slice: str, site: str = "read") -> None:
    blk = spec.names["blk"]
    with src.block(f"with {buffer}.reserve() as {blk}:", **{f"{site}_acquire": blk, f"{site}_release": blk}):
        src.add(f"ttl.copy({tensor_slice}, {blk}).wait()", **{f"{site}_copy": blk, f"{site}_wait": blk})


def _write(src: Source, spec: CommSpec, buffer: str, tensor_slice: str) -> None:
    blk = spec.names["blk"]
    with src.block(f"with {buffer}.wait() as {blk}:", write_acquire=blk, write_release=blk):
        src.add(f"ttl.copy({blk}, {tensor_slice}).wait()", write_copy=blk)


def _own_block_reader(src: Source, spec: CommSpec) -> None:
    """The reader of every node: its own block of ``a`` into a_cb."""
    n = spec.names
    src.add("@ttl.datamovement()", thread_decorator="reader")
    with src.block("def reader():", thread_def="reader"):
        _coords(src, spec, "read")
        _read(src, spec, "a_cb", f"a[{spec.rows(n['cy'])}, {spec.cols(n['cx'])}]")


def _fn(spec: CommSpec) -> str:
    return spec.fn.render()


def _pipes(src: Source, spec: CommSpec, pipes: str) -> None:
    """``pipes``: a list comprehension body in the seed spelling, e.g. "src_core=(x, r), dst_core=(0, r) for ..."."""
    src.add(f"{spec.names['pipes']} = {pipes}", pipe_decl="")
    if spec.spelling.published:
        src.add(f"{spec.names['net']} = ttl.PipeNet({spec.names['pipes']})")


def _pipe(spec: CommSpec, source: str, destination: str, multicast: bool = False) -> str:
    if spec.spelling.published:
        return f"ttl.Pipe(src={source}, dst={destination})"
    key = "dst_core_range" if multicast else "dst_core"
    return f"ttl.Pipe(src_core={source}, {key}={destination})"


def _helpers(src: Source, spec: CommSpec, send_buffer: str | None, recv_buffer: str) -> None:
    """``send(pipe)`` (a block of ``send_buffer`` into the pipe) and ``receive(pipe)``."""
    blk, pipe = spec.names["blk"], spec.names["pipe"]
    if send_buffer:
        with src.block(f"def send({pipe}):"):
            with src.block(f"with {send_buffer}.wait() as {blk}:", send_acquire=blk):
                src.add(f"ttl.copy({blk}, {pipe}).wait()", pipe_send="")
    with src.block(f"def receive({pipe}):"):
        with src.block(f"with {recv_buffer}.reserve() as {blk}:", receive_acquire=blk):
            src.add(f"ttl.copy({pipe}, {blk}).wait()", pipe_receive="")


def _dispatch(src: Source, spec: CommSpec, send: bool = True) -> None:
    n = spec.names
    if spec.spelling.published:
        if send:
            src.add(f"{n['net']}.if_src(send)", pipe_if_src="")
        src.add(f"{n['net']}.if_dst(receive)", pipe_if_dst="")
    else:
        if send:
            src.add(f"ttl.if_pipe_src({n['pipes']}, send)", pipe_if_src="")
        src.add(f"ttl.if_pipe_dst({n['pipes']}, receive)", pipe_if_dst="")


def _mover(src: Source, spec: CommSpec, send_buffer: str | None, recv_buffer: str, after) -> None:
    """The data movement thread that runs the pipes (helpers in the thread or in kernel scope)."""
    if spec.helpers == "kernel":
        _helpers(src, spec, send_buffer, recv_buffer)
        src.add()
    src.add("@ttl.datamovement()", thread_decorator="mover")
    with src.block("def mover():", thread_def="mover"):
        _coords(src, spec, "mover")
        if spec.helpers == "thread":
            _helpers(src, spec, send_buffer, recv_buffer)
        _dispatch(src, spec, send=send_buffer is not None)
        after()


def _gather(src: Source, spec: CommSpec) -> None:
    n = spec.names
    gx, gy = spec.grid
    cx, cy, blk = n["cx"], n["cy"], n["blk"]
    _pipes(src, spec, f"[{_pipe(spec, '(x, r)', '(0, r)')} for x in range(1, {gx}) for r in range({gy})]")
    _buffers(src, spec, a_cb="a", part_cb="y", recv_cb="y", y_cb="y")
    _own_block_reader(src, spec)
    src.add("@ttl.compute()", thread_decorator="compute_fn")
    with src.block("def compute_fn():", thread_def="compute_fn"):
        _coords(src, spec, "compute")
        with src.block(f"if {cx} != 0:"):
            with src.block(f"with a_cb.wait() as {blk}, part_cb.reserve() as {n['out']}:", compute_acquire=blk):
                src.add(f"{n['out']}.store({_fn(spec)})", compute_store=n["out"])
        with src.block("else:"):
            with src.block(f"with a_cb.wait() as {blk}, y_cb.reserve() as {n['acc']}:", compute_acquire=blk):
                src.add(f"{n['acc']}.store({_fn(spec)})", compute_store=n["acc"])
                with src.block(f"for {n['i']} in range({gx - 1}):", compute_inner_loop=""):
                    with src.block(f"with recv_cb.wait() as {n['part']}:", compute_wait="recv_cb"):
                        src.add(f"{n['acc']} += {n['part']}", compute_accumulate=n["acc"])

    def write_row() -> None:
        with src.block(f"if {cx} == 0:"):
            _write(src, spec, "y_cb", f"y[{spec.rows(cy)}, 0:{spec.BW}]")
    _mover(src, spec, "part_cb", "recv_cb", write_row)


def _multicast(src: Source, spec: CommSpec) -> None:
    n = spec.names
    gx, gy = spec.grid
    cx, cy, blk = n["cx"], n["cy"], n["blk"]
    destination = "(x, slice(1, {gy}))" if spec.spelling.published else "(slice(x, x + 1), slice(1, {gy}))"
    _pipes(src, spec, f"[{_pipe(spec, '(x, 0)', destination.format(gy=gy), multicast=True)} for x in range({gx})]")
    _buffers(src, spec, s_cb="s", a_cb="a", y_cb="y")
    src.add("@ttl.datamovement()", thread_decorator="reader")
    with src.block("def reader():", thread_def="reader"):
        _coords(src, spec, "read")
        with src.block(f"if {cy} > 0:"):
            _read(src, spec, "a_cb", f"a[{spec.rows(f'({cy} - 1)')}, {spec.cols(cx)}]")
    src.add("@ttl.compute()", thread_decorator="compute_fn")
    with src.block("def compute_fn():", thread_def="compute_fn"):
        _coords(src, spec, "compute")
        with src.block(f"if {cy} > 0:"):
            with src.block(f"with a_cb.wait() as {blk}, s_cb.wait() as {n['part']}, y_cb.reserve() as {n['out']}:",
                           compute_acquire=blk):
                src.add(f"{n['out']}.store(({_fn(spec)}) * {n['part']})", compute_store=n["out"])

    def source_then_write() -> None:
        with src.block(f"if {cy} > 0:"):
            _write(src, spec, "y_cb", f"y[{spec.rows(f'({cy} - 1)')}, {spec.cols(cx)}]")

    if spec.helpers == "kernel":
        _multicast_helpers(src, spec)
        src.add()
    src.add("@ttl.datamovement()", thread_decorator="mover")
    with src.block("def mover():", thread_def="mover"):
        _coords(src, spec, "mover")
        if spec.helpers == "thread":
            _multicast_helpers(src, spec)
        _dispatch(src, spec)
        source_then_write()


def _multicast_helpers(src: Source, spec: CommSpec) -> None:
    """The source reads its block of ``s`` and sends it; the receivers take it into s_cb."""
    n = spec.names
    blk, pipe = n["blk"], n["pipe"]
    node = "ttl.node(dims=2)" if spec.spelling.published else "ttl.core()"
    with src.block(f"def send({pipe}):"):
        src.add(f"{n['sx']}, {n['sy']} = {node}")
        _read(src, spec, "s_cb", f"s[0:{spec.BH}, {spec.cols(n['sx'])}]", site="source")
        with src.block(f"with s_cb.wait() as {blk}:", send_acquire=blk):
            src.add(f"ttl.copy({blk}, {pipe}).wait()", pipe_send="")
    with src.block(f"def receive({pipe}):"):
        with src.block(f"with s_cb.reserve() as {blk}:", receive_acquire=blk):
            src.add(f"ttl.copy({pipe}, {blk}).wait()", pipe_receive="")


def _ring(src: Source, spec: CommSpec) -> None:
    n = spec.names
    gx, gy = spec.grid
    cx, cy, blk = n["cx"], n["cy"], n["blk"]
    _pipes(src, spec, f"[{_pipe(spec, '(x, r)', f'((x + 1) % {gx}, r)')} for x in range({gx}) for r in range({gy})]")
    _buffers(src, spec, a_cb="a", recv_cb="a", y_cb="y")
    _own_block_reader(src, spec)
    src.add("@ttl.compute()", thread_decorator="compute_fn")
    with src.block("def compute_fn():", thread_def="compute_fn"):
        _coords(src, spec, "compute")
        with src.block(f"with recv_cb.wait() as {blk}, y_cb.reserve() as {n['out']}:", compute_acquire=blk):
            src.add(f"{n['out']}.store({_fn(spec)})", compute_store=n["out"])
    _mover(src, spec, "a_cb", "recv_cb",
           lambda: _write(src, spec, "y_cb", f"y[{spec.rows(cy)}, {spec.cols(cx)}]"))


def _loopback(src: Source, spec: CommSpec) -> None:
    n = spec.names
    gx, gy = spec.grid
    cx, cy, blk = n["cx"], n["cy"], n["blk"]
    destination = "(x, slice(0, {gy}))" if spec.spelling.published else "(x, slice(0, {gy}))"
    _pipes(src, spec, f"[{_pipe(spec, '(x, r)', destination.format(gy=gy), multicast=True)} "
                      f"for x in range({gx}) for r in range({gy})]")
    _buffers(src, spec, a_cb="a", recv_cb="a", y_cb="y")
    _own_block_reader(src, spec)
    src.add("@ttl.compute()", thread_decorator="compute_fn")
    with src.block("def compute_fn():", thread_def="compute_fn"):
        _coords(src, spec, "compute")
        with src.block(f"with y_cb.reserve() as {n['acc']}:"):
            with src.block(f"with recv_cb.wait() as {blk}:", compute_acquire=blk):
                src.add(f"{n['acc']}.store({_fn(spec)})", compute_store=n["acc"])
            with src.block(f"for {n['i']} in range({gy - 1}):", compute_inner_loop=""):
                with src.block(f"with recv_cb.wait() as {blk}:", compute_wait="recv_cb"):
                    src.add(f"{n['acc']} += {_fn(spec)}", compute_accumulate=n["acc"])

    def write_first_row() -> None:
        with src.block(f"if {cy} == 0:"):
            _write(src, spec, "y_cb", f"y[0:{spec.BH}, {spec.cols(cx)}]")
        with src.block("else:"):
            with src.block(f"with y_cb.wait() as {blk}:", write_acquire=blk, write_release=blk):
                src.add("pass")
    _mover(src, spec, "a_cb", "recv_cb", write_first_row)


def _barrier(src: Source, spec: CommSpec) -> None:
    n = spec.names
    gx, gy = spec.grid
    cx, cy, blk, me = n["cx"], n["cy"], n["blk"], n["me"]
    others = gx * gy - 1
    src.add(f"{n['sem']} = ttl.Semaphore()", sem_decl="")
    src.add(f"{n['remote']} = {n['sem']}.get_remote((0, 0))")
    _buffers(src, spec, a_cb="a", part_cb="y", y_cb="y")
    src.add("@ttl.datamovement()", thread_decorator="reader")
    with src.block("def reader():", thread_def="reader"):
        _coords(src, spec, "read")
        src.add(f"{me} = {cx} + {gx} * {cy}")
        with src.block(f"if {me} != 0:"):
            _read(src, spec, "a_cb", f"a[{spec.rows(cy)}, {spec.cols(cx)}]")
        with src.block("else:"):
            src.add(f"{n['sem']}.{spec.wait_style}({others})", sem_wait="")
            with src.block(f"for {n['i']} in range(1, {others + 1}):", read_loop=""):
                src.add(f"{n['px']} = {n['i']} % {gx}")
                src.add(f"{n['py']} = {n['i']} // {gx}")
                _read(src, spec, "part_cb", f"parts[{spec.rows(n['py'])}, {spec.cols(n['px'])}]", site="parts")
    src.add("@ttl.compute()", thread_decorator="compute_fn")
    with src.block("def compute_fn():", thread_def="compute_fn"):
        _coords(src, spec, "compute")
        src.add(f"{me} = {cx} + {gx} * {cy}")
        with src.block(f"if {me} != 0:"):
            with src.block(f"with a_cb.wait() as {blk}, y_cb.reserve() as {n['out']}:", compute_acquire=blk):
                src.add(f"{n['out']}.store({_fn(spec)})", compute_store=n["out"])
        with src.block("else:"):
            with src.block(f"with y_cb.reserve() as {n['acc']}:"):
                src.add(f"{n['acc']}.store(ttl.block.fill(0.0, shape={n['acc']}.shape))")
                with src.block(f"for {n['i']} in range({others}):", compute_inner_loop=""):
                    with src.block(f"with part_cb.wait() as {n['part']}:", compute_wait="part_cb"):
                        src.add(f"{n['acc']} += {n['part']}", compute_accumulate=n["acc"])
    src.add("@ttl.datamovement()", thread_decorator="mover")
    with src.block("def mover():", thread_def="mover"):
        _coords(src, spec, "mover")
        src.add(f"{me} = {cx} + {gx} * {cy}")
        with src.block(f"with y_cb.wait() as {blk}:", write_acquire=blk, write_release=blk):
            with src.block(f"if {me} != 0:"):
                src.add(f"ttl.copy({blk}, parts[{spec.rows(cy)}, {spec.cols(cx)}]).wait()", write_copy=blk)
                src.add(f"{n['remote']}.inc(1)", sem_signal="")
            with src.block("else:"):
                src.add(f"ttl.copy({blk}, y[0:{spec.BH}, 0:{spec.BW}]).wait()")


def _release(src: Source, spec: CommSpec) -> None:
    n = spec.names
    gx, gy = spec.grid
    cx, cy, blk = n["cx"], n["cy"], n["blk"]
    src.add(f"{n['sem']} = ttl.Semaphore()", sem_decl="")
    src.add(f"{n['remote']} = {n['sem']}.get_remote_multicast()")
    _buffers(src, spec, a_cb="a", shared_cb="y", part_cb="y", y_cb="y")
    src.add("@ttl.datamovement()", thread_decorator="reader")
    with src.block("def reader():", thread_def="reader"):
        _coords(src, spec, "read")
        with src.block(f"if {cx} + {cy} == 0:"):
            _read(src, spec, "a_cb", f"a[0:{spec.BH}, 0:{spec.BW}]", site="first")
        src.add(f"{n['sem']}.{spec.wait_style}(1)", sem_wait="")
        _read(src, spec, "shared_cb", f"parts[0:{spec.BH}, 0:{spec.BW}]", site="shared")
        _read(src, spec, "a_cb", f"a[{spec.rows(cy)}, {spec.cols(cx)}]")
    src.add("@ttl.compute()", thread_decorator="compute_fn")
    with src.block("def compute_fn():", thread_def="compute_fn"):
        _coords(src, spec, "compute")
        with src.block(f"if {cx} + {cy} == 0:"):
            with src.block(f"with a_cb.wait() as {blk}, part_cb.reserve() as {n['out']}:", compute_acquire=blk):
                src.add(f"{n['out']}.store({_fn(spec)})", compute_store=n["out"])
        with src.block(f"with shared_cb.wait() as {n['part']}, a_cb.wait() as {blk}, y_cb.reserve() as {n['out']}:",
                       compute_acquire=n["part"]):
            src.add(f"{n['out']}.store({n['part']} * {blk})", compute_store=n["out"])
    src.add("@ttl.datamovement()", thread_decorator="mover")
    with src.block("def mover():", thread_def="mover"):
        _coords(src, spec, "mover")
        with src.block(f"if {cx} + {cy} == 0:"):
            with src.block(f"with part_cb.wait() as {blk}:", write_acquire=blk, write_release=blk):
                src.add(f"ttl.copy({blk}, parts[0:{spec.BH}, 0:{spec.BW}]).wait()", write_copy=blk)
            src.add(f"{n['remote']}.set(1)", sem_signal="")
        _write(src, spec, "y_cb", f"y[{spec.rows(cy)}, {spec.cols(cx)}]")


BUILDERS = {"gather": _gather, "multicast": _multicast, "ring": _ring, "loopback": _loopback,
            "barrier": _barrier, "release": _release}


# ---------------------------------------------------------------------------- goldens
def _blocks(spec: CommSpec, tensor: torch.Tensor) -> torch.Tensor:
    """(rows, cols, H, W): the BH x BW-tile blocks of ``tensor``."""
    H, W = spec.BH * TILE, spec.BW * TILE
    rows, cols = tensor.shape[0] // H, tensor.shape[1] // W
    return tensor.reshape(rows, H, cols, W).permute(0, 2, 1, 3)


def _unblock(blocks: torch.Tensor) -> torch.Tensor:
    rows, cols, H, W = blocks.shape
    return blocks.permute(0, 2, 1, 3).reshape(rows * H, cols * W)


def _f(spec: CommSpec, a: torch.Tensor) -> torch.Tensor:
    return spec.fn.golden({"a": a.to(torch.float32)}).expand(a.shape).to(torch.float32)


def _stored(spec: CommSpec, x: torch.Tensor) -> torch.Tensor:
    return x.to(TORCH_OF[spec.y_dtype]).to(torch.float32)


def _gather_golden(spec: CommSpec, values: Sequence[torch.Tensor]) -> torch.Tensor:
    parts = _blocks(spec, _stored(spec, _f(spec, values[0])))
    acc = parts[:, 0]
    for x in range(1, spec.grid[0]):
        acc = _stored(spec, acc + parts[:, x])
    return _unblock(acc[:, None])


def _multicast_golden(spec: CommSpec, values: Sequence[torch.Tensor]) -> torch.Tensor:
    a, s = values[0], values[1].to(torch.float32)
    rows = a.shape[0] // (spec.BH * TILE)
    return _f(spec, a) * s.repeat(rows, 1)


def _ring_golden(spec: CommSpec, values: Sequence[torch.Tensor]) -> torch.Tensor:
    return _unblock(_blocks(spec, _f(spec, values[0])).roll(1, dims=1))


def _loopback_golden(spec: CommSpec, values: Sequence[torch.Tensor]) -> torch.Tensor:
    parts = _blocks(spec, _f(spec, values[0]))
    acc = _stored(spec, parts[0])
    for r in range(1, spec.grid[1]):
        acc = _stored(spec, acc + parts[r])
    return _unblock(acc[None])


def _barrier_golden(spec: CommSpec, values: Sequence[torch.Tensor]) -> torch.Tensor:
    gx = spec.grid[0]
    parts = _blocks(spec, _stored(spec, _f(spec, values[0])))
    acc = torch.zeros_like(parts[0, 0])
    for i in range(1, gx * spec.grid[1]):
        acc = _stored(spec, acc + parts[i // gx, i % gx])
    return acc


def _release_golden(spec: CommSpec, values: Sequence[torch.Tensor]) -> torch.Tensor:
    a = values[0].to(torch.float32)
    shared = _blocks(spec, _stored(spec, _f(spec, a)))[0, 0]
    blocks = _blocks(spec, a)
    return _unblock(shared * blocks)


GOLDENS = {"gather": _gather_golden, "multicast": _multicast_golden, "ring": _ring_golden,
           "loopback": _loopback_golden, "barrier": _barrier_golden, "release": _release_golden}
