"""``tilecraft profile --plot``: the roofline and a per-core timeline summary, as one PNG.

matplotlib is an optional extra (``pip install tilecraft[plot]``): the cost model never needs it,
so it is imported only when a plot is asked for.
"""

from __future__ import annotations

from pathlib import Path

from ..ir.program_ir import COMPUTE
from .result import Estimate


class PlotUnavailable(RuntimeError):
    """matplotlib is not installed."""


def plot_estimates(estimates: list[Estimate], path: Path) -> None:
    """Left: every program on its roofline; right: the last program's busy/stall share per core."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise PlotUnavailable("--plot needs matplotlib: pip install 'tilecraft[plot]'") from None
    fig, (roof, cores) = plt.subplots(1, 2, figsize=(14, 5.5))
    _roofline(roof, estimates)
    _timeline(cores, estimates[-1])
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def _roofline(ax, estimates: list[Estimate]) -> None:
    peak, bandwidth = estimates[0].peak_flops_per_s, estimates[0].peak_dram_bytes_per_s
    ridge = peak / bandwidth
    xs = [ridge / 1000, ridge, ridge * 1000]
    ax.loglog(xs, [min(peak, bandwidth * x) for x in xs], color="black", label="roofline (compute, DRAM)")
    for est in estimates:
        x = est.intensity if est.intensity != float("inf") else ridge * 100
        ax.loglog([x], [max(est.flops_per_s, 1.0)], "o", label=f"{est.program} ({est.bound}-bound)")
    ax.axvline(ridge, color="grey", linestyle=":", linewidth=1)
    ax.set_xlabel("arithmetic intensity (FLOP per DRAM byte)")
    ax.set_ylabel("FLOP/s")
    ax.set_title(f"roofline: {estimates[0].arch}, {estimates[0].fidelity}")
    ax.legend(fontsize=8)


def _timeline(ax, est: Estimate) -> None:
    """Per core, one bar per thread (compute first): busy and stalled shares of the program's time."""
    total = est.cycles or 1.0
    per_core: dict[tuple, list] = {}
    for t in est.threads:
        per_core.setdefault(t.core, []).append(t)
    cores = sorted(per_core)
    width = 0.8 / max(len(v) for v in per_core.values())
    names: dict[int, str] = {}
    for x, core in enumerate(cores):
        threads = sorted(per_core[core], key=lambda t: (t.kind != COMPUTE, t.name))
        for i, t in enumerate(threads):
            names.setdefault(i, t.name)
            busy, stall = t.busy_total / total, t.stall_total / total
            ax.bar(x + i * width, busy, width, color=_COLORS[i % len(_COLORS)], label=None if x else f"{t.name} busy")
            ax.bar(x + i * width, stall, width, bottom=busy, color=_COLORS[i % len(_COLORS)], alpha=0.3,
                   label=None if x else f"{t.name} stalled")
    step = max(1, len(cores) // 16)
    ax.set_xticks([x + 0.4 - width / 2 for x in range(0, len(cores), step)],
                  [str(c) for c in cores[::step]], rotation=60, fontsize=7)
    ax.set_ylim(0, 1.05)
    ax.set_ylabel(f"share of {est.seconds * 1e6:.1f} us")
    ax.set_xlabel("core")
    ax.set_title(f"{est.program}: busy and stalled time per core and thread")
    ax.legend(fontsize=7, ncol=3, loc="upper right")


_COLORS = ("tab:green", "tab:blue", "tab:orange")
