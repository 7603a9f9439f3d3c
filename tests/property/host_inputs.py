"""Bad host inputs: one wrong ttnn call, kernel call or command-line option in a working script.

The script is a small valid kernel program (y = x * 2 over tiles). Each mistake replaces one
host line with a wrong one, drawn with random values (a negative dimension, a device id past
the system, a torch dtype where a ttnn one belongs, ...). The user must get a clear error that
names their line (a diagnostic ``file:line:col`` or a traceback limited to their frames), never
"tilecraft: internal error". Command-line mistakes (``--grid 0``) must get a usage error.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from hypothesis import strategies as st

KERNEL = '''import torch

import ttl
import ttnn


@ttl.operation(grid=(1, 1))
def scale(x, y):
    rows = x.shape[0] // 32  # KERNEL-SCOPE
    x_dfb = ttl.make_dataflow_buffer_like(x, shape=(1, 1), block_count=2)  # USES-X
    y_dfb = ttl.make_dataflow_buffer_like(y, shape=(1, 1), block_count=2)

    @ttl.datamovement()
    def reader():
        for r in range(rows):
            with x_dfb.reserve() as blk:
                ttl.copy(x[r, 0], blk).wait()

    @ttl.compute()
    def compute():
        for _ in range(rows):
            with x_dfb.wait() as xb, y_dfb.reserve() as yb:
                yb.store(xb * 2.0)

    @ttl.datamovement()
    def writer():
        for r in range(rows):
            with y_dfb.wait() as blk:
                ttl.copy(blk, y[r, 0]).wait()


x = ttnn.from_torch(torch.rand((64, 32)), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)  # MAKE-X
y = ttnn.zeros((64, 32), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)  # MAKE-Y
scale(x, y)  # CALL
'''


@dataclass(frozen=True)
class HostScript:
    mistake: str
    text: str
    lines: tuple[int, ...]  # 1-based: where the error may be reported (none: a command-line mistake)
    cli_args: tuple[str, ...] = ()
    known: str | None = None


def _with(marker: str, replacement: str) -> tuple[str, int]:
    """KERNEL with the line marked ``marker`` replaced by ``replacement``; the wrong line is the
    one ending in ``# HERE``, else the last one. Returns the text and that line (1-based)."""
    lines = KERNEL.splitlines()
    index = next(i for i, line in enumerate(lines) if line.endswith(f"# {marker}"))
    indent = lines[index][:len(lines[index]) - len(lines[index].lstrip())]
    new = [indent + part for part in replacement.splitlines()]
    here = next((i for i, part in enumerate(new) if part.endswith("# HERE")), len(new) - 1)
    lines[index:index + 1] = new
    return "\n".join(lines) + "\n", index + here + 1


@dataclass(frozen=True)
class HostMistake:
    name: str
    draw: Callable[[Callable], tuple[str, str]]  # draw -> (marker, replacement: its last line is wrong)
    known: str | None = None
    #: markers of other lines the error may name (where the wrong value is first used)
    also: tuple[str, ...] = ()

    def script(self, draw: Callable) -> HostScript:
        marker, replacement = self.draw(draw)
        text, line = _with(marker, replacement)
        others = tuple(i for i, text_line in enumerate(text.splitlines(), 1)
                       for name in self.also if text_line.endswith(f"# {name}"))
        return HostScript(self.name, text, (line, *others), known=self.known)


def _ints(draw, lo: int, hi: int) -> int:
    return draw(st.integers(lo, hi))


X = "x = ttnn.from_torch({values}, dtype={dtype}, layout={layout})"
TILE = "ttnn.TILE_LAYOUT"

