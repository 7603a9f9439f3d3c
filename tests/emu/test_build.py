"""Building kernels: compiler errors at the kernel's lines, unknown and removed API names, renamed
headers, deprecated names, a missing compiler, and the compiled-object cache (hits, corrupted and
truncated entries rebuilt, two processes building at once)."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest
import torch

import tilecraft.ttnn as ttnn
from tests.emu.harness import KERNELS, cb, compute, dram, kernel, line_of, output, reader, run, write_kernel, writer
from tilecraft.diagnostics import DiagnosticWarning, KernelError
from tilecraft.emu import cache, compile_errors, toolchain
from tilecraft.ttnn import generic

DATAFLOW = '#include <cstdint>\n#include "api/dataflow/dataflow_api.h"\n'
COMPUTE = ('#include <cstdint>\n#include "api/compute/compute_kernel_hw_startup.h"\n'
           '#include "api/compute/eltwise_binary.h"\n#include "api/compute/tile_move_copy.h"\n'
           '#include "api/compute/matmul.h"\n#include "api/compute/pack.h"\n#include "api/compute/reg_api.h"\n'
           '#include "api/compute/cb_api.h"\n#include "api/compute/transpose.h"\n#include "api/compute/reduce.h"\n'
           '#include "api/compute/bcast.h"\n#include "api/compute/eltwise_unary/eltwise_unary.h"\n')


def run_reader(device, path: Path) -> None:
    """Run one data-movement kernel (a reader) on core (0, 0)."""
    out = output(device, (32, 32))
    run([out], [kernel(path, ttnn.ReaderConfigDescriptor())], [cb(0), cb(16)])


def run_compute(device, path: Path) -> None:
    out = output(device, (32, 32))
    run([out], [compute(path)], [cb(0), cb(1), cb(16)])


def compile_error(fn, device, path: Path):
    with pytest.raises(KernelError) as info:
        fn(device, path)
    return info.value.diagnostic


# ----------------------------------------------------------------------------- compiler errors

def test_syntax_error_shows_gcc_message_at_kernel_line(device, tmp_path) -> None:
    path = write_kernel(tmp_path, "broken.cpp", DATAFLOW + textwrap.dedent("""\
        void kernel_main() {
            uint32_t x = get_arg_val<uint32_t>(0)
            cb_reserve_back(0, 1);  // FINDING-HERE (g++ reports the token after the missing ';')
        }
        """))
    diag = compile_error(run_reader, device, path)
    assert diag.code == "E5001"
    assert diag.message == "the kernel does not compile: expected ',' or ';' before 'cb_reserve_back'", diag.render()
    assert diag.span.file.endswith("broken.cpp") and diag.span.line == line_of(path), diag.render()


def test_type_error_inside_our_headers_points_at_the_kernel_call(device, tmp_path) -> None:
    """An error that fires inside an emulated header (a wrong argument type to a template) is
    reported at the kernel line that instantiated it."""
    path = write_kernel(tmp_path, "bad_template.cpp", DATAFLOW + textwrap.dedent("""\
        void kernel_main() {
            constexpr auto args = TensorAccessorArgs<0>();
            const auto acc = TensorAccessor(args, 0u);
            noc_async_read_page(0, acc, "not an address");  // FINDING-HERE
        }
        """))
    with pytest.raises(KernelError) as info:
        out = output(device, (32, 32))
        run([out], [kernel(path, ttnn.ReaderConfigDescriptor(),
                           ct=ttnn.TensorAccessorArgs(out).get_compile_time_args())], [cb(0)])
    diag = info.value.diagnostic
    assert diag.code == "E5001"
    assert diag.span.file.endswith("bad_template.cpp") and diag.span.line == line_of(path), diag.render()


def test_unknown_api_call(device, tmp_path) -> None:
    path = write_kernel(tmp_path, "unknown.cpp", DATAFLOW + textwrap.dedent("""\
        void kernel_main() {
            noc_async_read_tiles_fast(0, 1, 2);  // FINDING-HERE
        }
        """))
    diag = compile_error(run_reader, device, path)
    assert diag.code == "E5002"
    assert diag.message == ("unknown API call 'noc_async_read_tiles_fast': it is not part of the TT-Metalium 0.81.1 "
                            "kernel API the emulator models")
    assert diag.span.line == line_of(path)


def test_api_call_whose_header_is_not_included(device, tmp_path) -> None:
    path = write_kernel(tmp_path, "no_include.cpp", COMPUTE + textwrap.dedent("""\
        void kernel_main() {
            compute_kernel_hw_startup(0, 16);
            exp_tile_init();  // FINDING-HERE
        }
        """))
    diag = compile_error(run_compute, device, path)
    assert diag.code == "E5002"
    assert diag.message == ("unknown API call 'exp_tile_init': it is declared in api/compute/eltwise_unary/exp.h, "
                            "which the kernel does not include")
    assert diag.hint == '#include "api/compute/eltwise_unary/exp.h"'
    assert diag.span.line == line_of(path)


REMOVED_CALLS = {
    "binary_op_init_common": "binary_op_init_common(0, 1, 16);",
    "add_tiles_init": "add_tiles_init();",
    "sub_tiles_init": "sub_tiles_init();",
    "mul_tiles_init": "mul_tiles_init();",
    "add_tiles_init_nof": "add_tiles_init_nof();",
    "mul_tiles_init_f": "mul_tiles_init_f();",
    "mm_init": "mm_init(0, 1, 16);",
    "mm_init_short": "mm_init_short(0, 1);",
    "mm_block_init": "mm_block_init(0, 1, 16, false, 1, 1, 1);",
    "mm_block_init_short": "mm_block_init_short(0, 1, false, 1, 1, 1);",
    "pack_tile_block": "pack_tile_block(0, 16, 1);",
    "binary_dest_reuse_tiles": "binary_dest_reuse_tiles(0, 0, 0);",
    "binary_dest_reuse_tiles_init": "binary_dest_reuse_tiles_init(0);",
    "transpose_wh_init": "transpose_wh_init(0);",
    "transpose_wh_tile": "transpose_wh_tile(0, 0, 0);",
    "reduce_init_delta": "reduce_init_delta(0, 1, 16);",
    "reduce_revert_delta": "reduce_revert_delta();",
    "unpack_reconfig_data_format": "unpack_reconfig_data_format(0, 1);",
    "unpack_reconfig_data_format_srca": "unpack_reconfig_data_format_srca(0);",
    "unpack_reconfig_data_format_srcb": "unpack_reconfig_data_format_srcb(1);",
}


def test_every_removed_name_is_tested() -> None:
    assert set(REMOVED_CALLS) | {"MAIN"} == set(compile_errors.REMOVED)


@pytest.mark.parametrize("name", sorted(REMOVED_CALLS))
def test_removed_name_names_its_replacement(device, tmp_path, name) -> None:
    path = write_kernel(tmp_path, f"{name}.cpp", COMPUTE + textwrap.dedent(f"""\
        void kernel_main() {{
            {REMOVED_CALLS[name]}  // FINDING-HERE
        }}
        """))
    diag = compile_error(run_compute, device, path)
    assert diag.code == "E5003", diag.render()
    assert diag.message == f"'{name}' was removed in TT-Metalium 0.81.1"
    assert diag.hint == f"use {compile_errors.REMOVED[name]}"
    assert diag.span.line == line_of(path)


def test_old_compute_main_spelling(device, tmp_path) -> None:
    path = write_kernel(tmp_path, "old_main.cpp", COMPUTE + textwrap.dedent("""\
        namespace NAMESPACE {
        void MAIN {  // FINDING-HERE
        }
        }
        """))
    diag = compile_error(run_compute, device, path)
    assert diag.code == "E5003" and "'MAIN' was removed" in diag.message, diag.render()
    assert "void kernel_main()" in diag.hint
    assert diag.span.line == line_of(path)


def test_renamed_header(device, tmp_path) -> None:
    path = write_kernel(tmp_path, "old_header.cpp", textwrap.dedent("""\
        #include <cstdint>
        #include "compute_kernel_api/eltwise_binary.h"  // FINDING-HERE
        void kernel_main() {}
        """))
    diag = compile_error(run_compute, device, path)
    assert diag.code == "E5005"
    assert diag.message == "header 'compute_kernel_api/eltwise_binary.h' does not exist in TT-Metalium 0.81.1"
    assert diag.hint == '#include "api/compute/eltwise_binary.h"'
    assert diag.span.line == line_of(path)


def test_deprecated_name_is_a_warning_at_its_line(device, tmp_path) -> None:
    path = write_kernel(tmp_path, "deprecated.cpp", COMPUTE + textwrap.dedent("""\
        void kernel_main() {
            compute_kernel_hw_startup(0, 16);
            copy_tile_init(0);  // FINDING-HERE
        }
        """))
    with pytest.warns(DiagnosticWarning) as caught:
        run_compute(device, path)
    diag = caught[0].message.diagnostic
    assert (diag.code, diag.severity, diag.span.line, diag.span.col) == ("E5007", "warning", line_of(path), 19)
    assert diag.message == ("'copy_tile_init' is deprecated in TT-Metalium 0.81.1: Renamed to copy_init(). This "
                            "will be removed after 20-09-2026.")
    with pytest.warns(DiagnosticWarning, match=r"warning\[E5007\]"):
        run_compute(device, path)  # from the cache: the warning is kept with the object


def test_no_compiler_says_what_to_install(device, tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("CXX", "g++-that-does-not-exist")
    toolchain.compiler.cache_clear()
    try:
        path = write_kernel(tmp_path, "fine.cpp", DATAFLOW + "void kernel_main() {}\n")
        with pytest.raises(KernelError) as info:
            run_reader(device, path)
    finally:
        monkeypatch.delenv("CXX")
        toolchain.compiler.cache_clear()
    diag = info.value.diagnostic
    assert diag.code == "E5004"
    assert "needs a C++20 compiler and found none ('g++-that-does-not-exist' is not on PATH)" in diag.message
    assert "apt-get install g++" in diag.hint


# ----------------------------------------------------------------------------- the cache

#: the cache kinds a fresh cache shares with the session's (symbolic links): the runtime library,
#: the machine's include tree and precompiled prefixes, its archive and its compute bridge, which
#: cost minutes of CPU to rebuild and are no subject of these tests
SHARED_KINDS = ("runtime", "tensix-tree", "tensix-prefix", "tensix-machine", "tensix-bridge")
#: where a fresh cache's kernels go: data-movement kernels (the real dataflow API's builds) and
#: compute kernels (the Tensix machine's three TRISC builds)
DATAFLOW_KIND, COMPUTE_KIND = "tensix-dataflow", "tensix-compute"


@pytest.fixture
def fresh_cache(tmp_path, monkeypatch) -> Iterator[Path]:
    """An empty cache directory for kernels, in this process and its children; the kinds in
    SHARED_KINDS are the session's."""
    shared = cache.emu_cache()
    root = tmp_path / "cache"
    (root / "emu").mkdir(parents=True)
    for kind in SHARED_KINDS:
        (shared / kind).mkdir(parents=True, exist_ok=True)
        (root / "emu" / kind).symlink_to(shared / kind, target_is_directory=True)
    monkeypatch.setenv("TILECRAFT_CACHE_DIR", str(root))
    yield root


