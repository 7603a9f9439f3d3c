"""Hypothesis settings of the property suite.

Two profiles: "property-ci" (the default: 3 examples per property, the whole suite in 30-60 s)
and "thorough" (100 per property, about 35 minutes on a busy 2-core machine), chosen with
Hypothesis's own option:
``pytest tests/property --hypothesis-profile thorough``. Thousands of examples with counts per
outcome: ``python -m benchmarks.property_campaign``.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, Phase, settings

COMMON = dict(deadline=None, print_blob=True,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much, HealthCheck.data_too_large])
# No shrinking: a failure names the generated script it ran, which is the reproducer, and the
# expected failures of open items would otherwise be shrunk on every run.
NO_SHRINK = (Phase.explicit, Phase.reuse, Phase.generate)
settings.register_profile("property-ci", max_examples=3, phases=NO_SHRINK, **COMMON)
settings.register_profile("thorough", max_examples=100, phases=NO_SHRINK, **COMMON)


def pytest_configure(config: pytest.Config) -> None:
    if not config.getoption("hypothesis_profile", None):
        settings.load_profile("property-ci")
