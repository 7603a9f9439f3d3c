"""The ``ttexalens.tt_exalens_lib`` calls the LLK suite makes, answered by the harness device."""

from __future__ import annotations

import struct

from tilecraft.emu.llk_suite.device import (
    Context,
    Coordinate,
    DeviceAccessError,
    HardwareOnly,
    current_context,
    open_context,
)
from tilecraft.emu.llk_suite.harness_env import chip_arch


class TTException(Exception):
    """ttexalens' error type (the suite catches it by name)."""


class ElfFile:
    """Named for the suite's type hints; ELFs are never loaded on tilecraft's machine."""

    def __init__(self, *_args, **_kwargs) -> None:
        raise HardwareOnly("ElfFile", "the harness builds host code, not RISC-V ELFs")


def check_context(context: Context | None = None) -> Context:
    if context is not None:
        return context
    try:
        return current_context()
    except DeviceAccessError:
        return open_context(chip_arch())


def _device(device_id: int, context: Context | None):
    devices = check_context(context).devices
    if device_id not in devices:
        raise DeviceAccessError(f"device {device_id} does not exist; the harness has device 0 only")
    return devices[device_id]


def convert_coordinate(location, device_id: int = 0, context: Context | None = None) -> Coordinate:
    return _device(device_id, context).coordinate(location)


def read_from_device(location, addr: int, device_id: int = 0, num_bytes: int = 4, context=None,
                     noc_id=None, safe_mode=None) -> bytes:
    return _device(device_id, context).read(location, addr, num_bytes)


def write_to_device(location, addr: int, data, device_id: int = 0, context=None, noc_id=None,
                    safe_mode=None) -> int:
    payload = bytes(data)
    _device(device_id, context).write(location, addr, payload)
    return len(payload)


def read_words_from_device(location, addr: int, device_id: int = 0, word_count: int = 1, context=None,
                           noc_id=None, safe_mode=None) -> list[int]:
    raw = read_from_device(location, addr, device_id, 4 * word_count, context)
    return list(struct.unpack(f"<{word_count}I", raw))


def read_word_from_device(location, addr: int, device_id: int = 0, context=None, noc_id=None,
                          safe_mode=None) -> int:
    return read_words_from_device(location, addr, device_id, 1, context)[0]


def write_words_to_device(location, addr: int, data, device_id: int = 0, context=None, noc_id=None,
                          safe_mode=None) -> int:
    words = [data] if isinstance(data, int) else list(data)
    return write_to_device(location, addr, struct.pack(f"<{len(words)}I", *words), device_id, context)


def _hardware_only(name: str, why: str):
    def call(*_args, **_kwargs):
        raise HardwareOnly(name, why)

    call.__name__ = name
    return call


load_elf = _hardware_only("load_elf", "the harness runs the kernel through tilecraft's Tensix build")
parse_elf = _hardware_only("parse_elf", "the harness builds host code, not RISC-V ELFs")
callstack = _hardware_only("callstack", "RISC-V call stacks exist only on a core running an ELF")
arc_msg = _hardware_only("arc_msg", "the ARC management core is silicon's")
get_tensix_state = _hardware_only("get_tensix_state", "the Tensix debug-bus state dump is silicon's")
