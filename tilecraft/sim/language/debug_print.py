"""What threads print: text lines, a dataflow buffer's state, a block's values.

Scalars and buffer states are known while the threads run (phase 1), a block's values only once
the value graph is evaluated (phase 2). A program that prints no block prints every line at once;
one that prints a block keeps its lines, in the order the threads printed them, and prints them
after its values are computed, with each block's values filled in.
"""

from __future__ import annotations

from typing import Any, Callable

import torch

#: how many of a block's values a line shows (the first ones, in row-major order)
SHOWN_VALUES = 64


class PrintLog:
    def __init__(self, deferred: bool):
        self.deferred = deferred
        #: (text, value id of a printed block or -1, what to say about that block)
        self.lines: list[tuple[str, int, str]] = []
        #: value ids of printed blocks: the evaluator keeps them until the end
        self.vids: list[int] = []

    def line(self, *args: Any) -> None:
        """A ``print`` of strings and scalars (space-separated, as Python prints them)."""
        self.emit(" ".join(map(str, args)), -1, "")

    def buffer(self, args: tuple, cb: Any) -> None:
        """``print(..., dfb)``: the buffer's declaration and its state now."""
        decl = cb.decl
        unit = "tiles" if decl.unit.tiled else "elements"
        text = (f"<DataflowBuffer '{decl.name}' shape={decl.shape} {decl.fmt.name} block_count={decl.buffer_factor}"
                f" capacity={decl.buffer_factor * _count(decl.shape)} {unit}>"
                f" head={cb.npop % cb.capacity} pushed={cb.npush - cb.npop} reserved={cb.nres - cb.npush}"
                f" free={cb.free}")
        self.emit(_joined(args, text), -1, "")

    def block(self, args: tuple, vid: int, block_type: Any) -> None:
        """``print(..., blk)``: the block's values are shown once they are computed."""
        self.vids.append(vid)
        self.emit(_joined(args, f"<Block shape={block_type.shape} {block_type.fmt.name}>"), vid,
                  "tiles" if block_type.unit.tiled else "elements")

    def emit(self, text: str, vid: int, unit: str) -> None:
        if self.deferred:
            self.lines.append((text, vid, unit))
        else:
            print(text)

    def flush(self, value_of: Callable[[int], torch.Tensor] | None) -> None:
        """Print the kept lines; ``value_of`` is None when the program stopped before its values
        were computed."""
        for text, vid, _unit in self.lines:
            if vid < 0:
                print(text)
                continue
            if value_of is None:
                print(f"{text}\n  (values not computed: the program stopped with an error)")
                continue
            values = value_of(vid).reshape(-1).float()
            shown = values[:SHOWN_VALUES].tolist()
            print(f"{text}\n  first {len(shown)} of {values.numel()} values: {shown}")
        self.lines.clear()


def _joined(args: tuple, text: str) -> str:
    return " ".join([*map(str, args), text])


def _count(shape: tuple[int, ...]) -> int:
    n = 1
    for extent in shape:
        n *= extent
    return n
