"""clang as the Tensix machine's second kernel compiler (tilecraft/emu/toolchain.py ``clang``,
tensix_build.compile_host): used only when installed (clang 19 or newer), and only for the compiles
host g++ 12 cannot do (its crash on kernel_lib's ``BinaryFpu`` alias in the moreh kernels, a
``#pragma GCC unroll`` count that is a template parameter). The objects clang builds must run as
g++'s do: the unary exp chain, built by each, gives the same bits on the machine."""

from __future__ import annotations

from pathlib import Path

import pytest
import torch

import tilecraft.ttnn as ttnn
from tests.emu.harness import cb, dram, kernel, output, run
from tilecraft.emu import tensix_build, tensix_compute
from tilecraft.emu.toolchain import Compiler, clang
from tilecraft.ttnn.wheel_ops.eltwise import unary_reader, unary_writer

needs_clang = pytest.mark.skipif(clang() is None, reason="no clang++ 19 or newer installed (apt-get install clang-19)")

#: g++ 12.2 crashes on this (reduced by hand from moreh_common.hpp's use of kernel_lib's BinaryFpu:
#: an alias template whose class-type parameter's member is read, given a variable template of the
#: enclosing template's parameter); clang compiles it
GXX_CRASH = """struct In { int cb; };
template <int A> struct Impl {};
template <In A> using Bin = Impl<A.cb>;
template <int D> constexpr In my_input{D};
template <int D> void f() { Bin<my_input<D>> x; }
template void f<1>();
"""


def test_a_g_plus_plus_command_is_translated_for_clang() -> None:
    command = ["/usr/bin/g++", "-std=c++20", "-fpermissive", "-fno-gnu-unique", "-include", "/p/prefix.h",
               "-fmax-errors=1", "-fsyntax-only", "k.cpp"]
    translated = tensix_build.clang_command(command, Compiler("/usr/bin/clang++-19", "clang version 19.1.7"))
    assert translated == ["/usr/bin/clang++-19", "-Wno-unknown-warning-option",
                          "-Wno-missing-template-arg-list-after-template-kw", "-std=c++20", "-fms-extensions",
                          "-Xclang", "-include", "-Xclang", "/p/prefix.h", "-ferror-limit=1", "-fsyntax-only", "k.cpp"]


@needs_clang
def test_a_unit_g_plus_plus_crashes_on_is_compiled_by_clang(tmp_path: Path) -> None:
    source = tmp_path / "crash.cpp"
    source.write_text(GXX_CRASH)
    done = tensix_build.compile_host(["g++", "-std=c++20", "-fsyntax-only", str(source)])
    assert done.returncode == 0, done.stderr
    assert f"{tensix_build.CLANG_NOTE}{clang().version} compiled this unit: g++ failed on its crash" in done.stderr


def test_a_real_error_is_not_retried_with_clang(tmp_path: Path) -> None:
    source = tmp_path / "wrong.cpp"
    source.write_text("int f() { return undeclared; }\n")
    done = tensix_build.compile_host(["g++", "-std=c++20", "-fsyntax-only", str(source)])
    assert done.returncode != 0 and "'undeclared' was not declared" in done.stderr
    assert tensix_build.CLANG_NOTE not in done.stderr


def exp_chain_bits(device, ops: Path) -> torch.Tensor:
    """ttnn's unary exp chain (eltwise_sfpu.cpp, the unary factory's defines) on the Tensix machine."""
    torch.manual_seed(21)
    x = torch.randn(64, 96)
    tx, out = dram(device, x), output(device, (64, 96))
    compute = kernel(ops / "eltwise/unary/device/kernels/compute/eltwise_sfpu.cpp", ttnn.ComputeConfigDescriptor(),
                     rt=[6], defines=[("SFPU_OP_EXP_INCLUDE", "1"),
                                      ("SFPU_OP_CHAIN_0", "exp_tile_init<false>(); exp_tile<false>(0);")])
    run([tx, out], [unary_reader(ops, tx, 6), compute, unary_writer(ops, out, 2, 6)], [cb(0), cb(2)])
    got = ttnn.to_torch(out)
    assert torch.allclose(got.float(), torch.exp(ttnn.to_torch(tx).float()).to(torch.bfloat16).float(),
                          rtol=2 ** -7, atol=1e-6)
    return got.view(torch.int16)


@needs_clang
@pytest.mark.slow
def test_clang_built_trisc_objects_run_as_g_plus_plus_built_ones(device, ops, monkeypatch: pytest.MonkeyPatch) -> None:
    """$TILECRAFT_KERNEL_CXX=clang builds the TRISCs with clang (their own cache entries); the
    machine computes the same bits from them as from g++'s."""
    with_gxx = exp_chain_bits(device, ops)
    monkeypatch.setenv(tensix_compute.KERNEL_CXX_VARIABLE, "clang")
    assert tensix_compute.clang_forced()
    assert torch.equal(exp_chain_bits(device, ops), with_gxx)
