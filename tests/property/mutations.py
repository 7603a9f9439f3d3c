"""Single mistakes planted in valid generated programs, each with the diagnostic it must get.

A mutation edits one tagged site of a program (see ``source.py``): it inserts a statement at
the start of a thread, changes the slice of one copy, drops one ``wait()``, runs one loop once
more, ... and says which code the diagnostic must carry and which line(s) it may point at
(docs/language.md sections 9-13). A mutation that does not apply to a program (no such site)
returns None. Mutations of known, still open items carry the item (``known_issues``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable

from .programs import Program
from .source import Source
from .stream import STREAM_KINDS

Choose = Callable[[list], object]  # picks one element of a non-empty list (Hypothesis draws)
#: plants a mistake into a copy of a program's source; returns the lines the diagnostic may name
Plant = Callable[[Program, Source, Choose], "tuple[int, ...] | None"]


@dataclass(frozen=True)
class Mutant:
    mutation: str
    source: Source
    code: str
    #: 0-based indices of the lines the diagnostic may point at
    lines: tuple[int, ...]
    cli_args: tuple[str, ...] = ()
    #: the open item (known_issues.OPEN) this mistake trips over, if any
    known: str | None = None

    @property
    def text(self) -> str:
        return self.source.text()


@dataclass(frozen=True)
class Mutation:
    name: str
    code: str
    plant: Plant
    known: str | None = None
    #: the program kinds it applies to (None: every kind)
    kinds: tuple[str, ...] | None = None

    def apply(self, program: Program, choose: Choose) -> Mutant | None:
        src = program.source.copy()
        lines = self.plant(program, src, choose)
        if lines is None:
            return None
        return Mutant(self.name, src, self.code, lines, program.cli_args, self.known)


# ---------------------------------------------------------------------------- helpers
def _first_of_thread(src: Source, kinds: tuple[str, ...] | None = None) -> list[int]:
    """Lines that start a thread body (optionally only threads whose site is in ``kinds``)."""
    return [i for i in src.sites("thread_first") if kinds is None or src.lines[i].tag("thread_first") in kinds]


DM_SITES = ("read", "write", "mover", "dm")
COMPUTE_SITES = ("compute",)


def _insert_in_thread(text: str, kinds: tuple[str, ...] | None = None, unheld: str | None = None) -> Plant:
    """Insert ``text`` (``{buffer}`` is replaced by a buffer of the program) as a thread's first
    statement. With ``unheld`` (``reserve`` or ``wait``), only a buffer that no other thread (nor a
    pipe function) acquires that way: another thread could hold a block of it already, and a
    release would then find one."""
    def plant(program: Program, src: Source, choose: Choose) -> tuple[int, ...] | None:
        sites = _first_of_thread(src, kinds)
        if not sites:
            return None
        index = choose(sites)
        buffers = [src.lines[i].tag("kernel_buffer") for i in src.sites("kernel_buffer")]
        if unheld is not None:
            buffers = [b for b in buffers if not _acquired_outside(src, index, f"{b}.{unheld}()")]
        if "{buffer}" in text and not buffers:
            return None
        src.insert_before(index, text.format(buffer=choose(buffers) if buffers else ""))
        return (index,)
    return plant


def _acquired_outside(src: Source, first: int, call: str) -> bool:
    """Whether ``call`` appears outside the thread whose body starts at line ``first``."""
    end = first
    while end < len(src.lines) and (not src.lines[end].text or src.lines[end].depth >= src.lines[first].depth):
        end += 1
    return any(call in line.text for i, line in enumerate(src.lines) if not first <= i < end)


def _insert_lines(src: Source, index: int, text: str) -> None:
    """Several lines (relative indentation by 4 spaces) before line ``index``, at its depth."""
    depth = src.lines[index].depth
    for offset, raw in enumerate(text.splitlines()):
        stripped = raw.lstrip(" ")
        src.insert(index + offset, depth + (len(raw) - len(stripped)) // 4, stripped)


def _syntax(text: str) -> Plant:
    def plant(program: Program, src: Source, choose: Choose) -> tuple[int, ...] | None:
        sites = _first_of_thread(src)
        if not sites:
            return None
        index = choose(sites)
        _insert_lines(src, index, text)
        return (index,)
    return plant


def _replace_site(site: str, edit: Callable[[str, str], str | None]) -> Plant:
    """Edit the text of one line tagged ``site``: ``edit(text, detail)`` returns the new text or None."""
    def plant(program: Program, src: Source, choose: Choose) -> tuple[int, ...] | None:
        candidates = [i for i in src.sites(site) if edit(src.lines[i].text, src.lines[i].tag(site) or "") is not None]
        if not candidates:
            return None
        index = choose(candidates)
        line = src.lines[index]
        src.replace_text(index, edit(line.text, line.tag(site) or "") or "")
        return (index,)
    return plant


def _use_tag(site: str) -> Plant:
    """Replace a line by the text stored in its ``site`` tag (a precomputed wrong variant)."""
    return _replace_site(site, lambda text, detail: detail or None)


def _one_more_iteration(loop_site: str, blocked_sites: tuple[str, ...]):
    """The loop at ``loop_site`` runs once more than its partner: it blocks at a ``blocked_sites`` line."""
    def plant(program: Program, src: Source, choose: Choose) -> tuple[int, ...] | None:
        loops = [i for i in src.sites(loop_site) if src.lines[i].text.endswith("):")]
        if not loops:
            return None
        index = choose(loops)
        header = src.lines[index].text
        src.replace_text(index, header[:-2] + " + 1):")
        end = _block_end(src, index)
        blocked = tuple(i for site in blocked_sites for i in src.sites(site) if index < i < end)
        return blocked or None
    return plant


def _block_end(src: Source, index: int) -> int:
    depth = src.lines[index].depth
    end = index + 1
    while end < len(src.lines) and (not src.lines[end].text or src.lines[end].depth > depth):
        end += 1
    return end


def _drop_wait(program: Program, src: Source, choose: Choose) -> tuple[int, ...] | None:
    """A copy into a block is never waited for: the release of the block reports it (E1104)."""
    candidates = src.sites("read_copy")
    if not candidates:
        return None
    index = choose(candidates)
    block = src.lines[index].tag("read_copy") or ""
    unwaited = src.lines[index].tag("unwaited")
    if unwaited:
        src.replace_text(index, unwaited)
    else:
        waits = [i for i in src.sites("read_wait") if src.lines[i].tag("read_wait") == block and i > index]
        if not waits:
            return None
        del src.lines[waits[0]]
    releases = tuple(i for i in src.sites("read_release")
                     if block in (src.lines[i].tag("read_release") or "").split(",")
                     and _encloses_or_follows(src, i, index))
    return releases[:1] if releases else None


def _encloses_or_follows(src: Source, release: int, copy: int) -> bool:
    """``release`` is the ``with`` around ``copy``, or the first explicit release after it."""
    if release < copy:
        return _block_end(src, release) > copy
    return release > copy


def _store_in_dm(program: Program, src: Source, choose: Choose) -> tuple[int, ...] | None:
    waits = src.sites("read_wait")
    if not waits:
        return None
    index = choose(waits)
    block = src.lines[index].tag("read_wait")
    src.insert_after(index, f"{block}.store({block} * 2.0)")
    return (index + 1,)


def _before_store(template: str, replace: bool = False) -> Plant:
    """A store into the compute thread's output block (``{block}``), before one of its stores or
    instead of it (``replace``)."""
    def plant(program: Program, src: Source, choose: Choose) -> tuple[int, ...] | None:
        stores = [i for i in src.sites("compute_store") if ".store(" in src.lines[i].text]
        if not stores:
            return None
        index = choose(stores)
        text = template.format(block=src.lines[index].tag("compute_store"))
        if replace:
            src.replace_text(index, text)
        else:
            src.insert_before(index, text)
        return (index,)
    return plant


def _elu_without_alpha(program: Program, src: Source, choose: Choose) -> tuple[int, ...] | None:
    """``elu`` of an input block, without its alpha (docs/language.md 5.2: alpha is required)."""
    stores = [i for i in src.sites("compute_store") if any(a < i for a in src.sites("compute_acquire"))]
    if not stores:
        return None
    index = choose(stores)
    block = src.lines[index].tag("compute_store")
    source = src.lines[max(a for a in src.sites("compute_acquire") if a < index)].tag("compute_acquire")
    src.insert_before(index, f"{block}.store(ttl.math.elu({source}))")
    return (index,)


def _push_unwritten(program: Program, src: Source, choose: Choose) -> tuple[int, ...] | None:
    """Every store into an output block is dropped (a program may store its named expression
    twice): pushing it only warns (W1108), the writer's copy out of it reads undefined values
    (E1109)."""
    stores = src.sites("compute_store")
    block = src.lines[choose(stores)].tag("compute_store")
    for index in stores:
        if src.lines[index].tag("compute_store") == block:
            src.replace_text(index, "pass")
    return tuple(src.sites("write_copy")) or None


def _no_receiver(program: Program, src: Source, choose: Choose) -> tuple[int, ...] | None:
    """The receiving side of a pipe list is dropped: the send is E0107."""
    dispatch = src.sites("pipe_if_dst")
    sends = src.sites("pipe_send")
    if not dispatch or not sends:
        return None
    src.replace_text(dispatch[0], "pass")
    return tuple(sends)


def _semaphore_value_too_high(program: Program, src: Source, choose: Choose) -> tuple[int, ...] | None:
    """The semaphore wait asks for one more than is ever signalled. The diagnostic may point at
    any operation blocked in the resulting cycle (docs/language.md section 11)."""
    waits = src.sites("sem_wait")
    if not waits:
        return None
    index = waits[0]
    text = src.lines[index].text
    src.replace_text(index, re.sub(r"\((.*)\)$", r"(\1 + 1)", text))
    blocked = ("sem_wait", "compute_acquire", "compute_wait", "write_acquire")
    return tuple(sorted(i for site in blocked for i in src.sites(site)))


def _thread_argument(program: Program, src: Source, choose: Choose) -> tuple[int, ...] | None:
    defs = src.sites("thread_def")
    index = choose(defs)
    src.replace_text(index, src.lines[index].text.replace("():", "(extra):"))
    return (index, index - 1)


def _extra_thread(program: Program, src: Source, choose: Choose) -> tuple[int, ...] | None:
    """A third data movement thread (E0204): of three, none is more "the extra one" than the
    others, so the diagnostic may point at any of them (its notes name the rest), or, in the seed
    spelling, at the ``ttl.Program`` call that names them."""
    decorators = src.sites("thread_decorator")
    if len(decorators) < 3:
        return None
    index = decorators[0]
    _insert_lines(src, index, "@ttl.datamovement()\ndef extra_thread():\n    pass\n")
    launches = src.sites("kernel_launch")
    for launch in launches:
        src.replace_text(launch, src.lines[launch].text.replace("ttl.Program(", "ttl.Program(extra_thread, "))
    movers = [i for i in src.sites("thread_decorator") if "datamovement" in src.lines[i].text]
    return (index, index + 1, *movers, *launches)


def _l1_overflow(program: Program, src: Source, choose: Choose) -> tuple[int, ...] | None:
    buffers = src.sites("kernel_buffer")
    if not buffers:
        return None
    index = choose(buffers)
    text = re.sub(r"(block_count|buffer_factor)=\d+", r"\1=1000000", src.lines[index].text)
    src.replace_text(index, text)
    return tuple(src.sites("kernel_decorator"))


def _reserve_in_kernel_scope(program: Program, src: Source, choose: Choose) -> tuple[int, ...] | None:
    buffers = src.sites("kernel_buffer")
    if not buffers:
        return None
    index = buffers[-1] + 1
    src.insert_before(index, f"{src.lines[buffers[-1]].tag('kernel_buffer')}.reserve()")
    return (index,)


def _call_thread_in_kernel(program: Program, src: Source, choose: Choose) -> tuple[int, ...] | None:
    """A thread function called as host Python, at the end of the kernel body (E0302)."""
    defs = src.sites("thread_def")
    if not defs:
        return None
    target = src.lines[choose(defs)].tag("thread_def")
    kernel = src.sites("kernel_def")[0]
    end = _block_end(src, kernel)
    while not src.lines[end - 1].text:
        end -= 1
    at = (src.sites("kernel_launch") or [end])[0]
    src.insert(at, src.lines[kernel].depth + 1, f"{target}()")
    return (at,)


def _bad_buffer_shape(program: Program, src: Source, choose: Choose) -> tuple[int, ...] | None:
    buffers = src.sites("kernel_buffer")
    if not buffers:
        return None
    index = choose(buffers)
    src.replace_text(index, re.sub(r"shape=\([^)]*\)", "shape=(0, 1)", src.lines[index].text))
    return (index,)


def _pipe_outside_grid(program: Program, src: Source, choose: Choose) -> tuple[int, ...] | None:
    decls = src.sites("pipe_decl")
    if not decls:
        return None
    index = decls[0]
    text = src.lines[index].text
    new = re.sub(r"(dst_core|dst)=\(", r"\1=(99 + ", text, count=1)
    if new == text:
        return None
    src.replace_text(index, new)
    return (index,)


def _remote_outside_grid(program: Program, src: Source, choose: Choose) -> tuple[int, ...] | None:
    """A remote semaphore on a core outside the grid: E0203 where it is made (``get_remote``)."""
    for index, line in enumerate(src.lines):
        if ".get_remote((0, 0))" in line.text:
            src.replace_text(index, line.text.replace(".get_remote((0, 0))", ".get_remote((99, 0))"))
            return (index,)
    return None


def _unused_division_by_zero(program: Program, src: Source, choose: Choose) -> tuple[int, ...] | None:
    sites = [i for i in src.sites("thread_first") if "=" in src.lines[i].text and "(dims" in src.lines[i].text]
    if not sites:
        return None
    index = choose(sites)
    node = src.lines[index].text.split("=")[0].split(",")[0].strip()
    src.insert_after(index, f"zero_div = 7 // min({node}, 0)")
    return (index + 1,)


def _division_by_zero(program: Program, src: Source, choose: Choose) -> tuple[int, ...] | None:
    sites = [i for i in src.sites("thread_first") if "=" in src.lines[i].text and "(dims" in src.lines[i].text]
    if not sites:
        return None
    index = choose(sites)
    node = src.lines[index].text.split("=")[0].split(",")[0].strip()
    src.insert_after(index, f"for zero_div in range(7 // min({node}, 0)):")
    src.insert(index + 2, src.lines[index].depth + 1, "pass")
    return (index + 1,)


# ---------------------------------------------------------------------------- the catalogue
PIPE_KINDS = ("gather", "multicast", "ring", "loopback")
SEMAPHORE_KINDS = ("barrier", "release")
UNSUPPORTED = {
    "list_comprehension": "listed = [v for v in range(2)]",
    "lambda": "fn = lambda: 0",
    "import": "import math",
    "try": "try:\n    pass\nexcept Exception:\n    pass",
    "assert": "assert ttl.node(dims=1) >= 0",  # on a runtime value (compile-time asserts are checked)
    "raise": "raise ValueError('no')",
    "dict": "table = {1: 2}",
    "set": "chosen = {1, 2}",
    "walrus": "value = (bound := 3)",
    "class": "class Local:\n    pass",
    "global": "global torch",
    "while_else": "while False:\n    pass\nelse:\n    pass",
    "starred": "print(*[1, 2])",
    "generator": "total = max(v for v in range(3))",
}

MUTATIONS: tuple[Mutation, ...] = (
    Mutation("push_without_reserve", "E1102", _insert_in_thread("{buffer}.push()", DM_SITES, unheld="reserve")),
    Mutation("pop_without_wait", "E1101", _insert_in_thread("{buffer}.pop()", COMPUTE_SITES, unheld="wait")),
    Mutation("copy_wrong_shape", "E0106", _use_tag("shape_mistake"), kinds=STREAM_KINDS),
    Mutation("slice_out_of_bounds", "E1107", _use_tag("bounds_mistake"), kinds=STREAM_KINDS),
    # the block loop of a streaming compute thread: its producer has finished when it waits again
    Mutation("consumer_waits_more", "E2111", _one_more_iteration("compute_loop", ("compute_acquire",)),
             kinds=STREAM_KINDS),
    Mutation("writer_waits_more", "E2111", _one_more_iteration("write_loop", ("write_acquire",))),
    Mutation("copy_never_waited", "E1104", _drop_wait),
    Mutation("store_in_datamovement", "E0003", _store_in_dm),
    Mutation("copy_in_compute", "E0003", _insert_in_thread("ttl.copy({buffer}, {buffer})", COMPUTE_SITES)),
    Mutation("semaphore_in_compute", "E0003", _insert_in_thread("sem.wait_for(1)", COMPUTE_SITES),
             kinds=SEMAPHORE_KINDS),
    Mutation("undefined_name", "E0102", _insert_in_thread("value = undefined_name + 1")),
    Mutation("grid_size_zero_dims", "E0201", _insert_in_thread("size = ttl.grid_size(dims=0)")),
    Mutation("store_wrong_shape", "E0105", _before_store("{block}.store(ttl.block.fill(1.0, shape=(9, 9)))", True)),
    Mutation("unknown_math_function", "E0104", _before_store("{block}.store(ttl.math.frobnicate({block}))")),
    Mutation("push_unwritten", "E1109", _push_unwritten, kinds=STREAM_KINDS),
    Mutation("pipe_never_received", "E0107", _no_receiver, kinds=PIPE_KINDS),
    # the waiting reader also starves its core's compute thread, and the thread that set the
    # semaphore waits for that compute thread: a cycle, E2110 by docs/language.md section 11
    # (E2113 needs every other thread finished or waiting on a semaphore)
    Mutation("semaphore_never_satisfied", "E2110", _semaphore_value_too_high, kinds=SEMAPHORE_KINDS),
    Mutation("thread_with_argument", "E0104", _thread_argument),
    Mutation("l1_overflow", "E0401", _l1_overflow),
    Mutation("reserve_in_kernel_scope", "E0302", _reserve_in_kernel_scope),
    Mutation("thread_called_in_kernel", "E0302", _call_thread_in_kernel),
    Mutation("buffer_shape_zero", "E0202", _bad_buffer_shape),
    Mutation("pipe_outside_grid", "E0203", _pipe_outside_grid, kinds=PIPE_KINDS),
    Mutation("remote_semaphore_outside_grid", "E0203", _remote_outside_grid, kinds=("barrier",)),
    Mutation("division_by_zero", "E1199", _division_by_zero),
    *(Mutation(f"unsupported_{name}", "E0101", _syntax(text)) for name, text in UNSUPPORTED.items()),
    # documented errors (issue 7 item 17)
    Mutation("elu_without_alpha", "E0104", _elu_without_alpha, kinds=("elementwise",)),
    Mutation("unused_division_by_zero", "E1199", _unused_division_by_zero),
    Mutation("too_many_threads", "E0204", _extra_thread),
)
BY_NAME = {m.name: m for m in MUTATIONS}