HOST_MISTAKES: tuple[HostMistake, ...] = (
    HostMistake("torch_dtype", lambda d: ("MAKE-X", X.format(
        values="torch.rand((64, 32))", dtype=d(st.sampled_from(("torch.bfloat16", "torch.float32", "torch.int32"))),
        layout=TILE)), known="7.15"),
    HostMistake("string_dtype", lambda d: ("MAKE-X", X.format(
        values="torch.rand((64, 32))", dtype=repr(d(st.sampled_from(("bfloat16", "float32", "bf16")))),
        layout=TILE)), known="7.15"),
    HostMistake("string_layout", lambda d: ("MAKE-X", X.format(
        values="torch.rand((64, 32))", dtype="ttnn.bfloat16",
        layout=repr(d(st.sampled_from(("TILE", "TILE_LAYOUT", "row_major")))))), known="7.15"),
    HostMistake("not_a_tensor", lambda d: ("MAKE-X", X.format(
        values=d(st.sampled_from(("3", "[1.0, 2.0]", "None", "'x'", "3.5"))), dtype="ttnn.bfloat16",
        layout=TILE)), known="7.15"),
    HostMistake("bool_tensor", lambda d: ("MAKE-X", "x = ttnn.from_torch(torch.rand((64, 32)) > 0.5, "
                                           f"layout={TILE})"), known="7.15"),
    HostMistake("negative_dimension", lambda d: ("MAKE-Y", f"y = ttnn.zeros(({-32 * _ints(d, 1, 4)}, 32), "
                                                 "dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)"), known="7.15"),
    HostMistake("zero_dimension_rand", lambda d: ("MAKE-Y", f"y = ttnn.rand((0, {_ints(d, -64, -1)}), "
                                                  "dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)"), known="7.15"),
    HostMistake("device_id_past_system", lambda d: ("MAKE-Y", f"dev = ttnn.open_device(device_id={_ints(d, 8, 999)})"),
                known="7.15"),
    HostMistake("negative_device_id", lambda d: ("MAKE-Y", f"dev = ttnn.open_device(device_id={_ints(d, -9, -1)})"),
                known="7.15"),
    HostMistake("kernel_missing_argument", lambda d: ("CALL", "scale(x)"), known="7.15"),
    HostMistake("kernel_extra_argument", lambda d: ("CALL", f"scale(x, y, {d(st.sampled_from(('x', 'y', '3')))})"),
                known="7.15"),
    HostMistake("kernel_unknown_keyword", lambda d: ("CALL", "scale(x, y, scale_by=2)"), known="7.15"),
    # a published-spelling kernel takes any argument; the first use as a tensor reports it
    HostMistake("kernel_given_torch_tensor", lambda d: ("CALL", "scale(torch.rand((64, 32)), y)"), also=("USES-X",)),
    HostMistake("shape_index_past_rank", lambda d: (
        "MAKE-Y", "flat = ttnn.from_torch(torch.rand((64,)), dtype=ttnn.bfloat16)\n"
                  f"cols = flat.shape[{_ints(d, 1, 3)}]"), known="7.15"),
    HostMistake("mesh_shard_not_divisible", lambda d: (
        "MAKE-X", "mesh = ttnn.open_mesh_device(ttnn.MeshShape(1, 3))\n"
                  "x = ttnn.from_torch(torch.rand((64, 32)), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, "
                  "device=mesh, mesh_mapper=ttnn.ShardTensorToMesh(mesh, dim=1))"), known="7.15"),
    HostMistake("mesh_bigger_than_system", lambda d: (
        "MAKE-X", f"mesh = ttnn.open_mesh_device(ttnn.MeshShape({_ints(d, 2, 8)}, {_ints(d, 9, 16)}))"), known="7.15"),
    HostMistake("to_torch_of_torch", lambda d: ("CALL", "scale(x, y)\nresult = ttnn.to_torch(torch.rand((64, 32)))"),
                known="7.15"),
    HostMistake("block_float_row_major", lambda d: ("MAKE-X", X.format(
        values="torch.rand((64, 32))", dtype=d(st.sampled_from(("ttnn.bfloat8_b", "ttnn.bfloat4_b"))),
        layout="ttnn.ROW_MAJOR_LAYOUT")), known="7.15"),
    HostMistake("shape_not_a_tuple", lambda d: (
        "MAKE-Y", "y = ttnn.zeros({}, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)".format(
            d(st.sampled_from(("'64x32'", "64.0", "None"))))), known="7.15"),
    HostMistake("closed_device", lambda d: (
        "MAKE-Y", "device = ttnn.open_device(device_id=0)\nttnn.close_device(device)\n"
                  "y = ttnn.zeros((64, 32), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device)"),
                known="7.15"),
    HostMistake("buffer_like_torch_tensor", lambda d: (
        "KERNEL-SCOPE", "rows = x.shape[0] // 32\nextra_dfb = ttl.make_dataflow_buffer_like(torch.zeros(32, 32), "
                        "shape=(1, 1), block_count=2)")),
    HostMistake("bad_grid", lambda d: ("CALL", "@ttl.operation(grid={})  # HERE\ndef other(x):\n    pass\n"
                                       .format(d(st.sampled_from(("(0, 2)", "(2, -1)", "'huge'", "(1.5, 2)")))))),
)


@dataclass(frozen=True)
class GridMistake:
    """``tilecraft run --grid VALUE`` for a ``grid="auto"`` program: a usage error, exit status 2."""

    value: str
    known: str | None = "7.14"

    def script(self) -> HostScript:
        text = KERNEL.replace("@ttl.operation(grid=(1, 1))", '@ttl.operation(grid="auto")')
        return HostScript("bad_grid_option", text, (), ("--grid", self.value), self.known)


GRID_VALUES_KNOWN = ("0", "0,0", "3,-1", "-2,4", "0,5")
