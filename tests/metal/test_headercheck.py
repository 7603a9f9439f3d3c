"""The header check: TT-Metalium kernels against the real tt-metal 0.81.1 headers, no hardware.

Needs host ``g++`` with 32-bit multilib (Debian: ``g++-multilib``) and the ``ttnn==0.81.1`` wheel
from PyPI (fetched once into the tilecraft cache). Without either, the tests that compile are
skipped with the reason; with TILECRAFT_REQUIRE_HEADERCHECK=1 (meant for CI) they fail instead.
The tests of the harness's own logic run everywhere.
"""

from __future__ import annotations

import os
import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from tilecraft import wheels
from tilecraft.arch import get as get_arch
from tilecraft import wheel_headers
from tilecraft.metal import headercheck
from tilecraft.metal.headercheck import ComputeOptions, check_kernel
from tilecraft.metal.reference_kernels import KERNELS
from tilecraft.wheel_headers import HeadersUnavailable

ARCHES = ("wormhole_b0", "blackhole")
REFERENCE = {kernel.id: kernel for kernel in KERNELS}


def _unavailable(reason: str) -> None:
    if os.environ.get("TILECRAFT_REQUIRE_HEADERCHECK") == "1":
        pytest.fail(f"TILECRAFT_REQUIRE_HEADERCHECK=1 but the header check cannot run: {reason}",
                    pytrace=False)
    pytest.skip(f"header check unavailable: {reason}")


@pytest.fixture(scope="module")
def headers() -> Path:
    """Root of the unpacked wheel headers; skips (or fails, in CI) when the check cannot run."""
    problem = headercheck.toolchain_problem()
    if not problem:
        try:
            return wheel_headers.ensure_headers()
        except HeadersUnavailable as error:
            problem = str(error)
    _unavailable(problem)


def _check(kernel_id: str, source: str | None = None, **kwargs) -> headercheck.CheckResult:
    kernel = REFERENCE[kernel_id]
    kwargs.setdefault("compile_time_args", kernel.compile_time_args)
    return check_kernel(source if source is not None else kernel.path.read_text(), kernel.role,
                        name=kernel_id.replace("/", "_") + ".cpp", **kwargs)


def _edit(kernel_id: str, old: str, new: str) -> str:
    text = REFERENCE[kernel_id].path.read_text()
    assert old in text, f"{old!r} not in {kernel_id}"
    return text.replace(old, new)


# --- the hand-written reference kernels pass ---------------------------------------------------


@pytest.fixture(scope="module")
def reference_results(headers) -> dict[tuple[str, str], headercheck.CheckResult]:
    """All reference kernels on both architectures, checked concurrently (one g++ per core)."""
    jobs = [(kernel_id, arch) for kernel_id in sorted(REFERENCE) for arch in ARCHES]
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        results = pool.map(lambda job: _check(job[0], arch=job[1], jobs=1), jobs)
        return dict(zip(jobs, results))


@pytest.mark.parametrize("arch", ARCHES)
@pytest.mark.parametrize("kernel_id", sorted(REFERENCE))
def test_reference_kernel_passes(reference_results, kernel_id, arch):
    result = reference_results[kernel_id, arch]
    assert result.ok, result.diagnostics
    assert result.warnings == (), "reference kernels use no deprecated API"
    assert len(result.passes) == (3 if REFERENCE[kernel_id].role == "compute" else 1)


# --- wrong kernels are caught, with the compiler's message -------------------------------------


def test_matmul_tiles_with_four_args_is_caught(headers):
    source = _edit("matmul/compute", "matmul_tiles(cb_a, cb_b, 0, 0, dst)", "matmul_tiles(cb_a, cb_b, 0, dst)")
    result = _check("matmul/compute", source)
    assert not result.ok
    assert "too few arguments to function" in result.diagnostics
    assert "matmul_tiles(uint32_t, uint32_t, uint32_t, uint32_t, uint32_t)" in result.diagnostics
    assert "matmul_compute.cpp:31:" in result.diagnostics
    # The same error in all three TRISC passes is reported once.
    assert result.diagnostics.startswith("[TRISC0 (unpack), TRISC1 (math), TRISC2 (pack)]")
    assert result.diagnostics.count("too few arguments") == 1


