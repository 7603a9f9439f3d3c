"""The two steps of the suite's ``TestConfig`` that touch silicon, done on tilecraft's machine.

On hardware, ``TestConfig.build_elfs`` cross-compiles the test source three times (one ELF per
TRISC) and ``TestConfig.run_elf_files`` loads the ELFs and starts the cores through BRISC; the
suite then polls the TRISC mailboxes until each reads ``KERNEL_COMPLETE``. Here:

* :func:`build_variant` hands the same inputs (the test source, the ``build.h`` text the suite
  generates with ``generate_build_header``, the suite's own include directories and ``-D``
  defines) to the Tensix machine's build, ``tilecraft.emu.tensix_build.build_llk_test``;
* :func:`run_variant` runs the three TRISCs on the core's L1 (the same ``bytearray`` the suite's
  stimuli were written into through the stand-in ``ttexalens``), with the ``RuntimeParams`` bytes
  the suite wrote at ``RUNTIME_ARGS_START``, and then marks the mailboxes complete, as the
  firmware's ``trisc.cpp`` does after ``run_kernel`` returns. The suite's own wait, result read
  and golden comparison run unchanged.

A variant without the generated ``build.h`` (``skip_build_header``: the fuser's generated
kernels) defines its own ``RuntimeParams`` in its source; it is built without a ``build.h``, and
its TRISCs copy their own ``sizeof(RuntimeParams)`` bytes from L1 (:func:`runtime_args`).

Everything else a variant may ask for that only silicon has (coverage and profiler builds,
device print, performance counters, non-default boot modes) is refused with :class:`HardwareOnly`.
"""

from __future__ import annotations

import importlib
import struct
from pathlib import Path
from typing import Any

from .device import HardwareOnly, current_context
from .harness_env import chip_arch

#: the attribute a built variant keeps its program under
PROGRAM_ATTRIBUTE = "_tilecraft_program"
#: alignof(RuntimeParams): its widest fields are 32-bit
RUNTIME_PARAMS_ALIGNMENT = 4


class TensixBuildUnavailable(RuntimeError):
    """This checkout has no Tensix machine build (``tilecraft.emu.tensix_build``) yet."""


def build_variant(config: Any) -> None:
    """``TestConfig.build_elfs`` for tilecraft: build this variant for the Tensix machine."""
    _refuse_hardware_only(config)
    build = _tensix_build()
    program = build.build_llk_test(
        _source_path(config),
        None if config.skip_build_header else config.generate_build_header(),
        arch=chip_arch(),
        extra_includes=suite_include_dirs(config),
        defines=suite_defines(config),
    )
    setattr(config, PROGRAM_ATTRIBUTE, program)


def run_variant(config: Any) -> None:
    """``TestConfig.run_elf_files`` for tilecraft: run the built variant on the core's L1."""
    program = getattr(config, PROGRAM_ATTRIBUTE, None)
    if program is None:
        raise RuntimeError("run_elf_files was called before build_elfs: TestConfig.prepare() builds the variant")
    test_config = type(config)
    location = test_config.TENSIX_LOCATION
    device = current_context().devices[0]
    mailboxes, complete = _suite_mailboxes()
    for mailbox in mailboxes:
        device.write(location, mailbox, struct.pack("<I", 0))
    program.run(device.l1(location), runtime_args(config))
    for mailbox in mailboxes:
        device.write(location, mailbox, struct.pack("<I", complete))


def prepare_machine(arch: str) -> None:
    """Build what every variant shares (the machine's include tree and runner) ahead of the tests."""
    _tensix_build().runner_executable(arch)


