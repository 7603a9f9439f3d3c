"""The record :func:`tilecraft.perf.estimate` returns: time, bound, roofline point, per-line costs.

Why a record and not a report string: the autotuner compares estimates numerically, the CLI
prints them and the trace writer reads the per-thread timelines, all from the same object.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..ir.program_ir import COMPUTE
from .engine import ThreadTimes, TimingRun

#: below this busy share of every resource the program is bound by synchronisation and latency
SATURATED = 0.5


@dataclass
class LineCost:
    """One source line: cycles per core, share of the critical core's time, stalls and their cause."""

    file: str
    line: int
    source: str
    busy_per_core: float
    critical_share: float
    stall_per_core: float
    stalled_on: str


@dataclass
class Estimate:
    program: str
    arch: str
    fidelity: str
    fp32_acc: bool
    cores: int
    cycles: float
    clock_hz: float
    flops: int
    dram_read_bytes: float
    dram_write_bytes: float
    noc_bytes: float
    peak_flops_per_s: float
    peak_dram_bytes_per_s: float
    #: busy share of the time: busiest compute thread, busiest DRAM bank, busiest NoC link/port
    compute_utilisation: float
    dram_utilisation: float
    noc_utilisation: float
    bound: str
    evidence: list[str]
    lines: list[LineCost]
    run: TimingRun = field(repr=False)

    @property
    def seconds(self) -> float:
        return self.cycles / self.clock_hz

    @property
    def flops_per_s(self) -> float:
        return self.flops / self.seconds if self.cycles else 0.0

    @property
    def dram_bytes_per_s(self) -> float:
        return (self.dram_read_bytes + self.dram_write_bytes) / self.seconds if self.cycles else 0.0

    @property
    def intensity(self) -> float:
        """FLOPs per DRAM byte (the roofline's x axis)."""
        moved = self.dram_read_bytes + self.dram_write_bytes
        return self.flops / moved if moved else float("inf")

    @property
    def threads(self) -> list[ThreadTimes]:
        return self.run.threads


def summarise(run: TimingRun, arch_label: str, fidelity: str) -> Estimate:
    threads = run.threads
    cycles = max((t.end for t in threads), default=0.0)
    arch, figs, res = run.arch, run.figs, run.res
    ncores = len(run.cores)
    peak_flops = ncores * figs.matmul_flops_per_cycle(run.phases) * arch.clock_hz
    compute = [t for t in threads if t.kind == COMPUTE]
    busiest = max(compute, key=lambda t: t.busy_total, default=None)
    compute_util = busiest.busy_total / cycles if busiest is not None and cycles else 0.0
    bank_util = max(res.bank_busy) / cycles if cycles else 0.0
    link_util, link = res.max_link_utilisation(cycles)
    port_util, port = res.max_port_utilisation(cycles)
    noc_util = max(link_util, port_util)
    moved = res.dram_read_bytes + res.dram_write_bytes
    seconds = cycles / arch.clock_hz if cycles else 0.0
    evidence = [
        f"compute: the busiest compute thread ({_where(busiest)}) works {compute_util:.0%} of the time",
        f"DRAM: the busiest of {figs.dram_banks} banks is busy {bank_util:.0%} of the time; "
        f"{moved / 1e6:.1f} MB moved = {moved / seconds / 1e9 if seconds else 0:.0f} GB/s of "
        f"{figs.dram_bytes_per_s / 1e9:.0f} GB/s peak",
        (f"NoC: the busiest link {_link(link)} is busy {link_util:.0%}" if link is not None else
         "NoC: no pipe traffic") + f"; the busiest core port, {_link(port)}, {port_util:.0%} of the time",
    ]
    shares = {"compute": compute_util, "DRAM": bank_util, "NoC": noc_util}
    bound = max(shares, key=lambda k: shares[k])
    if shares[bound] < SATURATED:
        stall = max(threads, key=lambda t: t.stall_total)
        evidence.append(f"synchronisation: no resource is busy {SATURATED:.0%} of the time; the most stalled "
                        f"thread ({_where(stall)}) waits {stall.stall_total / cycles:.0%} of the time")
        bound = "synchronisation"
    return Estimate(run.program.name, arch_label, fidelity, run.fp32_acc, ncores, cycles, arch.clock_hz,
                    run.flops, res.dram_read_bytes, res.dram_write_bytes, res.noc_bytes, peak_flops,
                    figs.dram_bytes_per_s, compute_util, bank_util, noc_util, bound, evidence,
                    _lines(run, cycles), run)


def _where(t: ThreadTimes | None) -> str:
    return "none" if t is None else f"core {t.core} '{t.name}'"


def _link(key: Any) -> str:
    if key is None:
        return "(none)"
    if key[0] in ("in", "out"):
        return f"{key[0]}put of core {key[1]} on NoC{key[2]}"
    return f"NoC{key[0]} ({key[1]},{key[2]})->{key[3]}"


def _lines(run: TimingRun, cycles: float) -> list[LineCost]:
    """Per source line: busy and stall cycles per core, and the share of the program's time the
    critical core (the one whose last thread finishes last) spends on the line."""
    threads = run.threads
    ncores = max(1, len(run.cores))
    last = max(threads, key=lambda t: t.end, default=None)
    critical = [t for t in threads if last is not None and t.core == last.core]
    by_line: dict[tuple[str, int], list[int]] = {}
    for i, op in enumerate(run.ops):
        if op.loc is not None:
            by_line.setdefault((op.loc.file, op.loc.line), []).append(i)
    busy = [0.0] * len(run.ops)
    stall = [0.0] * len(run.ops)
    for t in threads:
        for i, (b, s) in enumerate(zip(t.busy, t.stall)):
            busy[i] += b
            stall[i] += s
    out = []
    for (file, line), ids in sorted(by_line.items()):
        b = sum(busy[i] for i in ids)
        s = sum(stall[i] for i in ids)
        if not b and not s:
            continue
        crit = sum(t.busy[i] for t in critical for i in ids) / cycles if cycles else 0.0
        worst = max(ids, key=lambda i: stall[i])
        source = run.ops[ids[0]].loc.source_line().strip()
        out.append(LineCost(file, line, source, b / ncores, crit, s / ncores,
                            run.stall_labels.get(worst, "") if stall[worst] else ""))
    return out
