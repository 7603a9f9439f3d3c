"""Tenstorrent's LLK test suite on tilecraft's Tensix machine, through the harness.

The sample runs three parametrizations of the suite's own ``test_eltwise_unary_datacopy.py``
(its stimuli, its golden generator, its comparison) in a subprocess through the harness plugin;
they share one ``build.h`` (formats are runtime arguments), so one machine build serves all
three. A second sample runs two of the fuser's generated kernels (``test_fused.py``), which bring
their own ``RuntimeParams`` instead of a ``build.h``. The whole-file runs of the first slice's
target files are slow. The stand-in device
itself (the ``ttexalens`` calls the suite makes) is checked directly, without the suite.
"""

from __future__ import annotations

import importlib.util
import struct
import sys
from pathlib import Path

import pytest

from benchmarks import llk_suite
from tilecraft.emu.llk_suite import device, runner, selection, suite_tree
from tilecraft.emu.llk_suite.harness_env import STANDINS, missing_suite_modules
from tilecraft.wheels import WheelUnavailable

DATACOPY = "test_eltwise_unary_datacopy.py"
SAMPLE = [f"{DATACOPY}::test_eltwise_unary_datacopy[formats:{formats}-dest_acc:No-num_faces:4-tilize:No-"
          "input_dimensions:[64, 64]]" for formats in ("Float16_b->Float16_b", "Float16->Float16", "Bfp8_b->Float16_b")]
#: Blackhole: a 16-bit Dst copy and an fp32 one (unpacked to Dst; ZEROACC's zero-flag clear must keep the data)
BLACKHOLE_SAMPLE = [f"{DATACOPY}::test_eltwise_unary_datacopy[formats:{formats}-dest_acc:{acc}-num_faces:4-tilize:No-"
                    "input_dimensions:[64, 64]]" for formats, acc in (("Float16_b->Float16_b", "No"), ("Float32->Float32", "Yes"))]

FUSED = "test_fused.py"
#: two of the fuser's pipelines: an FPU add of 8x8 tiles, and the packer's four ReLU modes over four stages
FUSED_SAMPLE = [f"{FUSED}::test_fuser[{case}]" for case in ("fpu_elwadd", "pack_relu")]


@pytest.fixture(scope="module")
def python_tests():
    missing = missing_suite_modules()
    if missing:
        pytest.skip(f"the LLK suite's Python packages are not installed ({', '.join(missing)}): pip install -e '.[llk]'")
    try:
        return suite_tree.python_tests_dir(suite_tree.ensure_llk_root())
    except WheelUnavailable as error:
        pytest.skip(f"the ttnn wheel (the LLK test suite) could not be downloaded: {error}")


@pytest.fixture
def machine_build():
    """Skip where this checkout has no Tensix machine build (tilecraft.emu.tensix_build) to run kernels."""
    if importlib.util.find_spec("tilecraft.emu.tensix_build") is None:
        pytest.skip("tilecraft.emu.tensix_build (the Tensix machine's build of LLK test sources) is not in this checkout")