def test_noc_async_read_tile_with_a_wrong_type_is_caught(headers):
    source = _edit("sfpu_chain/reader", "noc_async_read_page(t, x, get_write_ptr(cb_in))",
                   "noc_async_read_tile(t, x_addr, get_write_ptr(cb_in))")
    result = _check("sfpu_chain/reader", source)
    assert not result.ok
    assert "no matching function for call to ‘noc_async_read_tile(" in result.diagnostics
    assert "mismatched types" in result.diagnostics


def test_undeclared_function_is_caught(headers):
    source = _edit("sfpu_chain/compute", "relu_tile(dst);", "relu6_tile(dst);")
    result = _check("sfpu_chain/compute", source)
    assert not result.ok
    assert "‘relu6_tile’ was not declared in this scope" in result.diagnostics


def test_deprecated_api_is_reported_as_a_warning(headers):
    source = _edit("sfpu_chain/reader", "noc_async_read_page(t, x, get_write_ptr(cb_in))",
                   "noc_async_read_tile(t, x, get_write_ptr(cb_in))")
    result = _check("sfpu_chain/reader", source)
    assert result.ok, result.diagnostics
    assert any("noc_async_read_tile" in w and "is deprecated: Use <typename AddrGen> noc_async_read_page"
               in w for w in result.warnings), result.warnings


def test_riscv32_type_model_is_enforced(headers):
    # On the device uint32_t is `unsigned long`; a kernel that spells it `unsigned int` does not compile.
    source = _edit(
        "sfpu_chain/reader", "noc_async_read_barrier();",
        "noc_async_read_barrier();\n        volatile unsigned int* sem = "
        "reinterpret_cast<volatile unsigned int*>(get_semaphore(0));\n        noc_semaphore_wait(sem, 1);")
    result = _check("sfpu_chain/reader", source)
    assert not result.ok
    assert "invalid conversion from ‘volatile unsigned int*’ to ‘volatile uint32_t*’" in result.diagnostics


def test_missing_compile_time_args_are_caught(headers):
    result = _check("sfpu_chain/reader", compile_time_args=())
    assert not result.ok
    assert "Index out of range" in result.diagnostics


def test_compute_kernels_are_entered_through_kernel_main(headers):
    # 0.81.1's chlkc_list.h calls kernel_main(); the pre-2025 `namespace NAMESPACE { void MAIN }`
    # entry no longer links up with the firmware wrapper.
    legacy = '#include "api/compute/common.h"\nnamespace NAMESPACE {\nvoid MAIN {}\n}\n'
    result = check_kernel(legacy, "compute", name="legacy.cpp")
    assert not result.ok
    assert "‘kernel_main’ was not declared in this scope" in result.diagnostics


def test_defines_reach_the_kernel(headers):
    guarded = '#include "api/dataflow/dataflow_api.h"\n#ifndef TILE_COUNT\n#error TILE_COUNT must be set\n#endif\n' \
              "void kernel_main() { for (uint32_t i = 0; i < TILE_COUNT; ++i) {} }\n"
    assert not check_kernel(guarded, "writer", name="w.cpp").ok
    assert check_kernel(guarded, "writer", defines={"TILE_COUNT": 4}, name="w.cpp").ok
    compute = guarded.replace("api/dataflow/dataflow_api.h", "api/compute/common.h")
    assert check_kernel(compute, "compute", defines={"TILE_COUNT": 4}, name="c.cpp").ok


COVERAGE_KERNEL = headercheck.SUPPORT_DIR / "api_coverage_compute.cpp"


