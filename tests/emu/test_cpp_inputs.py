"""Inputs the language level accepts, at ``--level cpp``: tensors wherever they live run the same,
and a grid past the chip is a diagnostic at the program.

A TT-Lang script may make its tensors without ``device=`` (host tensors), or on several devices;
the language level reads their values either way. The emitted program reads buffers at device
addresses, and each ``ttnn.open_device`` allocates its own: ``--level cpp`` once put host tensors
on a device of its own next to the script's device tensors, so two buffers shared an address and
the kernels read one tensor's bytes as another's (issue 21: 38 of 166 generated programs gave
wrong results without a diagnostic). Both levels must now match torch, and leave the inputs as
they were; a hand-written host that mixes devices gets E5109 (tests/emu/test_host.py).
"""

from __future__ import annotations

from pathlib import Path

import pytest
import torch

from tests.emu.harness import script_values

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = Path(__file__).resolve().parent / "cpp_inputs" / "scale_add.py"

pytestmark = pytest.mark.usefixtures("fresh_process_state")


@pytest.mark.parametrize("placement", ["host", "mixed", "two_devices"])
@pytest.mark.parametrize("level", ["language", "cpp"])
def test_tensors_on_the_host_or_on_other_devices_give_the_torch_result(level: str, placement: str) -> None:
    torch.manual_seed(0)
    x_values, z_values = torch.rand((64, 32)), torch.rand((64, 32))  # what the script makes
    code, (x, z, y), err = script_values(SCRIPT, placement, "--level", level)
    assert code == 0, err[-3000:]
    assert torch.equal(x, x_values) and torch.equal(z, z_values)  # the inputs are not overwritten
    # fp32 throughout: x * 2 is exact, so the one rounding of the add is torch's
    assert torch.equal(y, x_values * 2.0 + z_values)


def test_a_grid_past_the_chip_is_a_diagnostic_at_the_program() -> None:
    """``--grid 11,1`` simulates at the language level; the emulator runs on Wormhole's 8x8 cores."""
    script = ROOT / "examples" / "elementwise_4_grid_full.py"
    code, values, err = script_values(script, "--grid", "11,1", "--level", "cpp")
    assert code == 1 and values == []
    decorator = next(i for i, line in enumerate(script.read_text().splitlines(), 1) if "@ttl.operation" in line)
    assert f"{script}:{decorator}:1: error[E5102]: program " in err, err
    assert "runs on a 11x1 grid of cores, outside the 8x8 compute grid of wormhole_b0" in err
    assert "Traceback" not in err
