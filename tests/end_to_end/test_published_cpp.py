"""Published-spelling programs (``tests/published/``) run as their emitted C++ on the kernel emulator.

Each program checks its own result against Python's, so ``tilecraft run --level cpp`` exiting 0
means the emitted kernels compute what the language does; test_published.py runs the same programs
at the language level (batched and ``--exact``) and at ``--level metal``. These are the programs of
issue 22 whose emitted C++ once differed from Python: a block carried by a runtime loop (defect 1),
floor division, remainder and true division of run-time integers (defect 2), and a local
accumulator whose value rotates through one block and one DST chunk (defect 5e: the unpacker reads
at the read pointer without wrapping at the buffer's end, which only the emulator models).
"""

from __future__ import annotations


import pytest

from tests.outputs import launch_with_messages
from tests.paths import TESTS

PUBLISHED = TESTS / "published"

pytestmark = pytest.mark.usefixtures("fresh_process_state")


@pytest.mark.parametrize("name", ["loop_carried_values", "integer_division",
                                  "multicast_temporary_accumulator"])
def test_emitted_cpp_computes_what_python_does(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    outputs, err = launch_with_messages(PUBLISHED / f"{name}.py", capsys, "--level", "cpp")
    assert outputs and "warning[E54" not in err, err[-3000:]
