"""The text report of ``tilecraft profile``: time, bound with evidence, roofline point, line table."""

from __future__ import annotations

import os

from .result import Estimate


def format_estimate(est: Estimate, user_files: set[str] | None = None) -> str:
    """``user_files``: show only lines of these files (the script's own); None: every line."""
    out = [
        f"program '{est.program}' on {est.arch} ({est.cores} core{'s' if est.cores != 1 else ''}, {est.fidelity}"
        f"{', fp32 accumulation' if est.fp32_acc else ''}):",
        f"  predicted time   {est.seconds * 1e6:,.1f} us ({est.cycles:,.0f} cycles at {est.clock_hz / 1e9:g} GHz)",
        f"  bound            {est.bound}",
    ]
    out += [f"    {line}" for line in est.evidence]
    out += [
        f"  compute          {est.flops_per_s / 1e12:,.2f} TFLOP/s of {est.peak_flops_per_s / 1e12:,.1f} peak at "
        f"{est.fidelity} ({_pct(est.flops_per_s, est.peak_flops_per_s)})",
        f"  DRAM             {est.dram_bytes_per_s / 1e9:,.1f} GB/s of {est.peak_dram_bytes_per_s / 1e9:,.0f} peak "
        f"({_pct(est.dram_bytes_per_s, est.peak_dram_bytes_per_s)})",
        f"  roofline point   intensity {est.intensity:,.1f} FLOP/byte (ridge "
        f"{est.peak_flops_per_s / est.peak_dram_bytes_per_s:,.1f}); "
        f"{'compute' if est.intensity >= est.peak_flops_per_s / est.peak_dram_bytes_per_s else 'memory'} side",
        "",
        f"  {'line':<28} {'cycles/core':>12} {'critical':>8} {'stall/core':>11}  stalled on / source",
    ]
    for line in est.lines:
        if user_files is not None and os.path.abspath(line.file) not in user_files:
            continue
        where = f"{os.path.basename(line.file)}:{line.line}"
        out.append(f"  {where:<28} {line.busy_per_core:>12,.0f} {line.critical_share:>8.1%} "
                   f"{line.stall_per_core:>11,.0f}  {line.source[:60]}")
        if line.stalled_on:
            out.append(f"  {'':<28} {'':>12} {'':>8} {'':>11}    ^ waits on {line.stalled_on}")
    return "\n".join(out)


def _pct(value: float, peak: float) -> str:
    return f"{value / peak:.0%}" if peak else "-"