@pytest.mark.parametrize("arch, options", [
    ("wormhole_b0", ComputeOptions()),
    ("blackhole", ComputeOptions(fp32_dest_acc_en=True, math_approx_mode=True, math_fidelity="LoFi")),
])
def test_compute_api_coverage(headers, arch, options):
    """The compute calls of the emitter's operation table instantiate through the SFPI stand-in."""
    result = check_kernel(COVERAGE_KERNEL.read_text(), "compute", arch=arch, compute=options,
                          name=COVERAGE_KERNEL.name)
    assert result.ok, result.diagnostics


# --- the CLI -----------------------------------------------------------------------------------


def test_cli_ok_and_failure(headers, tmp_path, capsys):
    good = REFERENCE["matmul/writer"]
    status = headercheck.main([str(good.path), "--kind", "writer", "--ct-args", "2,2048"])
    out = capsys.readouterr().out
    assert status == 0 and out.startswith("OK "), out

    broken = tmp_path / "matmul_compute.cpp"  # kind guessed from the name
    broken.write_text(_edit("matmul/compute", "matmul_tiles(cb_a, cb_b, 0, 0, dst)",
                            "matmul_tiles(cb_a, cb_b, 0, dst)"))
    status = headercheck.main([str(broken), "--arch", "blackhole"])
    out = capsys.readouterr().out
    assert status == 1
    assert "matmul_compute.cpp:31:" in out and "too few arguments" in out and "FAILED" in out


# --- harness logic (no compiler or wheel needed) -----------------------------------------------


def test_descriptors_follow_the_jit_layout():
    text = headercheck.descriptors_header(headercheck.ARCHES["wormhole_b0"], "compute",
                                          {0: "Float16_b", 16: "Float32"}, "Float16_b", ComputeOptions())
    assert "constexpr std::int32_t unpack_src_format[32]" in text
    assert "constexpr uint16_t pack_tile_size[32]" in text
    assert "#define DST_SYNC_MODE DstSync::SyncHalf" in text
    # pack sees MATH_FIDELITY/APPROX and (for the Blackhole tilize workaround) unpack_src_format
    assert text.count("constexpr bool APPROX = false;") == 2
    assert text.count("unpack_src_format[32]") == 2
    formats = text.split("unpack_src_format[32] = {")[1].split("}")[0].split(", ")
    assert formats[0] == "5" and formats[16] == "0" and formats[1] == "255"
    assert "[64]" in headercheck.descriptors_header(headercheck.ARCHES["blackhole"], "reader", {}, "Float16_b",
                                                    ComputeOptions())