@pytest.fixture
def exalens(monkeypatch):
    """The stand-in ``ttexalens.tt_exalens_lib``, imported as the suite imports it, on a fresh device."""
    monkeypatch.syspath_prepend(str(STANDINS))
    for name in [name for name in sys.modules if name == "ttexalens" or name.startswith("ttexalens.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setenv("CHIP_ARCH", "wormhole")
    device.close_context()
    from ttexalens import tt_exalens_init, tt_exalens_lib

    tt_exalens_init.init_ttexalens()
    yield tt_exalens_lib
    device.close_context()
    for name in [name for name in sys.modules if name == "ttexalens" or name.startswith("ttexalens.")]:
        del sys.modules[name]  # the stand-in stays out of the rest of the session


def test_stand_in_device_reads_back_what_the_suite_writes(exalens):
    exalens.write_to_device("0,0", 0x20000, bytes(range(16)))
    exalens.write_words_to_device("1,2", 0x1FFB8, [0xA3, 0xFF])
    assert exalens.read_from_device("0,0", 0x20004, num_bytes=4) == bytes([4, 5, 6, 7])
    assert exalens.read_words_from_device("1,2", 0x1FFB8, word_count=2) == [0xA3, 0xFF]
    assert exalens.read_word_from_device("1,2", 0x1FFBC, 0) == 0xFF
    # Each core has its own L1.
    assert exalens.read_word_from_device("0,0", 0x1FFB8) == 0
    context = exalens.check_context()
    assert str(context.devices[0]._arch) == "wormhole_b0"
    assert len(device.current_context().devices[0].l1("0,0")) == device.L1_SIZE["wormhole"]
    assert exalens.convert_coordinate("3,4").to_str("logical") == "3,4"


def test_stand_in_device_refuses_what_only_silicon_has(exalens):
    with pytest.raises(device.HardwareOnly, match="`load_elf` is hardware-only"):
        exalens.load_elf(elf_file="unpack.elf", location="0,0", risc_name="trisc0")
    with pytest.raises(device.HardwareOnly, match="get_tensix_state"):
        exalens.get_tensix_state("0,0", device_id=0)
    with pytest.raises(device.DeviceAccessError, match="outside the core's 0x16e000-byte L1"):
        exalens.write_to_device("0,0", device.L1_SIZE["wormhole"] - 2, struct.pack("<I", 1))
    with pytest.raises(device.DeviceAccessError, match="outside the 8x8 worker grid"):
        exalens.read_from_device("9,0", 0, num_bytes=4)


class _TrailingBoolVariant:
    """The two class fields and the one instance field of the suite's TestConfig runtime_args reads."""

    SPEED_OF_LIGHT = False
    TENSIX_LOCATION = "0,0"
    RUNTIME_ADDRESS_NON_COVERAGE = 0x20000
    runtime_format = "@II?"
    skip_build_header = False


class _OwnRuntimeParamsVariant(_TrailingBoolVariant):
    """A variant like the fuser's: no generated build.h; its source defines its own RuntimeParams."""

    skip_build_header = True


def test_runtime_args_are_sizeof_runtime_params_from_l1(exalens):
    # write_runtimes_to_L1 writes struct.pack("@II?") = 9 bytes; the C++ struct is 12 with padding.
    exalens.write_to_device("0,0", 0x20000, struct.pack("@II?", 7, 9, True) + b"\xaa" * 3)
    assert runner.runtime_args(_TrailingBoolVariant()) == struct.pack("<II", 7, 9) + b"\x01\xaa\xaa\xaa"


def test_own_runtime_params_are_left_to_the_kernels_size(exalens):
    # the suite's runtime_format ("@III" and the formats) does not describe the kernel's own struct:
    # no bytes are handed over; the machine's TRISCs copy sizeof(RuntimeParams) from L1 themselves
    exalens.write_to_device("0,0", 0x20000, struct.pack("@II?", 7, 9, True))
    assert runner.runtime_args(_OwnRuntimeParamsVariant()) is None


def test_every_exclusion_names_a_file_of_the_suite(python_tests):
    assert set(selection.EXCLUDED) <= set(selection.suite_files(python_tests))
    assert set(selection.FOCUS) <= set(selection.included_files(python_tests))


def test_datacopy_sample_passes_the_suites_goldens(python_tests, machine_build, tmp_path):
    result = llk_suite.run_file(python_tests, DATACOPY, tmp_path, "wormhole", targets=SAMPLE, timeout_s=900)
    assert result.note == ""
    assert not result.failed_cases, "\n".join(result.failed_cases)
    assert (result.passed, result.errors) == (len(SAMPLE), 0)


def test_fused_sample_passes_the_suites_goldens(python_tests, machine_build, tmp_path):
    # the fuser's generated kernels: no build.h, their own (empty) RuntimeParams, the fuser's goldens
    result = llk_suite.run_file(python_tests, FUSED, tmp_path, "wormhole", targets=FUSED_SAMPLE, timeout_s=900)
    assert result.note == ""
    assert not result.failed_cases, "\n".join(result.failed_cases)
    assert (result.passed, result.errors) == (len(FUSED_SAMPLE), 0)


# slow: the Blackhole runner and machine objects are a second build of the whole machine (about
# 45 s CPU cold on top of Wormhole's); tests/emu/tensix/test_blackhole.py checks the units by default
@pytest.mark.slow
def test_datacopy_sample_passes_the_suites_goldens_on_blackhole(python_tests, machine_build, tmp_path):
    result = llk_suite.run_file(python_tests, DATACOPY, tmp_path, "blackhole", targets=BLACKHOLE_SAMPLE, timeout_s=900)
    assert result.note == ""
    assert not result.failed_cases, "\n".join(result.failed_cases)
    assert (result.passed, result.errors) == (len(BLACKHOLE_SAMPLE), 0)


@pytest.mark.slow
@pytest.mark.parametrize("name", selection.FOCUS)
def test_focus_file_passes_whole(python_tests, machine_build, tmp_path, name):
    result = llk_suite.run_file(python_tests, name, tmp_path, "wormhole", timeout_s=3 * 3600)
    assert result.note == ""
    assert not result.failed_cases, "\n".join(result.failed_cases)
    assert result.errors == 0 and result.passed > 0


@pytest.mark.parametrize("doc", ["docs/emulator.md", "benchmarks/README.md"])
def test_exclusions_are_documented_with_their_reasons(doc):
    text = (Path(__file__).resolve().parents[2] / doc).read_text()
    for name, reason in selection.EXCLUDED.items():
        assert f"`{name}`" in text and reason in text, name
