"""What the Metalium-level interpreter (``sim/metal_level``, ``--level metal``) checks that the
emulator (``--level cpp``) does not: every page a kernel reads from a circular buffer was written
(E4103). The emulator's L1 holds whatever bytes are there, as the device's does, so a kernel that
reads a page nothing wrote computes on stale data without a finding; this check is one of the
reasons the interpreter is kept (docs/emulator.md, section 8)."""

from __future__ import annotations

from dataclasses import fields

import pytest

from tests.paths import EXAMPLES
from tilecraft.cli import main
from tilecraft.metal import kir
from tilecraft.metal.lowered import LoweredProgram

pytestmark = pytest.mark.usefixtures("fresh_process_state")

EXAMPLE = EXAMPLES / "elementwise_1_single_tile.py"


@pytest.fixture
def reader_reads_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    """A planted lowering bug: the reading kernel (``load``) pushes its pages without reading into them."""
    lowered = LoweredProgram.metal

    def drop_reads(body: list) -> list:
        for op in body:
            for f in fields(op):
                if f.metadata.get("region"):
                    setattr(op, f.name, drop_reads(getattr(op, f.name)))
        return [op for op in body if not (isinstance(op, kir.Call) and op.fn.startswith("noc_async_read"))]

    def without_reads(self: LoweredProgram) -> kir.MetalProgram:
        metal = lowered(self)
        load = next(k for k in metal.kernels if k.name == "load")
        load.body = drop_reads(load.body)
        return metal

    monkeypatch.setattr(LoweredProgram, "metal", without_reads)


def test_a_page_read_before_anything_wrote_it_is_an_error(reader_reads_nothing: None,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run", str(EXAMPLE), "--level", "metal"]) == 1
    err = capsys.readouterr().err
    assert "error[E4103]: tile 0 of buffer 0 read before it was written (core (0, 0))" in err, err
    assert "Traceback" not in err