def runtime_args(config: Any) -> bytes | None:
    """The ``RuntimeParams`` bytes ``write_runtimes_to_L1`` put in this core's L1.

    ``sizeof(RuntimeParams)`` of them, as the firmware copies: the suite's ``struct`` format
    (``@`` native alignment; its fields are 32-bit words, ints and bools) leaves out the padding
    after a trailing ``bool``, which the C++ struct has, up to its 4-byte alignment.

    ``None`` for a variant without the generated ``build.h`` (``skip_build_header``: the fuser's
    generated kernels): its source defines its own ``RuntimeParams``, which the suite never
    writes and its ``runtime_format`` does not describe, so the machine's TRISCs copy their own
    ``sizeof(RuntimeParams)`` bytes of L1 as they stand, as the firmware does.
    """
    test_config = type(config)
    if config.skip_build_header:
        return None
    if test_config.SPEED_OF_LIGHT:
        return b""
    size = -(-struct.calcsize(config.runtime_format) // RUNTIME_PARAMS_ALIGNMENT) * RUNTIME_PARAMS_ALIGNMENT
    return current_context().devices[0].read(test_config.TENSIX_LOCATION,
                                             test_config.RUNTIME_ADDRESS_NON_COVERAGE, size)


def suite_include_dirs(config: Any) -> list[Path]:
    """The ``-I`` directories of this variant that the machine's include tree does not provide.

    ``build_elfs`` searches ``tests/``, the source-include overlays, ``helpers/src`` and the
    variant's and the process-wide header directories, in that order. The machine's include
    tree (tilecraft/emu/tensix_tree.py) already holds the whole ``tt-llk`` tree, the suite's
    ``tests/`` included, at the same relative places, with the layers under the LLK replaced (its
    ``helpers/include`` is rewritten too), so directories inside the suite's own LLK root are
    left to it; only out-of-tree additions (``TestConfig.add_include_dirs`` and friends, or a
    variant's ``include_dirs``) are passed on, in the suite's order.
    """
    test_config = type(config)
    src_prepend, src_append = config._extra_src_include_flag_lists()
    flags = [*src_prepend, *src_append, *config._header_include_tokens()]
    llk_root = Path(test_config.LLK_ROOT).resolve()
    tests_root = Path(test_config.TESTS_WORKING_DIR).resolve()
    directories: list[Path] = []
    for flag in flags:
        if not flag.startswith("-I"):
            continue
        directory = (tests_root / flag[2:]).resolve()
        if directory.is_dir() and not directory.is_relative_to(llk_root) and directory not in directories:
            directories.append(directory)
    return directories


def suite_defines(config: Any) -> list[str]:
    """The ``-D`` defines ``build_elfs`` would pass for this variant (without the ``-D``).

    The process-wide ones come from the suite's own compile options (``-DTENSIX_FIRMWARE
    -DENV_LLK_INFRA -DKERNEL_BUILD``, ``-DENABLE_LLK_ASSERT``, the arch and boot-mode defines);
    the per-variant ones are those ``build_elfs`` adds for every TRISC: ``RUNTIME_FORMATS`` unless
    formats are compile-time, and the L1 performance-counter mux group the counter code reads.
    The per-TRISC ``LLK_TRISC_*`` and ``COMPILE_FOR_TRISC`` are the machine build's to add.
    """
    test_config = type(config)
    options = config.resolve_compile_options()[0].split()
    defines = [token[2:] for token in options if token.startswith("-D")]
    if not config.compile_time_formats:
        defines.append("RUNTIME_FORMATS")
    defines.append(f"LLK_PERF_L1_MUX_GROUP={test_config.PERF_L1_MUX_GROUP}")
    return defines


def _source_path(config: Any) -> Path:
    source = Path(str(config.test_source_path or config.test_name))
    return source if source.is_absolute() else Path(type(config).TESTS_WORKING_DIR) / source


def _refuse_hardware_only(config: Any) -> None:
    from helpers.device import BootMode  # the suite's enums
    from helpers.test_config import ProfilerBuild

    test_config = type(config)
    reasons = {
        "TestConfig.WITH_COVERAGE (--coverage)": test_config.WITH_COVERAGE,
        "TestConfig(profiler_build=ProfilerBuild.Yes)": config.profiler_build == ProfilerBuild.Yes,
        "device print (DEVICE_PRINT, --logging-level DEBUG)": test_config.DEVICE_PRINT_ENABLED
        or config.requires_device_print,
        "performance counters (--enable-perf-counters)": test_config.ENABLE_PERF_COUNTERS,
        "TestConfig(requires_vector_ext=True) (Quasar)": config.requires_vector_ext,
        "TestConfig(boot_mode=...) other than the default": config.boot_mode not in (BootMode.DEFAULT, BootMode.BRISC),
    }
    for call, needed in reasons.items():
        if needed:
            raise HardwareOnly(call)


def _suite_mailboxes() -> tuple[list[int], int]:
    """The three TRISC mailboxes of this build (the suite's layout) and the value that says done."""
    from helpers import device as suite_device

    boxes = suite_device.Mailboxes
    return [boxes.Unpacker.value, boxes.Math.value, boxes.Packer.value], suite_device.KERNEL_COMPLETE


def _tensix_build():
    module = f"{__package__.rsplit('.', 1)[0]}.tensix_build"
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as error:
        if error.name != module:
            raise
        raise TensixBuildUnavailable(
            f"tilecraft's Tensix machine build ({module}.build_llk_test) is not in this checkout, so the "
            "LLK suite's kernels cannot be built") from None
