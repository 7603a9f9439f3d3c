"""The SFPU functions of ``--numerics device`` (tilecraft/sim/sfpu_machine.py): the LLK's own
algorithms on the Tensix machine, with the lowering's splits of composite functions; the examples'
bit-for-bit equality with ``--level cpp`` is tests/emu/test_numerics_device.py."""

from __future__ import annotations

import pytest
import torch

from tilecraft import device_arith, session
from tilecraft.emu import launch
from tilecraft.sim import sfpu_machine


def test_a_unary_function_runs_the_llk_once_per_new_value(monkeypatch) -> None:
    x = torch.linspace(-6, 6, 40 * 33).reshape(40, 33)  # not a whole number of tiles
    launches = []
    real_run = launch.run
    monkeypatch.setattr(launch, "run", lambda program: launches.append(program) or real_run(program))
    y = sfpu_machine.unary("exp")(x)
    assert y.shape == x.shape and y.dtype == torch.float32
    ideal = torch.exp(x.double())
    assert ((y.double() - ideal).abs() / ideal).max().item() < 2 ** -20  # a polynomial, within ulps
    assert not torch.equal(y, ideal.float())  # ... not correctly rounded: the LLK's, not torch's
    assert len(launches) == 1
    again = sfpu_machine.unary("exp")(torch.cat([x[:7], x[:3]]))
    assert torch.equal(again, torch.cat([y[:7], y[:3]])) and len(launches) == 1  # remembered values


def test_composite_and_mirrored_functions_follow_the_lowerings_split() -> None:
    x = torch.linspace(-5, 5, 2048)
    hardsigmoid = sfpu_machine.unary("hardsigmoid")(x)
    assert torch.equal(sfpu_machine.unary("hardswish")(x), x * hardsigmoid)  # x * hardsigmoid(x), IEEE mul
    assert torch.equal(sfpu_machine.unary("threshold", (0.5, 2.0))(x), torch.where(x > 0.5, 2.0, x))


def test_powers_and_binaries_run_the_llk() -> None:
    x = torch.linspace(0.25, 4, 1500)
    cube = sfpu_machine.power(3.0)(x)
    assert ((cube.double() - x.double() ** 3).abs() / x.double() ** 3).max().item() < 2 ** -20
    b = torch.linspace(1, 3, 1500)
    quotient = sfpu_machine.binary("div", x, b)
    assert ((quotient.double() - x.double() / b.double()).abs() / (x.double() / b.double())).max().item() < 2 ** -20
    assert torch.equal(sfpu_machine.binary("div", x[:5], torch.tensor(2.0)), x[:5] / 2)  # broadcast operand


def spread(n: int, seed: int) -> torch.Tensor:
    """fp32 values over the whole exponent range, denormals, zeros, infinities and NaNs among them."""
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, generator=g) * torch.pow(2.0, torch.randint(-150, 128, (n,), generator=g).float())
    x[::37] = 0.0
    x[1::41] = -0.0
    x[2::53] = float("inf")
    x[3::59] = float("nan")
    x[4::61] = 1.5  # equal operands: exact cancellations
    return x


@pytest.mark.parametrize("arch", ["wormhole_b0", "blackhole"])
@pytest.mark.parametrize("fn", ["add", "sub", "mul"])
def test_the_ieee_shortcut_gives_the_machines_bits_where_it_claims_to(arch: str, fn: str) -> None:
    """``device_arith.sfpu_ieee`` is the tile-level shortcut of ``--numerics device`` for SFPU sums
    and products: where it says its IEEE result holds, the LLK's call on the machine gives the same
    bits, for two tiles (``<fn>_binary_tile``) and for a number (``<fn>_unary_tile``)."""
    a, b = spread(8 * 1024, 1), spread(8 * 1024, 2)
    b[4::61] = 1.5
    with session.using(arch=arch):
        machine = sfpu_machine.binary(fn, a, b)
        by_number = sfpu_machine.scalar(fn, 3.25)(a)
    ieee, holds = device_arith.sfpu_ieee(fn, a, b)
    assert 0.5 < holds.float().mean().item() < 0.95  # the shortcut covers most, the machine the rest
    assert torch.equal(ieee[holds].view(torch.int32), machine[holds].view(torch.int32))
    ieee, holds = device_arith.sfpu_ieee(fn, a, torch.full_like(a, 3.25))
    assert torch.equal(ieee[holds].view(torch.int32), by_number[holds].view(torch.int32))
    # ... and outside it the device is not IEEE: a denormal operand reads as zero
    assert sfpu_machine.binary("mul", torch.tensor([2.0 ** -130]), torch.tensor([2.0 ** 10])).item() == 0.0
