"""The fixed reproducers of open items (``reproducers/``): each fails today in the way its item
says, and passes once the item is fixed (then delete the item from ``known_issues.OPEN``)."""

from __future__ import annotations

from pathlib import Path

import pytest
import torch

from tests.metal.test_headercheck import headers  # noqa: F401 - the fixture (skips without g++-multilib)

from . import known_issues
from .harness import bits_differ, emitted_kernel_errors, failure_of, run, run_in_one_process

HERE = Path(__file__).parent / "reproducers"


def _levels_agree(script: str, *options: str) -> None:
    base, other = run(HERE / script), run(HERE / script, *options)
    assert failure_of(base) is None and failure_of(other) is None, base.stderr + other.stderr
    assert bits_differ(base.launches, other.launches) is None, bits_differ(base.launches, other.launches)


@known_issues.xfail("7.1")
def test_accumulator_value_idiom_runs_and_matches_torch() -> None:
    result = run(HERE / "item_7_1_accumulator_value.py")
    assert result.status == 0 and "accumulator value: OK" in result.stdout, result.stderr


@known_issues.xfail("7.12")
def test_scripts_that_differ_in_a_helper_default_give_their_own_results_in_one_process() -> None:
    first, second = run_in_one_process([(HERE / "item_7_12_helper_default_a.py", ()),
                                        (HERE / "item_7_12_helper_default_b.py", ())])
    assert (first.stdout.strip(), second.stdout.strip()) == ("2.0", "3.0")


@known_issues.xfail("7.13")
def test_broadcast_of_a_computed_bf16_operand_has_the_same_bits_at_the_metal_level() -> None:
    _levels_agree("item_7_13_broadcast_computed_bf16.py", "--level", "metal")


@known_issues.xfail("7.16")
def test_small_row_major_blocks_have_the_same_bits_with_exact() -> None:
    _levels_agree("item_7_16_row_major_exact.py", "--exact")


@known_issues.xfail("8.1")
def test_a_variable_named_like_a_temporary_keeps_its_value_at_every_level() -> None:
    for options in ((), ("--exact",), ("--level", "metal")):
        result = run(HERE / "item_8_1_temporary_names.py", *options)
        assert result.status == 0, result.stderr
        assert result.launches[0].values[0][0, 0].item() == 313.0, options
        assert options == ("--level", "metal") or result.stdout.split() == ["313"]


@pytest.mark.slow  # compiles two kernels with g++ (several seconds)
@known_issues.xfail("8.1")
def test_cpp_keywords_as_names_emit_kernels_that_compile(headers: Path) -> None:  # noqa: F811
    assert emitted_kernel_errors(HERE / "item_8_1_cpp_keyword_names.py") == []


@known_issues.xfail("N1")
def test_reduction_of_a_computed_bf16_operand_has_the_same_bits_at_the_metal_level() -> None:
    _levels_agree("new_reduce_computed_metal_level.py", "--level", "metal")


@known_issues.xfail("N2")
def test_transpose_of_a_computed_operand_into_bfloat8_b_has_the_same_bits_at_the_metal_level() -> None:
    _levels_agree("new_transpose_computed_metal_level.py", "--level", "metal")


@known_issues.xfail("N3")
def test_silu_of_an_int32_block_is_computed_in_fp32() -> None:
    result = run(HERE / "new_int32_unary_functions.py")
    assert result.status == 0 and "silu of int32: OK" in result.stdout, result.stderr


def test_the_reproducers_are_valid_programs_at_the_default_level() -> None:
    """Each runs to the end at the default level (the open items are about other levels/idioms)."""
    crashing = {"item_7_1_accumulator_value.py", "new_int32_unary_functions.py"}
    for script in sorted(HERE.glob("*.py")):
        if script.name in crashing:
            continue
        result = run(script)
        assert result.status == 0, f"{script.name}: {result.stderr}"
    assert torch.__version__  # torch is imported by the harness; the reproducers need it too
