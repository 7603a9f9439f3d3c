"""``ttexalens.elf.CallstackEntry`` for the suite's type hints (call stacks are silicon-only)."""

from dataclasses import dataclass


@dataclass
class CallstackEntry:
    pc: int | None = None
    function_name: str | None = None
    file_info: object = None