def entries(root: Path, kind: str) -> list[Path]:
    """The cache entries of ``kind`` under the cache ``root`` (scratch directories left out)."""
    return sorted(e for e in (root / "emu" / kind).iterdir() if not e.name.startswith("."))


def copy_program(device, values: torch.Tensor) -> ttnn.Tensor:
    tiles = values.numel() // 1024
    a = dram(device, values)
    out = output(device, values.shape)
    run([a, out], [reader(a, 0, tiles), writer(out, 16, tiles), compute(KERNELS / "compute_unary.cpp", rt=[tiles],
                                                                        defines=[("SFPU_OPS", "")])],
        [cb(0), cb(16)])
    return out


def test_second_run_compiles_nothing(device, fresh_cache) -> None:
    x = torch.randn(64, 32)
    with generic.recorded_runs() as runs:
        copy_program(device, x)
        out = copy_program(device, x)
    assert [(r.kernels, r.kernels_compiled) for r in runs] == [(3, 3), (3, 0)]
    assert torch.equal(ttnn.to_torch(out), x.bfloat16())
    assert (len(entries(fresh_cache, DATAFLOW_KIND)), len(entries(fresh_cache, COMPUTE_KIND))) == (2, 1)


@pytest.mark.parametrize("damage", ["corrupt", "truncate", "delete_stamp"])
def test_damaged_entry_is_rebuilt(device, fresh_cache, damage) -> None:
    x = torch.randn(32, 32)
    copy_program(device, x)
    victim = entries(fresh_cache, DATAFLOW_KIND)[0]
    obj = victim / cache.OBJECT
    if damage == "corrupt":
        data = bytearray(obj.read_bytes())
        data[len(data) // 2] ^= 0xFF
        obj.write_bytes(bytes(data))
    elif damage == "truncate":
        obj.write_bytes(obj.read_bytes()[:100])
    else:
        (victim / cache.STAMP).unlink()
    with generic.recorded_runs() as runs:
        out = copy_program(device, x)
    assert [r.kernels_compiled for r in runs] == [1]
    assert torch.equal(ttnn.to_torch(out), x.bfloat16())
    assert cache.lookup(DATAFLOW_KIND, victim.name) is not None


def test_key_covers_args_defines_and_included_files(device, fresh_cache, tmp_path) -> None:
    header = write_kernel(tmp_path, "helper.h", "constexpr uint32_t kPages = 1;\n")
    path = write_kernel(tmp_path, "uses_helper.cpp", DATAFLOW + '#include "helper.h"\n'
                        "void kernel_main() { cb_reserve_back(0, kPages); cb_push_back(0, kPages); }\n")
    out = output(device, (32, 32))

    def go(ct=(), defines=()):
        with generic.recorded_runs() as runs:
            run([out], [kernel(path, ttnn.ReaderConfigDescriptor(), ct=ct, defines=defines)], [cb(0)])
        return runs[0].kernels_compiled

    assert go() == 1
    assert go() == 0
    assert go(ct=[7]) == 1
    assert go(defines=[("X", "1")]) == 1
    header.write_text("constexpr uint32_t kPages = 2;\n")
    assert go() == 1


def test_a_ttnn_tree_kernel_gets_its_include_roots_and_their_files_in_the_key(device, fresh_cache, tmp_path) -> None:
    """A kernel under ``<root>/ttnn/cpp/ttnn/`` includes ``ttnn/operations/...`` (from ``ttnn/cpp``),
    ``cpp/ttnn/...`` (from ``ttnn``) and ``ttnn/cpp/ttnn/...`` (from the root), as the JIT build lets
    ttnn's kernels; a change to such a file rebuilds the kernel."""
    ops = tmp_path / "ttnn" / "cpp" / "ttnn" / "operations"
    (ops / "op" / "kernels").mkdir(parents=True)
    write_kernel(ops, "helper.hpp", '#include "ttnn/cpp/ttnn/operations/count.hpp"\n')
    write_kernel(ops, "count.hpp", '#include "cpp/ttnn/operations/pages.hpp"\n')
    pages = write_kernel(ops, "pages.hpp", "constexpr uint32_t kPages = 1;\n")
    path = write_kernel(ops / "op" / "kernels", "uses_roots.cpp", DATAFLOW + '#include "ttnn/operations/helper.hpp"\n'
                        "void kernel_main() { cb_reserve_back(0, kPages); cb_push_back(0, kPages); }\n")

    def go() -> int:
        with generic.recorded_runs() as runs:
            run([output(device, (32, 32))], [kernel(path, ttnn.ReaderConfigDescriptor())], [cb(0)])
        return runs[0].kernels_compiled

    assert go() == 1
    assert go() == 0
    pages.write_text("constexpr uint32_t kPages = 2;\n")
    assert go() == 1


def test_two_processes_build_the_same_kernels_at_once(fresh_cache, tmp_path) -> None:
    script = tmp_path / "both.py"
    script.write_text(textwrap.dedent(f"""\
        import sys, torch
        sys.path.insert(0, {str(Path(__file__).parents[2])!r})
        import tilecraft.ttnn as ttnn
        from tests.emu.test_build import copy_program
        device = ttnn.open_device(0)
        x = torch.arange(2048, dtype=torch.float32).reshape(64, 32)
        out = copy_program(device, x)
        assert torch.equal(ttnn.to_torch(out), x.bfloat16())
        print("ok")
        """))
    # the runtime library and the machine's tree, prefixes, archive and bridge are the session's (fresh_cache);
    # the kernels are what the processes race to build
    env = {**os.environ, "TILECRAFT_CACHE_DIR": str(fresh_cache)}
    procs = [subprocess.Popen([sys.executable, str(script)], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True) for _ in range(3)]
    results = [p.communicate(timeout=600) for p in procs]
    for p, (out, err) in zip(procs, results):
        assert p.returncode == 0 and out.strip() == "ok", err
    for kind, count in ((DATAFLOW_KIND, 2), (COMPUTE_KIND, 1)):
        built = entries(fresh_cache, kind)
        assert len(built) == count and all(cache.lookup(kind, e.name) for e in built)
        assert not [e for e in (fresh_cache / "emu" / kind).iterdir() if e.name.startswith(".")]  # no scratch left


def test_kernel_globals_start_afresh_each_run(device, tmp_path) -> None:
    """Kernels are unloaded after each run: a global starts from its initialiser every time (on
    hardware each launch loads the kernel binary again)."""
    path = write_kernel(tmp_path, "global_counter.cpp", DATAFLOW + '#include "api/debug/dprint.h"\n'
                        "uint32_t runs = 0;\nvoid kernel_main() { ++runs; DPRINT(\"{}\\n\", runs); }\n")
    with generic.recorded_runs() as runs:
        for _ in range(2):
            run_reader(device, path)
    assert [r.dprint.strip()[-1:] for r in runs] == ["1", "1"], [r.dprint for r in runs]


def test_recorded_runs_nest_and_keep_nothing_outside_their_block(device, tmp_path) -> None:
    """Tests read a launch's account through ``generic.recorded_runs``; no module keeps the last one."""
    path = write_kernel(tmp_path, "says_hi.cpp", DATAFLOW + '#include "api/debug/dprint.h"\n'
                        'void kernel_main() { DPRINT("hi\\n"); }\n')
    with generic.recorded_runs() as outer:
        run_reader(device, path)
        with generic.recorded_runs() as inner:
            run_reader(device, path)
    run_reader(device, path)
    assert len(outer) == 2 and inner == [outer[1]]
    assert [r.dprint.strip().endswith("hi") for r in outer] == [True, True]
    assert not hasattr(generic, "last_run")