@pytest.mark.parametrize("arch", ["wormhole_b0", "blackhole"])
def test_circular_buffer_count_is_the_headers(arch, tmp_path):
    """tilecraft/arch's count of circular buffers per core (what E0410 and the emulator's E5101
    check) is the 0.81.1 headers' NUM_CIRCULAR_BUFFERS under the JIT's define for the arch (a
    plain host g++ reads it: no 32-bit toolchain needed)."""
    try:
        root = wheel_headers.ensure_headers()
    except HeadersUnavailable as error:
        _unavailable(str(error))
    (constants,) = root.rglob("circular_buffer_constants.h")
    probe = tmp_path / "probe.cpp"
    probe.write_text(f'#include "{constants}"\n'
                     f"static_assert(NUM_CIRCULAR_BUFFERS == {get_arch(arch).circular_buffers});\n")
    done = subprocess.run(["g++", "-std=c++17", "-fsyntax-only", f"-D{headercheck.ARCHES[arch].arch_define}",
                           str(probe)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert headercheck.ARCHES[arch].num_cbs == get_arch(arch).circular_buffers


def test_compile_commands(tmp_path):
    config = headercheck.ARCHES["wormhole_b0"]
    compute = headercheck.compile_commands("compute", config, tmp_path / "ttnn", tmp_path, (4,), {}, {},
                                           None, ())
    assert [label for label, _ in compute] == ["TRISC0 (unpack)", "TRISC1 (math)", "TRISC2 (pack)"]
    math = compute[1][1]
    assert {"-DUCK_CHLKC_MATH", "-DCOMPILE_FOR_TRISC=1", "-DPROCESSOR_INDEX=3", "-DARCH_WORMHOLE",
            "-DKERNEL_COMPILE_TIME_ARGS=4", "-m32", "-fsyntax-only", "-std=c++20"} <= set(math)
    assert math[-1].endswith("hw/firmware/src/tt-1xx/trisck.cc")
    (label, reader), = headercheck.compile_commands("riscv_1", config, tmp_path, tmp_path, (), {"X": 1},
                                                    {"n": 2}, None, ())
    assert label == "NCRISC (RISCV_1)" and reader[-1].endswith("ncrisck.cc")
    assert {"-DCOMPILE_FOR_NCRISC", "-DNOC_INDEX=1", "-DX=1", '-DKERNEL_COMPILE_TIME_ARG_MAP={"n",2}'} <= set(reader)
    (_, writer), = headercheck.compile_commands("writer", config, tmp_path, tmp_path, (), {}, {}, None, ())
    assert "-DCOMPILE_FOR_BRISC" in writer and writer[-1].endswith("brisck.cc")


def test_missing_compiler_is_explained():
    problem = headercheck.toolchain_problem("g++-tilecraft-missing")
    assert problem and "apt-get install g++-multilib" in problem
    with pytest.raises(headercheck.ToolchainUnavailable):
        check_kernel("void kernel_main() {}", "writer", compiler="g++-tilecraft-missing")


def test_kind_names():
    assert headercheck.normalize_kind("riscv_0") == "writer"
    assert headercheck.normalize_kind("RISCV_1") == "reader"
    assert headercheck.guess_kind(Path("k/matmul_compute.cpp")) == "compute"
    assert headercheck.guess_kind(Path("k/foo.cpp")) is None
    with pytest.raises(ValueError, match="unknown kernel kind"):
        headercheck.normalize_kind("dm2")


def test_gcc12_rewrites(tmp_path):
    header = tmp_path / "tt_metal" / "x.h"
    header.parent.mkdir()
    header.write_text("template <int N> void f() {\n#pragma GCC unroll N\n  for (;;) {}\n"
                      "  if constexpr (N) {} else { static_assert(false, \"bad\"); }\n}\n")
    log = wheel_headers.apply_gcc12_rewrites(tmp_path)
    text = header.read_text()
    assert "static_assert(::tilecraft_deferred_false<decltype([] {})>, \"bad\")" in text
    assert "#pragma GCC unroll 8\n" in text
    assert len(log) == 2


def test_fetch_is_idempotent_and_fails_clearly_offline(tmp_path, monkeypatch):
    monkeypatch.setenv("TILECRAFT_CACHE_DIR", str(tmp_path))
    wheel_headers.ensure_headers.cache_clear()
    failed = subprocess.CompletedProcess([], 1, "", "ERROR: Could not find a version that satisfies the "
                                                    "requirement ttnn==0.81.1 (from versions: none)")
    monkeypatch.setattr(wheels.subprocess, "run", lambda *a, **k: failed)
    try:
        with pytest.raises(HeadersUnavailable, match="Is the package index reachable") as error:
            wheel_headers.ensure_headers()
        assert "ttnn==0.81.1" in str(error.value)
        # A completed cache is served without pip.
        done = wheel_headers.headers_dir()
        done.mkdir(parents=True)
        (done / wheels.COMPLETE_MARKER).write_text(f"x.whl\nlayout {wheel_headers.LAYOUT_VERSION}\n")
        assert wheel_headers.ensure_headers() == done / "ttnn"
    finally:
        wheel_headers.ensure_headers.cache_clear()
