"""The device arithmetic of ``--numerics device`` at the language level, without the emulator
(tests/emu/test_numerics_device.py compares it with ``--level cpp`` bit for bit)."""

from __future__ import annotations

import contextlib
import io
import re

import pytest
import torch

import tilecraft as ttl
import tilecraft.ttnn as ttnn
from tilecraft import session
from tilecraft.cli import main
from tilecraft.dtypes import bfloat8_b, bfloat16, float32
from tilecraft.numerics import quantize
from tilecraft.sim.device_math import DeviceMath, device_math
from tilecraft.sim import tile_math


def test_the_packer_rounds_ties_away_from_zero_where_the_default_rounds_to_even() -> None:
    tie = torch.tensor([1 + 2 ** -8, -(1 + 2 ** -8), float("nan"), 2.0 ** -130] * 4, dtype=torch.float32)
    packed = DeviceMath().pack(tie, bfloat16).float()
    assert packed[:4].tolist() == [1 + 2 ** -7, -(1 + 2 ** -7), float("inf"), 0.0]
    assert quantize(tie, bfloat16).float()[:2].tolist() == [1.0, -1.0]


def test_float32_results_pack_unchanged_from_an_fp32_dst() -> None:
    x = torch.randn(32, 32)
    assert torch.equal(DeviceMath().pack(x, float32), x)


def test_bfloat8_b_rounds_twice() -> None:
    # 1 + 3/128 + 2^-10 in a group led by 1.0: the packer's 6-bit intermediate rounds it to 1 + 1/32
    # (ties away), the default's single rounding of the exact quotient to 1 + 1/64 + ... = 65.5 + 1/16 steps
    x = torch.zeros(32, 32)
    x[0, 0], x[0, 1] = 1.0, 1 + 3 / 128 + 2 ** -10
    assert DeviceMath().pack(x, bfloat8_b).float()[0, 1].item() == 1 + 1 / 32
    assert quantize(x, bfloat8_b).float()[0, 1].item() == 1 + 1 / 64 + 1 / 64


def test_lower_fidelity_costs_accuracy_and_hifi4_is_close_to_the_ideal_product() -> None:
    gen = torch.Generator().manual_seed(1)
    a = torch.randn(2, 64, 64, generator=gen).bfloat16().float()
    b = torch.randn(2, 64, 64, generator=gen).bfloat16().float()
    exact = a.double() @ b.double()
    err = {f: (DeviceMath(f).matmul(a, b).double() - exact).abs().max().item() for f in ("LoFi", "HiFi2", "HiFi4")}
    assert err["LoFi"] > err["HiFi2"] > err["HiFi4"]
    assert err["LoFi"] > 0.05 * exact.pow(2).mean().sqrt().item()  # LoFi keeps 4 and 6 fraction bits of the operands
    ideal = (tile_math.matmul(a, b).double() - exact).abs().max().item()
    assert err["HiFi4"] > ideal  # groups of eight products keep about 12 bits, even at HiFi4


def test_an_unknown_numerics_mode_is_refused() -> None:
    with pytest.raises(ValueError, match="--numerics takes one of ideal, device"):
        device_math("exact")


@pytest.mark.usefixtures("fresh_process_state")
def test_the_metal_level_refuses_device_numerics(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run", "examples/matmul_1_single_tile.py", "--level", "metal", "--numerics", "device"]) == 2
    assert "--numerics device computes at the language level" in capsys.readouterr().err


def profile_output(*options: str) -> str:
    """What ``tilecraft profile`` prints; without values the script's own result check cannot pass,
    so the profile then ends with E0710 (exit 1) after printing its report."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        code = main(["profile", "examples/matmul_1_single_tile.py", *options])
    assert code == (1 if "--no-values" in options else 0)
    return out.getvalue()


@pytest.mark.usefixtures("fresh_process_state")
def test_profile_shows_what_each_fidelity_costs_in_accuracy() -> None:
    text = profile_output()
    assert "accuracy by fidelity: max |error| of each store against an fp64 golden" in text
    rows = {line.split()[0]: line for line in text.splitlines() if line.strip().startswith("matmul_1_single_tile.py:")
            and "(" in line and "%)" in line}
    product = rows["matmul_1_single_tile.py:51"]  # nxt.store(partial + a_blk @ b_blk), in bfloat16
    errors = [float(cell) for cell in re.findall(r"([0-9.e+-]+) \(", product)]
    assert len(errors) == 4  # LoFi, HiFi2, HiFi3, HiFi4
    assert errors[0] > 4 * errors[3] > 0  # LoFi is not free; HiFi4 keeps the bfloat16 store's rounding
    copy = rows["matmul_1_single_tile.py:53"]  # y_blk.store(total): a copy costs nothing at any fidelity
    assert re.findall(r"([0-9.e+-]+) \(", copy) == ["0"] * 4


@pytest.mark.usefixtures("fresh_process_state")
def test_profile_without_values_measures_no_accuracy() -> None:
    assert "accuracy by fidelity" not in profile_output("--no-values")


@ttl.operation(grid=(1, 1))
def add_blocks(a, b, y):
    a_dfb = ttl.make_dataflow_buffer_like(a, shape=(1, 1), block_count=2)
    b_dfb = ttl.make_dataflow_buffer_like(b, shape=(1, 1), block_count=2)
    y_dfb = ttl.make_dataflow_buffer_like(y, shape=(1, 1), block_count=2)

    @ttl.datamovement()
    def reader():
        with a_dfb.reserve() as ablk, b_dfb.reserve() as bblk:
            ttl.copy(a[0, 0], ablk).wait()
            ttl.copy(b[0, 0], bblk).wait()

    @ttl.compute()
    def compute():
        with a_dfb.wait() as x, b_dfb.wait() as z, y_dfb.reserve() as out:
            out.store(x + z)

    @ttl.datamovement()
    def writer():
        with y_dfb.wait() as blk:
            ttl.copy(blk, y[0, 0]).wait()


def added(numerics: str, dtype) -> torch.Tensor:
    torch.manual_seed(2)
    a, b = (torch.randint(-2 ** 30, 2 ** 30, (32, 32)) for _ in range(2))
    if dtype is not ttnn.int32:
        a, b = a.float() / 2 ** 30, b.float() / 2 ** 30 * 2 ** -8  # many ties to round
    tensors = [ttnn.from_torch(t, dtype=dtype, layout=ttnn.TILE_LAYOUT) for t in (a, b, torch.zeros(32, 32))]
    with session.using(numerics=numerics):
        add_blocks(*tensors)
    return ttnn.to_torch(tensors[2])


def test_integer_math_stays_exact_and_float_math_changes_with_the_device_numerics() -> None:
    exact = added("ideal", ttnn.int32)
    assert torch.equal(added("device", ttnn.int32), exact)  # no trip through fp32 (2^30-sized values)
    assert not torch.equal(added("device", ttnn.bfloat16), added("ideal", ttnn.bfloat16))  # ELWADD, ties away
