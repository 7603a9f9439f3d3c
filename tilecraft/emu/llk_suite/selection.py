"""Which of the suite's pytest files the harness runs, and why the others are left out.

Every ``test_*.py`` in ``tests/python_tests`` is run except those below, each with its reason
(the same table is in docs/emulator.md, "LLK test suite", and benchmarks/README.md; a test checks
they agree). A file is excluded when it needs what only silicon (or Tenstorrent's own simulator)
has, or when it runs no kernel at all: the latter check the suite's own Python and pass or fail
whatever the machine does, so counting them would say nothing about the machine. ``perf_*.py``
files and the ``quasar/`` directory are never collected (the suite skips ``quasar/`` on
Wormhole and Blackhole itself).
"""

from __future__ import annotations

from pathlib import Path

HOST_ONLY = "host-only: checks the suite's own Python (no kernel runs), so it says nothing about the machine"
PERF_TOOLING = "the suite's performance-report tooling (parquet, warehouse, gates); no kernel runs"

#: file -> why the harness does not run it
EXCLUDED: dict[str, str] = {
    "test_boot_modes.py": "boot modes: BRISC/TRISC/ExaLens bring-up of the RISC-V cores (silicon firmware)",
    "test_device_print.py": "device print: DPRINT ring buffer drained from the RISC-V cores",
    "test_dbg_get_array_row_srca.py": "debug registers: reads SrcA through the Tensix debug bus",
    "test_profiler_overhead.py": "performance counters: the LLK profiler's cycle timestamps",
    "test_profiler_primitives.py": "performance counters: the LLK profiler's cycle timestamps",
    "test_profiler_stress.py": "performance counters: the LLK profiler's cycle timestamps",
    "test_ttsim_error_report.py": "host-only: parses Tenstorrent's simulator (ttsim) error reports; no kernel runs",
    "test_fp32_dest_acc_cfg_occupancy.py": "pipeline timing: asserts that config writes queued behind MOP "
                                           "occupancy land late (a race only silicon's latencies produce); "
                                           "the machine runs each thread's instructions in order, without latency",
    "test_gathering_config.py": "firmware binaries: inspects the RISC-V ELFs' instruction words (the gathering "
                                "CSR writes, inline REPLAY encodings); the machine compiles the kernels for "
                                "the host, so there is no ELF to read",
    "test_tensix_sync_mop_drain.py": "pipeline timing: asserts that a RISC read without tensix_sync() sees a MOP "
                                     "still expanding (a window only silicon's latencies open); the machine "
                                     "expands a MOP at issue",
    "test_sfpu_plot.py": "does not import on Python >= 3.11 (a dataclass field defaults to an unhashable "
                         "InputOutputFormat, which only 3.10 accepted); an accuracy-plotting sweep",
    "test_compare_test_and_perf.py": HOST_ONLY,
    "test_out_of_tree_contract.py": HOST_ONLY,
    "test_parametrize.py": HOST_ONLY,
    "test_sfpu_accuracy_budget.py": HOST_ONLY,
    "test_sfpu_domains.py": HOST_ONLY,
    "test_tanh_lut_consistency.py": HOST_ONLY,
    "test_test_config.py": HOST_ONLY,
    "test_ulp.py": HOST_ONLY,
    "test_ulp_budget_diff.py": HOST_ONLY,
    "test_ulp_gate.py": HOST_ONLY,
    "test_perf_baseline_from_warehouse.py": PERF_TOOLING,
    "test_perf_gate_slack_notify.py": PERF_TOOLING,
    "test_perf_header_gate.py": PERF_TOOLING,
    "test_perf_merge.py": PERF_TOOLING,
    "test_perf_migrate.py": PERF_TOOLING,
    "test_perf_nightly_health.py": PERF_TOOLING,
    "test_perf_package.py": PERF_TOOLING,
    "test_perf_parquet.py": PERF_TOOLING,
    "test_perf_publish_run.py": PERF_TOOLING,
    "test_perf_regression_compare.py": PERF_TOOLING,
    "test_perf_report_hw_free.py": PERF_TOOLING,
}

#: the first vertical slice's targets (docs/emulator.md): the simplest data paths through each unit
FOCUS: tuple[str, ...] = (
    "test_eltwise_unary_datacopy.py",
    "test_unpack_A.py",
    "test_pack.py",
    "test_eltwise_binary.py",
    "test_matmul.py",
    "test_eltwise_unary_sfpu.py",
)


def suite_files(python_tests: Path) -> list[str]:
    """Every ``test_*.py`` of the suite, by name."""
    return sorted(path.name for path in python_tests.glob("test_*.py"))


def included_files(python_tests: Path) -> list[str]:
    """The suite's test files the harness runs by default: all but :data:`EXCLUDED`."""
    return [name for name in suite_files(python_tests) if name not in EXCLUDED]
