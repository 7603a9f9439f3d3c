"""The command line: options that describe the simulated system, and their errors."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from tilecraft.cli import main

EXAMPLE = str(Path(__file__).resolve().parent.parent / "examples" / "elementwise_4_grid_full.py")

pytestmark = pytest.mark.usefixtures("fresh_process_state")


@pytest.mark.parametrize("grid", ["0", "0,0", "3,-1", "a,b", "8,"])
def test_bad_grid_is_a_usage_error(grid: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run", EXAMPLE, "--grid", grid]) == 2
    err = capsys.readouterr().err
    assert err.startswith("tilecraft: error: --grid takes positive integers like 8,8") and repr(grid) in err
    assert "Traceback" not in err


def test_grid_is_used(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run", EXAMPLE, "--grid", "2x2"]) == 0


def test_devices_sizes_the_simulated_system(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    script = tmp_path / "count.py"
    script.write_text("import ttnn\nprint(ttnn.GetNumAvailableDevices())\n"
                      "mesh = ttnn.open_mesh_device(ttnn.MeshShape(1, 6))\n")
    monkeypatch.delenv("TILECRAFT_DEVICES", raising=False)
    assert main(["run", str(script), "--devices", "6"]) == 0
    assert capsys.readouterr().out == "6\n"
    assert main(["run", str(script)]) == 1  # 4 devices by default, as the published simulator
    out, err = capsys.readouterr()
    assert out == "4\n" and f"{script}:3:8: error[E0502]: a 1x6 mesh needs 6 devices; the simulated system has 4" in err
    monkeypatch.setenv("TILECRAFT_DEVICES", "8")
    assert main(["run", str(script)]) == 0 and capsys.readouterr().out == "8\n"
    assert main(["run", str(script), "--devices", "0"]) == 2
    assert "--devices takes a positive number" in capsys.readouterr().err
    monkeypatch.setenv("TILECRAFT_DEVICES", "x")
    assert main(["run", str(script)]) == 2
    assert "TILECRAFT_DEVICES must be a positive number" in capsys.readouterr().err


def test_a_wheel_that_cannot_be_downloaded_is_one_line_not_an_internal_error(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """PyKernel's table and the real dataflow API need the ttnn wheel's headers: without a package
    index the run says what failed and what to reach, not "internal error" with a traceback."""
    from tilecraft import wheel_headers

    def unreachable() -> Path:
        raise wheel_headers.HeadersUnavailable("could not download ttnn==0.81.1 (its kernel headers): "
                                               "Is the package index reachable from here?")

    monkeypatch.setattr(wheel_headers, "ensure_headers", unreachable)
    script = tmp_path / "needs_headers.py"
    script.write_text("from tilecraft.emu import dataflow_api_table\ndataflow_api_table.kernel_include_root()\n")
    assert main(["run", str(script)]) == 1
    err = capsys.readouterr().err
    assert err == ("tilecraft: error: could not download ttnn==0.81.1 (its kernel headers): "
                   "Is the package index reachable from here?\n")


def test_a_run_gives_back_the_callers_argv_and_import_path(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """``main`` called in-process (a test, a notebook) sees the script's argv and directory only
    while the script runs: a second call built from ``sys.argv`` once ran with the first script's."""
    script = tmp_path / "args.py"
    script.write_text("import sys\nprint(sys.argv[1:], sys.path[0] == sys.argv[0].rsplit('/', 1)[0])\n")
    monkeypatch.setattr(sys, "argv", ["host", "--arch", "blackhole"])
    path_before = list(sys.path)
    assert main(["run", str(script), "one", "two"]) == 0
    assert capsys.readouterr().out == "['one', 'two'] True\n"
    assert sys.argv == ["host", "--arch", "blackhole"] and sys.path == path_before
