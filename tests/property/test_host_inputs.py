"""Random bad host inputs: a clear error at the user's line, never "tilecraft: internal error"."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from . import known_issues
from .harness import check_cli_usage_error, check_host_script
from .host_inputs import GRID_VALUES_KNOWN, HOST_MISTAKES, GridMistake, HostMistake
from .strategies import host_scripts


@pytest.mark.parametrize("mistake", [pytest.param(m, marks=known_issues.xfail(m.known)) for m in HOST_MISTAKES],
                         ids=[m.name for m in HOST_MISTAKES])
@given(data=st.data())
def test_bad_host_input_is_a_clear_error_at_the_users_line(mistake: HostMistake, data: st.DataObject) -> None:
    script = data.draw(host_scripts(mistake), label="script")
    outcome = check_host_script(script)
    assert outcome.passed, str(outcome)


@pytest.mark.parametrize("value", [pytest.param(v, marks=known_issues.xfail("7.14")) for v in GRID_VALUES_KNOWN])
def test_bad_grid_option_is_a_usage_error(value: str) -> None:
    outcome = check_cli_usage_error(GridMistake(value).script(), "--grid")
    assert outcome.passed, str(outcome)


@given(value=st.sampled_from(("8x", "a,b", "2,,2", "1.5,2", "two")))
def test_unparsable_grid_option_is_a_usage_error(value: str) -> None:
    outcome = check_cli_usage_error(GridMistake(value, known=None).script(), "--grid")
    assert outcome.passed, str(outcome)
