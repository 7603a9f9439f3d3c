"""The ttnn surface: which ttnn functions models call most, and the answer for one tilecraft lacks.

``usage_ranking.json`` holds the calls to each ttnn function counted in a sample of tt-metal's model
code (``benchmarks/ttnn_usage_ranking.py`` made it; docs/ttnn.md gives the method and the sample).
The coverage test reads it, so the coverage docs/ttnn.md states is the test's.

A script that calls a ttnn function tilecraft does not simulate gets ``E0540`` at its line, naming
the function, instead of Python's bare ``AttributeError`` from inside tilecraft: a ttnn function
models use (one the ranking counts) is said to be real but not simulated; for any other name the
hint is the closest simulated names (a misspelling is the likely cause).
"""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Iterable

from tilecraft.diagnostics import UsageAttributeError, did_you_mean

RANKING_FILE = Path(__file__).with_name("usage_ranking.json")


@functools.cache
def usage_ranking() -> dict[str, int]:
    """Calls per ttnn function (dotted below ``ttnn``: ``transformer.scaled_dot_product_attention``),
    most used first."""
    return json.loads(RANKING_FILE.read_text())["functions"]


def top_functions(count: int = 100) -> list[str]:
    """The ``count`` ttnn functions the sampled models call most."""
    return list(usage_ranking())[:count]


def missing_attribute(namespace: str, name: str, simulated: Iterable[str]) -> AttributeError:
    """The error for ``<namespace>.<name>`` (``namespace`` is ``ttnn`` or ``ttnn.experimental``, ...)
    that the simulated ``namespace`` does not have; ``simulated`` are the names it has."""
    if name.startswith("__") and name.endswith("__"):  # Python's own probes (__path__, __wrapped__, ...)
        return AttributeError(f"module {namespace!r} has no attribute {name!r}")
    full = f"{namespace}.{name}"
    if full.removeprefix("ttnn.") in usage_ranking():
        return UsageAttributeError(
            f"{full} is a ttnn 0.81.1 function that tilecraft does not simulate",
            hint="docs/ttnn.md lists the ttnn functions tilecraft simulates; meanwhile compute this step in "
                 "torch on the host (ttnn.to_torch, then ttnn.from_torch)")
    near = did_you_mean(name, [n for n in simulated if not n.startswith("_")])
    return UsageAttributeError(f"{full} is not a ttnn function tilecraft simulates",
                               hint=near or "docs/ttnn.md lists the ttnn functions tilecraft simulates")


class UnsimulatedNamespace:
    """A ttnn namespace none of whose functions tilecraft simulates (``ttnn.cluster``): each of its
    names is the E0540 diagnostic naming it."""

    def __init__(self, name: str) -> None:
        self._name = name

    def __getattr__(self, name: str) -> object:
        raise missing_attribute(self._name, name, ())

    def __repr__(self) -> str:
        return f"<{self._name}: not simulated by tilecraft>"


def namespace_or_error(namespace: str, name: str, simulated: Iterable[str]) -> UnsimulatedNamespace:
    """What ``<namespace>.<name>`` is when the simulated namespace lacks it: an
    :class:`UnsimulatedNamespace` when models call functions below it (``ttnn.cluster.get_cluster_type``),
    else the error of :func:`missing_attribute`, raised."""
    prefix = f"{namespace}.{name}.".removeprefix("ttnn.")
    if not name.startswith("__") and any(function.startswith(prefix) for function in usage_ranking()):
        return UnsimulatedNamespace(f"{namespace}.{name}")
    raise missing_attribute(namespace, name, simulated)
