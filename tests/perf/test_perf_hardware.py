"""The cost model against public hardware measurements (benchmarks/hardware_figures.py).

Each row recomputes the model's prediction for the configuration a tech report measured and
requires predicted device time within 15% of the measured one; rows the model does not reproduce
carry their reason and must stay outside (strict xfail), so that fixing one is noticed. The docs
table (docs/performance-model.md, "Against the hardware") must show every figure with the values
computed here. The default run holds the fast rows; ``-m slow`` runs the rest (5 s to a minute each).
"""

from __future__ import annotations

import re

import pytest

from benchmarks.hardware_figures import FIGURES, TOLERANCE, Figure, predicted, time_ratio
from tests.paths import ROOT

DOC = ROOT / "docs" / "performance-model.md"


def _param(fig: Figure):
    marks = [] if fig.fast else [pytest.mark.slow]
    if fig.outside:
        marks.append(pytest.mark.xfail(strict=True, reason=fig.outside))
    return pytest.param(fig, id=fig.label.replace(" ", "-"), marks=marks)


@pytest.mark.parametrize("fig", [_param(f) for f in FIGURES])
def test_prediction_within_tolerance_of_measurement(fig: Figure):
    value = predicted(fig)
    ratio = time_ratio(fig, value)
    assert abs(ratio - 1) <= TOLERANCE, f"{fig.label}: measured {fig.measured}, predicted {value:.2f} ({ratio:.3f})"


def _doc_rows() -> dict[str, list[str]]:
    """The docs table's rows by "board configuration", as cells."""
    text = DOC.read_text()
    start = text.index("### Against the hardware")
    end = text.find("\n### ", start + 1)
    section = text[start:end if end > 0 else len(text)]
    rows = {}
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 8 and cells[0] in ("n150", "p150"):
            rows[f"{cells[0]} {cells[2]}"] = cells
    return rows


def _number(cell: str) -> float:
    return float(re.match(r"[\d.]+", cell).group())


def test_docs_table_lists_every_figure_with_its_source():
    rows = _doc_rows()
    assert set(rows) == {f.label for f in FIGURES}
    for fig in FIGURES:
        cells = rows[fig.label]
        assert _number(cells[4]) == pytest.approx(fig.measured), fig.label
        assert cells[7] == fig.source, fig.label
        assert ("outside" in cells[6]) == bool(fig.outside), fig.label


@pytest.mark.parametrize("fig", [pytest.param(f, id=f.label.replace(" ", "-"), marks=[] if f.fast else [pytest.mark.slow])
                                 for f in FIGURES])
def test_docs_table_shows_the_models_prediction(fig: Figure):
    cells = _doc_rows()[fig.label]
    value = predicted(fig)
    assert _number(cells[5]) == pytest.approx(value, abs=0.006), fig.label
    assert _number(cells[6]) == pytest.approx(time_ratio(fig, value), abs=0.0006), fig.label
