"""Mistakes in host-side calls (ttnn functions, kernel launches) are diagnostics at the user's line.

Each script in ``tests/host_misuse/`` makes one mistake on the line marked ``# ERROR-HERE``;
``tilecraft run`` must report it there with its code (E0501 a wrong type, E0502 a wrong value,
E0503 an index out of range, E0540 a ttnn function tilecraft does not simulate), status 1, and
neither a Python traceback nor tilecraft's "internal error" banner. Run in-process, the same
mistakes are ordinary ``TypeError`` / ``ValueError`` / ``IndexError`` / ``AttributeError``
exceptions, so scripts that catch those keep working.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest
import torch

from tests.paths import TESTS
import tilecraft
import tilecraft as ttl
import tilecraft.ttnn as ttnn
from tilecraft.cli import main
from tilecraft.diagnostics import UsageTypeError
from tilecraft.lang.tensor_params import TensorUse, tensor_uses

HERE = TESTS / "host_misuse"
PACKAGE = str(Path(tilecraft.__file__).parent)

pytestmark = pytest.mark.usefixtures("fresh_process_state")


@dataclass(frozen=True)
class Case:
    name: str
    code: str
    names: tuple[str, ...]  # the message says these
    exception: type = TypeError

    @property
    def path(self) -> Path:
        return HERE / f"{self.name}.py"

    def line(self) -> int:
        lines = self.path.read_text().splitlines()
        (line,) = [i for i, text in enumerate(lines, 1) if text.endswith("# ERROR-HERE")]
        return line


CASES = [
    Case("from_torch_torch_dtype", "E0501", ("ttnn.bfloat16", "torch.float64")),
    Case("from_torch_not_a_tensor", "E0501", ("torch.Tensor", "int")),
    Case("string_dtype", "E0501", ("dtype", "'bfloat16'")),
    Case("string_layout", "E0501", ("TILE_LAYOUT", "'TILE'")),
    Case("bool_tensor", "E0501", ("torch.bool",)),
    Case("negative_extent", "E0502", ("non-negative", "-32"), ValueError),
    Case("device_out_of_range", "E0502", ("device_id", "99", "4 devices"), ValueError),
    Case("shape_index_out_of_range", "E0503", ("dimension 1", "rank-1"), IndexError),
    Case("shape_in_kernel_scope", "E0503", ("dimension 1", "rank-1"), IndexError),
    Case("mesh_shard_uneven", "E0502", ("ShardTensorToMesh", "3 devices"), ValueError),
    Case("mesh_bigger_than_system", "E0502", ("8 devices", "has 4"), ValueError),
    Case("kernel_missing_argument", "E0501", ("kern()", "'y'")),
    Case("kernel_extra_argument", "E0501", ("kern()", "too many")),
    # the published simulator rejects a 1-D tile tensor when it is made; here ttnn makes it, a kernel cannot read it
    Case("kernel_one_d_tile_tensor", "E0502", ("'a'", "kern()", "1-D", "[4096]"), ValueError),
    Case("host_tensor_slice", "E0501", ("t[0, 0:2]", "ttl.copy", "ttnn.to_torch(t)")),
    # where the kernel uses a parameter as a tensor (y.shape, y[r, c], a buffer made like y), the
    # launch says what was passed instead, and where the kernel uses it
    Case("kernel_none_argument", "E0501", ("'y'", "kern()", "None", "y.shape", "line 9")),
    # checked before anything is allocated: the bytes the tensor takes and the chip's DRAM
    Case("zeros_beyond_dram", "E0502", ("[2147483648, 2147483648]", "bfloat16", "8 EiB", "12 GiB", "wormhole_b0"),
         ValueError),
    Case("from_torch_beyond_dram", "E0502", ("[131072, 262144]", "float32", "128 GiB", "12 GiB", "wormhole_b0"),
         ValueError),
    Case("kernel_int_argument", "E0501", ("'y'", "kern()", "the int 3", "y[0, 0]", "line 16")),
    # a ttnn function the models use that tilecraft does not simulate, and a misspelt one
    Case("ttnn_unsimulated_function", "E0540", ("ttnn.dram_prefetcher", "does not simulate", "docs/ttnn.md"),
         AttributeError),
    Case("ttnn_unknown_function", "E0540", ("ttnn.multiplyy", "did you mean 'multiply'"), AttributeError),
    # a tensor read after ttnn.deallocate freed it: the message names the line that freed it
    Case("ttnn_read_after_deallocate", "E0502", ("deallocated at", "ttnn_read_after_deallocate.py:6:"), ValueError),
]


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_reported_at_the_users_line(case: Case, capsys: pytest.CaptureFixture[str],
                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TILECRAFT_DEVICES", raising=False)
    assert main(["run", str(case.path)]) == 1
    err = capsys.readouterr().err
    assert f"{case.path}:{case.line()}:" in err and f"error[{case.code}]" in err, err
    for name in case.names:
        assert name in err, f"{name!r} missing from:\n{err}"
    assert "internal error" not in err and "Traceback" not in err and PACKAGE not in err, err


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_a_python_exception_of_the_usual_type(case: Case, monkeypatch: pytest.MonkeyPatch) -> None:
    import runpy
    monkeypatch.delenv("TILECRAFT_DEVICES", raising=False)
    with pytest.raises(case.exception):
        runpy.run_path(str(case.path), run_name="__main__")


def test_every_script_is_a_case() -> None:
    assert {p.stem for p in HERE.glob("*.py")} == {c.name for c in CASES}


@ttl.operation(grid=(1, 1))
def copy_tiles(a, y, bias=None, tiles=1):
    """Copies ``tiles`` tiles of ``a`` into ``y``; ``bias`` is optional (tested before its use)."""
    if bias is not None:
        assert bias.shape == a.shape
    a_dfb = ttl.make_dataflow_buffer_like(a, shape=(1, 1), block_count=2)

    @ttl.datamovement()
    def mover():
        for c in range(tiles):
            with a_dfb.reserve() as blk:
                ttl.copy(a[0, c], blk).wait()
            with a_dfb.wait() as blk:
                ttl.copy(blk, y[0, c]).wait()


def test_numbers_and_an_untested_none_are_arguments_a_kernel_may_take() -> None:
    """Only parameters the kernel uses as tensors must be tensors: a count used in range() and
    an optional tensor tested with ``is not None`` take an int and None."""
    a = ttnn.from_torch(torch.rand(32, 64), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
    y = ttnn.zeros((32, 64), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
    copy_tiles(a, y, None, 2)
    assert torch.equal(ttnn.to_torch(y), ttnn.to_torch(a))


def test_a_torch_tensor_where_a_ttnn_tensor_goes() -> None:
    a = ttnn.from_torch(torch.rand(32, 64), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
    with pytest.raises(UsageTypeError) as info:
        copy_tiles(a, torch.zeros(32, 64))
    line = next(i for i, text in enumerate(Path(__file__).read_text().splitlines(), 1) if "copy(blk, y[0, c])" in text)
    assert str(info.value) == ("argument 'y' of kernel copy_tiles() is a torch.Tensor, but the kernel uses it as a "
                               f"tensor: y[0, c] (line {line})")
    assert "ttnn.from_torch" in info.value.hint


def test_which_parameters_count_as_tensors() -> None:
    """Read as a tensor (attribute, 2-D slice, buffer made like it) and neither rebound nor tested."""
    def kern(a, b, c, n, rows, d):
        b = a
        if c is not None:
            print(c.shape)
        print(b[0, 0], n[0], rows + 1)
        ttl.make_dataflow_buffer_like(d, shape=(1, 1))
        return a.dtype

    code = kern.__code__
    assert tensor_uses(kern) == {"d": TensorUse("ttl.make_dataflow_buffer_like(d, ...)", code.co_firstlineno + 5),
                                 "a": TensorUse("a.dtype", code.co_firstlineno + 6)}
