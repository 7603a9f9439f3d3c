"""``tilecraft tune --plot``: predicted time against each hyper-parameter, one row per sweep.

Every estimated candidate is a point; the winner is marked. Candidates the cut-off stopped have
no time (they are only known to be slower than the top k) and are counted in the title;
``--exhaustive`` estimates every candidate, so all of them are drawn. matplotlib is the ``plot``
extra, imported only here.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..perf.plot import PlotUnavailable
from .evaluate import OK
from .report import format_value, param_names
from .sweep import SweepResult


def plot_sweeps(results: list[SweepResult], path: Path) -> None:
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise PlotUnavailable("--plot needs matplotlib: pip install 'tilecraft[plot]'") from None
    columns = max(len(param_names(r.outcomes)) for r in results)
    fig, axes = plt.subplots(len(results), columns, figsize=(4.2 * columns, 3.6 * len(results)), squeeze=False)
    for row, result in zip(axes, results):
        _sweep_row(row, result)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def _sweep_row(axes: Any, result: SweepResult) -> None:
    names = param_names(result.outcomes)
    done = [o for o in result.outcomes if o.status == OK]
    best = result.best
    stopped = len(result.with_status("slower"))
    req = result.request
    for ax, name in zip(axes, names):
        values = sorted({format_value(o.params.get(name)) for o in result.outcomes}, key=_order)
        position = {v: i for i, v in enumerate(values)}
        for bound in sorted({o.bound for o in done}):
            points = [o for o in done if o.bound == bound]
            ax.scatter([position[format_value(o.params.get(name))] for o in points],
                       [o.seconds * 1e3 for o in points], s=18, alpha=0.7, label=f"{bound}-bound")
        if best is not None:
            ax.scatter([position[format_value(best.params.get(name))]], [best.seconds * 1e3], s=120, marker="*",
                       color="black", label="winner", zorder=3)
        ax.set_xticks(range(len(values)), values)
        ax.set_xlabel(name)
        ax.set_ylabel("predicted time (ms)")
        ax.grid(alpha=0.3)
        ax.set_title(f"{req.program} on {req.arch}, {req.fidelity}" +
                     (f" ({stopped} cut off, not drawn)" if stopped else ""), fontsize=9)
    axes[0].legend(fontsize=8)
    for ax in axes[len(names):]:
        ax.set_visible(False)


def _order(text: str) -> tuple:
    try:
        return (0, float(text), text)
    except ValueError:
        return (1, 0.0, text)
