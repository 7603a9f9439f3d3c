"""The SFPU functions of ``--numerics device`` (tilecraft/sim/sfpu_machine.py): the LLK's own
algorithms on the Tensix machine, with the lowering's splits of composite functions; the examples'
bit-for-bit equality with ``--level cpp`` is tests/emu/test_numerics_device.py."""

from __future__ import annotations

import torch

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
