"""Random single mistakes in valid programs: the diagnostic carries the documented code and points
at the mistake's line, the CLI prints no traceback, and ``--diagnostics-format json`` parses."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from . import known_issues
from .harness import check_mutant
from .mutations import MUTATIONS, Mutation
from .strategies import mutants


@pytest.mark.parametrize("mutation", [pytest.param(m, marks=known_issues.xfail(m.known)) for m in MUTATIONS],
                         ids=[m.name for m in MUTATIONS])
@given(data=st.data())
def test_mistake_is_diagnosed_at_its_line(mutation: Mutation, data: st.DataObject) -> None:
    mutant = data.draw(mutants((mutation,)), label="mutant")
    outcome = check_mutant(mutant)
    assert outcome.passed, str(outcome)
