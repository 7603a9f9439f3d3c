"""Our sfpi.h (tilecraft/emu/tensix/sfpi): SFPI code on the Tensix machine.

Hand-written SFPI kernels check predication (nested v_if / v_elseif / v_else, v_block / v_and,
predicated Dst stores) against the SFPENCC/SFPPUSHC/SFPCOMPC/SFPPOPC semantics and the coherence
of sfpi values with raw TTI_SFP* instructions; unmodelled parts of the interface must fail to
compile with a message naming them.
"""

from __future__ import annotations

import functools
import itertools
import re
import struct
import subprocess
from pathlib import Path

import pytest
import torch
import yaml

from tests.emu.tensix.conftest import MACHINE_DIR, HeadersUnavailable, _include_flags, ensure_headers
from tilecraft.emu.llk_suite import suite_tree
from tilecraft.wheels import WheelUnavailable




# A test main: one Machine bound as the current one on the math thread, SFPU in FP32 mode, and
# Dst helpers (dst_reg[i] covers 4 rows of even (i even) or odd (i odd) columns).
PRELUDE = r'''
#include <cstdio>
#include <cstdint>
#include <cstring>
#include "machine.h"
#include "current_machine.h"
#include "cfg_defines.h"
#include "ckernel_ops.h"
// Instruction issue of raw TTI_ instructions in this host test (the machine include tree's job in
// kernel builds): the current TRISC issues the word.
#undef TTI_INSN
#undef TT_INSN
#define TTI_INSN(E) ::tc_tensix::current_machine().issue(::tc_tensix::current_thread(), unsigned(E))
#define TT_INSN(E) TTI_INSN(E)
#include "sfpi.h"

using tc_tensix::Machine;
using tc_tensix::CurrentMachineScope;
using tc_tensix::kMath;

static float f32(uint32_t u) { float f; std::memcpy(&f, &u, 4); return f; }
static uint32_t u32(float f) { uint32_t u; std::memcpy(&u, &f, 4); return u; }

// FP32 lane value of dst_reg[index] with the Dst counter at 0 (Dst keeps FP32 as
// Sign,ManHi,Exp,ManLo: datum_layout.h converts).
static uint32_t dst_row(int index, int lane) { return uint32_t((index * 2) & ~3) + uint32_t(lane / 8); }
static uint32_t dst_col(int index, int lane) { return uint32_t((lane & 7) * 2 + (index & 1)); }
static uint32_t dst_lane(Machine& m, int index, int lane) {
    return tc_tensix::fp32_from_dst32(m.dst32_read(dst_row(index, lane), dst_col(index, lane)));
}
static void set_dst_lane(Machine& m, int index, int lane, uint32_t v) {
    m.dst32_write(dst_row(index, lane), dst_col(index, lane), tc_tensix::dst32_from_fp32(v));
}
static void sfpu_fp32(Machine& m) {
    m.cfg_word(kMath, ALU_ACC_CTRL_SFPU_Fp32_enabled_ADDR32) |= 1u << ALU_ACC_CTRL_SFPU_Fp32_enabled_SHAMT;
}
'''

INPUTS = [-10.0, -8.5, -8.0, -1.0, -0.0, 0.0, 1.0, 2.0, 3.0, 3.9, 4.0, 5.0, 6.0, 9.99, 10.0, 11.0,
          -3.0, 2.5, 7.0, 0.5, -0.5, 1.5, 3.5, 6.0, 12.0, -9.0, 8.0, 1.25, 0.75, -7.0, 100.0, -100.0]


def _nested_expected(x: float, negative_zero: bool) -> float:
    """The nested-conditional kernel below, with the device's `x < 0.0f` (SFPSETCC on the sign bit)."""
    if x < 0 or negative_zero:
        return 2.0 if x < -8.0 else 1.0
    if x < 4.0:
        return 3.0
    if x >= 10.0:
        return 5.0
    return 6.0 if x == 6.0 else 4.0


def test_nested_predication_and_predicated_stores(tensix_unit_test):
    inputs = ", ".join(f"{v!r}f" for v in INPUTS)
    out = tensix_unit_test(PRELUDE + r'''
using namespace sfpi;
static const float kInputs[32] = {''' + inputs + r'''};

// A hand-written SFPU kernel: nested v_if / v_elseif / v_else, a v_block with two v_and, and a
// store to Dst inside a conditional.
static void kernel() {
    vFloat x = dst_reg[0];
    vFloat y = -1.0f;
    v_if (x < 0.0f) {
        y = 1.0f;
        v_if (x < -8.0f) { y = 2.0f; }
        v_endif;
    }
    v_elseif (x < 4.0f) { y = 3.0f; }
    v_else {
        y = 4.0f;
        v_if (x >= 10.0f) { y = 5.0f; }
        v_elseif (x == 6.0f) { y = 6.0f; }
        v_endif;
    }
    v_endif;
    dst_reg[0] = y;

    vFloat z = 0.0f;
    v_block {
        v_and (x > 1.0f);
        v_and (x < 8.0f);
        z = x * 2.0f;
    }
    v_endblock;
    dst_reg[2] = z;

    v_if (x > 5.0f) { dst_reg[1] = x + 0.5f; }   // other lanes keep the sentinel
    v_endif;
}

int main() {
    Machine m;
    CurrentMachineScope bind(m, kMath);
    sfpu_fp32(m);
    for (int lane = 0; lane < 32; ++lane) {
        set_dst_lane(m, 0, lane, u32(kInputs[lane]));
        set_dst_lane(m, 1, lane, 0xdeadbeefu);
    }
    kernel();
    for (int lane = 0; lane < 32; ++lane)
        std::printf("%g %g %08x\n", f32(dst_lane(m, 0, lane)), f32(dst_lane(m, 2, lane)), dst_lane(m, 1, lane));
    const auto& cc = m.s.sfpu.cc;
    std::printf("depth=%d use=%08x flags=%08x\n", cc.depth, cc.use_flags, cc.flags);
}
''')
    lines = out.splitlines()
    for lane, x in enumerate(INPUTS):
        y, z, stored = lines[lane].split()
        negative_zero = struct.pack("<f", x) == struct.pack("<f", -0.0)
        assert float(y) == _nested_expected(x, negative_zero), (lane, x, y)
        assert float(z) == (x * 2.0 if 1.0 < x < 8.0 else 0.0), (lane, x, z)
        expected_store = struct.unpack("<I", struct.pack("<f", x + 0.5))[0] if x > 5.0 else 0xDEADBEEF
        assert int(stored, 16) == expected_store, (lane, x, stored)
    # Every level popped; the outermost v_if left lane flags enabled and all lanes on.
    assert lines[32] == "depth=0 use=ffffffff flags=ffffffff"


def test_sfpi_and_raw_tti_share_lregs_predication_and_constants(tensix_unit_test):
    out = tensix_unit_test(PRELUDE + r'''
using namespace sfpi;
int main() {
    Machine m;
    CurrentMachineScope bind(m, kMath);
    sfpu_fp32(m);
    for (int lane = 0; lane < 32; ++lane) set_dst_lane(m, 0, lane, u32(float(lane) - 16.0f));

    // 1. A raw SFPLOADI into LReg0 is what l_reg[LReg0] reads.
    TTI_SFPLOADI(0, SFPLOADI_MOD0_FLOATB, 0x4040);                 // LReg0 = 3.0
    vFloat three = l_reg[LRegs::LReg0];
    // 2. An l_reg write is what a raw SFPMAD reads: LReg2 = LReg1 * LReg1 + LReg9 (0.0).
    vFloat x = dst_reg[0];
    l_reg[LRegs::LReg1] = x + three;
    TTI_SFPMAD(1, 1, 9, 2, 0);
    vFloat squared = l_reg[LRegs::LReg2];
    // 3. A constant written through sfpi (SFPCONFIG) is what a raw instruction reads, and back.
    vConstFloatPrgm0 = 2.5f;                                       // LReg12
    TTI_SFPMAD(12, 0, 9, 3, 0);                                    // LReg3 = 2.5 * 3.0
    vFloat seven_half = l_reg[LRegs::LReg3];
    // 4. dst_reg loads/stores do not disturb a kernel's LRegs (LReg7 is their scratch).
    TTI_SFPLOADI(7, SFPLOADI_MOD0_FLOATB, 0x4120);                 // LReg7 = 10.0
    dst_reg[1] = squared;
    vFloat back = dst_reg[1];
    vFloat ten = l_reg[LRegs::LReg7];
    dst_reg[2] = back + seven_half + ten;
    // 5. Raw predication governs sfpi assignments: enable flags, set them where LReg1 < 0.
    TTI_SFPENCC(3, 0, 0, 10);
    TTI_SFPSETCC(0, 1, 0, SFPSETCC_MOD1_LREG_LT0);
    dst_reg[3] = 7.0f;
    TTI_SFPENCC(0, 0, 0, 2);                                       // lane flags off again: all lanes
    for (int lane = 0; lane < 32; ++lane)
        std::printf("%g %g %08x\n", f32(dst_lane(m, 1, lane)), f32(dst_lane(m, 2, lane)), dst_lane(m, 3, lane));
}
''')
    for lane, line in enumerate(out.splitlines()):
        x = float(lane) - 16.0
        squared, total, predicated = line.split()
        assert float(squared) == (x + 3.0) ** 2
        assert float(total) == (x + 3.0) ** 2 + 7.5 + 10.0
        assert int(predicated, 16) == (0x40E00000 if x + 3.0 < 0 else 0)


# --- Tenstorrent's own SFPU kernels (ttnn 0.81.1 wheel) on the machine --------------------------

def _llk_flags(tt_metal: Path, shim_dir: Path) -> list[str]:
    """Include dirs for Wormhole SFPU kernels beyond the fixture's (the raw header cache, with the
    TTI_ issue redefined in the test main), and a shim for what tensix_types.h needs."""
    llk = tt_metal / "tt-llk"
    wh = llk / "tt_llk_wormhole_b0"
    metal = tt_metal / "hw" / "ckernels" / "wormhole_b0" / "metal"
    shim_dir.mkdir(parents=True, exist_ok=True)
    (shim_dir / "fmt").mkdir(exist_ok=True)
    # tensix_types.h formats debug strings with fmt; never called by SFPU code.
    (shim_dir / "fmt" / "core.h").write_text(
        "#pragma once\n#include <string>\n"
        "namespace fmt { template <class... A> std::string format(const char*, A&&...) { return {}; } }\n")
    # The kernel-side header of the machine include tree goes first, as in kernel builds: it
    # defines the dependent false the header cache writes for static_assert(false).
    kernel_header = MACHINE_DIR / "kernel_include" / "tc_tensix_kernel.h"
    return [f"-I{shim_dir}", f"-I{kernel_header.parent}", f"-include{kernel_header}", "-DARCH_WORMHOLE",
            f"-I{llk / 'common'}", f"-I{tt_metal / 'hw' / 'inc'}", f"-I{wh / 'llk_lib'}", f"-I{wh / 'common' / 'inc' / 'sfpu'}",
            f"-I{metal / 'llk_api'}", f"-I{metal / 'llk_api' / 'llk_sfpu'}", f"-I{llk / 'tools' / 'include'}"]


KERNEL_MAIN = PRELUDE + r'''
#include <iostream>
#include <string>
volatile uint32_t __instrn_buffer[1];
#include "ckernel.h"
#include "ckernel_sfpu_exp.h"
#include "ckernel_sfpu_sigmoid.h"
#include "ckernel_sfpu_gelu.h"
#include "ckernel_sfpu_recip.h"
#include "ckernel_sfpu_sqrt.h"
#include "sfpu/ckernel_sfpu_relu.h"
#include "ckernel_sfpu_tanh.h"
#include "ckernel_sfpu_log.h"
#include "ckernel_sfpu_erf.h"
#include "ckernel_sfpu_silu.h"
#include "ckernel_sfpu_exp2.h"
#include "ckernel_sfpu_expm1.h"
#include "ckernel_sfpu_log1p.h"
#include "ckernel_sfpu_cbrt.h"
#include "ckernel_sfpu_trigonometry.h"
#include "ckernel_sfpu_rsqrt.h"
#include "ckernel_sfpu_abs.h"
using namespace ckernel;
using namespace ckernel::sfpu;

// Runs kernel `op` over Dst with a 32-bit (FP32) or 16-bit (BF16) Dst; false if unknown.
template <bool FP32>
bool run_kernel(const std::string& op) {
    if (op == "exp") {
        if constexpr (!FP32) return false;  // the BF16 exp is TTI code recorded into REPLAY
        calculate_exponential<false, FP32, false, 8, true>();
    } else if (op == "sigmoid") {
        sfpu_reciprocal_init<false>();
        calculate_sigmoid<false, FP32, 8>();
    } else if (op == "gelu") {
        sfpu_reciprocal_init<false>();
        calculate_gelu<false, FP32, 8>();
    } else if (op == "reciprocal") {
        sfpu_reciprocal_init<false, !FP32>();  // recip.h: BF16-rounding seed for a 16-bit Dst
        calculate_reciprocal<false, FP32, 8>();
    } else if (op == "sqrt") {
        sqrt_init<false>();
        calculate_sqrt<false, 8, FP32, false>();
    } else if (op == "relu_min") {   // raw TTI_SFPLOAD/SFPSWAP/SFPSTORE stepped by sfpi's dst_reg++
        _relu_min_<sfpi::vFloat, false, 8>(0.5f);
    } else if (op == "relu_max") {
        _relu_max_<sfpi::vFloat, false, 8>(2.0f);
    } else if (op == "tanh") {
        tanh_init<false, FP32>();
        calculate_tanh<false, FP32, 8>();
    } else if (op == "log") {
        log_init<false, false, FP32>();
        calculate_log<false, false, false, FP32, 8>(0);
    } else if (op == "erf") {
        erf_init<false>();
        calculate_erf<false, 8>();
    } else if (op == "silu") {
        sfpu_reciprocal_init<false>();
        calculate_silu<FP32, 8>();
    } else if (op == "exp2") {
        exp2_init<false, FP32>();
        calculate_exp2<false, FP32, 8>();
    } else if (op == "expm1") {
        expm1_init<false, FP32>();
        calculate_expm1<false, FP32, 8>();
    } else if (op == "log1p") {
        log1p_init<false, false, FP32>();
        calculate_log1p<false, false, FP32, 8>();
    } else if (op == "cbrt") {
        cube_root_init<false>();
        calculate_cube_root<false, FP32, 8>();
    } else if (op == "sin") {
        sine_init<false>();
        calculate_sine<false, FP32, 8>();
    } else if (op == "cos") {
        cosine_init<false>();
        calculate_cosine<false, FP32, 8>();
    } else if (op == "rsqrt") {
        rsqrt_init<false>();
        calculate_rsqrt<false, 8, FP32, false>();
    } else if (op == "abs") {
        abs_init();
        calculate_abs<false, 8>();
    } else {
        return false;
    }
    return true;
}

// stdin: "fp32" or "bf16", the kernel's name and one Dst face of words (rows 0..15 x 16
// columns; FP32 or BF16 bits); stdout: the face after the kernel's 8 iterations (4 rows x 8
// columns each) ran over it.
int main() {
    std::string dst_mode, op;
    std::cin >> dst_mode >> op;
    const bool fp32 = dst_mode == "fp32";
    uint32_t in[256];
    for (uint32_t& v : in) std::cin >> std::hex >> v;
    Machine m;
    CurrentMachineScope bind(m, kMath);
    if (fp32) sfpu_fp32(m);  // otherwise SFPLOAD's default format resolves to BF16 (SrcB format 0)
    for (int i = 0; i < 256; ++i) {
        if (fp32) m.dst32_write(i / 16, i % 16, tc_tensix::dst32_from_fp32(in[i]));
        else m.s.dst[i / 16][i % 16] = tc_tensix::dst16_from_bf16(uint16_t(in[i]));
    }
    if (!(fp32 ? run_kernel<true>(op) : run_kernel<false>(op))) {
        std::printf("no %s kernel for %s\n", dst_mode.c_str(), op.c_str());
        return 1;
    }
    for (int i = 0; i < 256; ++i)
        std::printf("%08x\n", fp32 ? tc_tensix::fp32_from_dst32(m.dst32_read(i / 16, i % 16))
                                   : tc_tensix::bf16_from_dst16(m.s.dst[i / 16][i % 16]));
}
'''


@functools.cache
def _llk_tests_dir() -> Path:
    """The wheel's LLK test suite (tt-llk/tests), extracted into the tilecraft cache here rather than
    found there: whether another test extracted it first depends on the order tests run in (and on
    which pytest-xdist worker ran what); skipped only when the wheel cannot be had."""
    try:
        return suite_tree.ensure_llk_root() / "tests"
    except WheelUnavailable as exc:
        pytest.skip(f"the ttnn wheel's LLK test suite is unavailable: {exc}")


@functools.cache
def _budget_table() -> dict:
    """sfpu_accuracy_budget.yaml: the accuracy each SFPU op has on the device."""
    text = (_llk_tests_dir() / "python_tests" / "helpers" / "sfpu_accuracy_budget.yaml").read_text()
    return yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))


DST_MODES = {  # Dst mode of the kernel run: (torch dtype of the data, budget row key fields)
    "fp32": (torch.float32, {"in": "Float32", "out": "Float32", "dest": "Yes"}),
    "bf16": (torch.bfloat16, {"in": "Float16_b", "out": "Float16_b", "dest": "No"}),
}


def _budget(table: dict, op: str, dst: str) -> dict:
    """The most specific row for exact mode and `dst`'s formats (omitted key fields match any)."""
    query = {**DST_MODES[dst][1], "approx": "No", "arch": "wormhole"}
    rows = [r for r in table[op] if all(str(r[k]) == v for k, v in query.items() if k in r)]
    return max(rows, key=lambda r: sum(k in r for k in query))


def _ordered(x: torch.Tensor) -> torch.Tensor:
    """FP32/BF16 bit patterns as integers in numeric order (ULP distance = difference)."""
    fp32 = x.dtype == torch.float32
    bits = x.view(torch.int32 if fp32 else torch.int16).to(torch.int64)
    magnitude = bits & (0x7FFFFFFF if fp32 else 0x7FFF)
    return torch.where(bits < 0, -magnitude, magnitude)


def _check_budget(out: torch.Tensor, golden: torch.Tensor, row: dict) -> int:
    """The suite's ULP verdict (helpers/ulp.py): a lane passes within max_ulp steps, or, near zero
    (|golden| under 1% of the largest and under near_zero_atol / 0.01), within near_zero_atol.
    Returns the worst step count over the lanes the floor does not cover."""
    ulp = (_ordered(out) - _ordered(golden)).abs()
    covered = torch.zeros_like(ulp, dtype=torch.bool)
    floor = row.get("near_zero_atol")
    if floor is not None:
        magnitude = golden.double().abs()
        near_zero = (magnitude < 0.01 * magnitude.max()) & (magnitude <= floor / 0.01)
        covered = near_zero & ((out.double() - golden.double()).abs() <= floor)
    bad = ~covered & (ulp > row["max_ulp"])
    assert not bad.any(), [(float(g), float(o), int(u)) for g, o, u in zip(golden[bad], out[bad], ulp[bad])][:8]
    return int(ulp[~covered].max())


KERNELS = {  # name in KERNEL_MAIN: (budget key, input range, torch golden in float64)
    "exp": ("Exp", (-20.0, 20.0), torch.exp),
    "sigmoid": ("Sigmoid", (-20.0, 20.0), torch.sigmoid),
    # Below x ~ -4, 0.5 + 0.5 * erf cancels and the kernel's own algorithm, evaluated with IEEE FP32
    # FMAs and an exact reciprocal, already exceeds the budget the device's strided sweep measured:
    # 70897 ULP at x = -4.2014 (budget 66382; our machine gives the same). At x = -5.0762 our machine
    # is 5.2e-7 off (floor 4.6e-7) where the IEEE evaluation is 3.7e-7 off: its reciprocal is 1 ULP
    # from exact there. So the tail is left out of this budget check.
    "gelu": ("Gelu", (-3.9, 6.0), lambda x: torch.nn.functional.gelu(x)),
    "reciprocal": ("Reciprocal", (-100.0, 100.0), torch.reciprocal),
    "sqrt": ("Sqrt", (0.0, 1000.0), torch.sqrt),
    "relu_min": ("ReluMin", (-4.0, 4.0), lambda x: torch.clamp(x, min=0.5)),
    "relu_max": ("ReluMax", (-4.0, 4.0), lambda x: torch.clamp(x, 0.0, 2.0)),
    "tanh": ("Tanh", (-10.0, 10.0), torch.tanh),
    "log": ("Log", (0.01, 1000.0), torch.log),
    "erf": ("Erf", (-4.0, 4.0), torch.erf),
    "silu": ("Silu", (-10.0, 10.0), torch.nn.functional.silu),
    "exp2": ("Exp2", (-20.0, 20.0), torch.exp2),
    "expm1": ("Expm1", (-5.0, 5.0), torch.expm1),
    "log1p": ("Log1p", (-0.9, 100.0), torch.log1p),
    "cbrt": ("Cbrt", (-1000.0, 1000.0), lambda x: torch.sign(x) * x.abs() ** (1.0 / 3.0)),
    "sin": ("Sin", (-10.0, 10.0), torch.sin),
    "cos": ("Cos", (-10.0, 10.0), torch.cos),
    "rsqrt": ("Rsqrt", (0.001, 1000.0), torch.rsqrt),
    "abs": ("Abs", (-100.0, 100.0), torch.abs),
}


@pytest.fixture(scope="module")
def run_kernel(tensix_unit_test, tmp_path_factory):
    try:
        tt_metal = ensure_headers() / "tt_metal"
    except HeadersUnavailable as exc:
        pytest.skip(f"tt-metal headers unavailable: {exc}")
    flags = _llk_flags(tt_metal, tmp_path_factory.mktemp("sfpi_shims"))

    def run(op: str, dst: str, x: torch.Tensor) -> torch.Tensor:
        dtype = DST_MODES[dst][0]
        words = x.to(dtype).view(torch.int32 if dtype == torch.float32 else torch.int16).tolist()
        stdin = f"{dst}\n{op}\n" + "\n".join(f"{w & 0xFFFFFFFF:08x}" for w in words)
        out = [int(w, 16) for w in tensix_unit_test(KERNEL_MAIN, stdin=stdin, extra_flags=flags).split()]
        if dtype == torch.float32:
            return torch.tensor(out, dtype=torch.int64).to(torch.int32).view(torch.float32)
        return torch.tensor([w - 0x10000 if w & 0x8000 else w for w in out], dtype=torch.int16).view(torch.bfloat16)

    return run


@pytest.mark.parametrize("dst", sorted(DST_MODES))
@pytest.mark.parametrize("op", sorted(KERNELS))
def test_wheel_sfpu_kernel_within_device_budget(run_kernel, op, dst):
    if (op, dst) == ("exp", "bf16"):
        pytest.skip("the 16-bit-Dst exp kernel is TTI code recorded into REPLAY (no SFPI)")
    budget_key, (lo, hi), golden_fn = KERNELS[op]
    dtype = DST_MODES[dst][0]
    gen = torch.Generator().manual_seed(21)
    x = (torch.rand(256, generator=gen, dtype=torch.float64) * (hi - lo) + lo).to(dtype)
    out = run_kernel(op, dst, x)
    golden = golden_fn(x.to(torch.float64)).to(dtype)
    _check_budget(out, golden, _budget(_budget_table(), budget_key, dst))


# --- cross-lane shuffles: SFPTRANSP / SFPSHFT2 behind subvec_transp / subvec_shflror1 / subvec_shflshr1 ---

def _transpose4(values: list[list[int]], enabled: set[int]) -> list[list[int]]:
    """Transpose4 of the SFPTRANSP page's functional model, on four registers' lanes."""
    reg = [list(v) for v in values]
    for column in range(8):
        for i in range(4):
            for j in range(i):
                ij, ji = reg[i][j * 8 + column], reg[j][i * 8 + column]
                if j * 8 + column in enabled:
                    reg[i][j * 8 + column] = ji
                if i * 8 + column in enabled:
                    reg[j][i * 8 + column] = ij
    return reg


_SHUFFLES = PRELUDE + r'''
using namespace sfpi;
static void show(const char* tag, const vFloat& v) {
    std::printf("%s", tag);
    for (int lane = 0; lane < 32; ++lane) std::printf(" %d", int(f32(v.get()[lane])));
    std::printf("\n");
}
int main() {
    Machine m;
    CurrentMachineScope bind(m, kMath);
    sfpu_fp32(m);
    for (int v = 0; v < 4; ++v)
        for (int lane = 0; lane < 32; ++lane) set_dst_lane(m, 2 * v, lane, u32(float(100 * v + lane)));
    for (int r = 0; r < 8; ++r)
        for (int lane = 0; lane < 32; ++lane) m.s.lreg[r][lane] = 0xa0000000u + 32u * r + lane;
    vFloat a = dst_reg[0], b = dst_reg[2], c = dst_reg[4], d = dst_reg[6];
    vFloat ta = a, tb = b, tc = c, td = d;
    subvec_transp(ta, tb, tc, td);
    show("all0", ta); show("all1", tb); show("all2", tc); show("all3", td);
    vFloat pa = a, pb = b, pc = c, pd = d;
    v_if (a < 12.0f) { subvec_transp(pa, pb, pc, pd); }  // lanes 0..11 enabled
    v_endif;
    show("pred0", pa); show("pred1", pb); show("pred2", pc); show("pred3", pd);
    vFloat ror = subvec_shflror1(a);  // rotates `a`: the last rotation's source
    vFloat shr = subvec_shflshr1(b);
    vFloat half = b;
    v_if (b >= 116.0f) { half = subvec_shflror1(c); }  // lanes 16..31 enabled
    v_endif;
    show("ror", ror); show("shr", shr); show("half", half);
    bool kept = true;  // the kernel's LRegs around the shuffles
    for (int r = 0; r < 8; ++r)
        for (int lane = 0; lane < 32; ++lane) kept = kept && m.s.lreg[r][lane] == 0xa0000000u + 32u * r + lane;
    std::printf("lregs_kept %d\n", int(kept));
}
'''


@pytest.mark.parametrize("arch", ["wormhole", "blackhole"])
def test_subvector_shuffles_follow_the_isa_models(tensix_unit_test, arch):
    lines = {}
    for line in tensix_unit_test(_SHUFFLES, arch=arch).splitlines():
        tag, *rest = line.split()
        lines[tag] = [int(v) for v in rest]
    inputs = [[100 * v + lane for lane in range(32)] for v in range(4)]
    assert [lines[f"all{i}"] for i in range(4)] == _transpose4(inputs, set(range(32)))
    assert [lines[f"pred{i}"] for i in range(4)] == _transpose4(inputs, set(range(12)))
    a, b, c = inputs[:3]
    rotated_a, rotated_c = ([x[(lane & ~7) | ((lane - 1) & 7)] for lane in range(32)] for x in (a, c))
    assert lines["ror"] == rotated_a
    # SHFLSHR1's lane 0 of each row: Wormhole's hardware bug repeats what the last rotation read
    # (the SFPSHFT2 page), Blackhole fills zero (ttsim's model)
    first_of_row = {lane: a[lane + 7] if arch == "wormhole" else 0 for lane in range(0, 32, 8)}
    assert lines["shr"] == [b[lane - 1] if lane & 7 else first_of_row[lane] for lane in range(32)]
    assert lines["half"] == b[:16] + rotated_c[16:]
    assert lines["lregs_kept"] == [1]


# --- what is not modelled fails by name ----------------------------------------------------------

def test_unmodelled_sfpi_fails_to_compile_or_by_name(tensix_unit_test, tmp_path):
    try:
        tt_metal = ensure_headers() / "tt_metal"
    except HeadersUnavailable as exc:
        pytest.skip(f"tt-metal headers unavailable: {exc}")
    source = tmp_path / "quasar.cpp"
    source.write_text('#include "sfpi.h"\n')
    built = subprocess.run(["g++", "-std=c++20", "-fsyntax-only", "-DARCH_QUASAR", *_include_flags(tt_metal, "wormhole"),
                            str(source)], capture_output=True, text=True)
    assert built.returncode != 0
    assert "tilecraft sfpi: Quasar's SFPI is not modelled" in built.stderr

    out = tensix_unit_test(PRELUDE + r'''
#include <stdexcept>
int main() {
    Machine m;
    CurrentMachineScope bind(m, kMath);
    sfpi::vFloat a = 1.0f, b = 2.0f;
    try {
        sfpi::min_max(a, b, 0x00ff00ffu);   // a per-subvector SFPSWAP mode
    } catch (const std::runtime_error& e) {
        std::printf("%s\n", e.what());
    }
}
''')
    assert "tilecraft sfpi: min_max with a per-subvector mask is not modelled" in out


@pytest.mark.slow
def test_every_llk_suite_sfpu_operation_compiles_against_our_sfpi(tmp_path):
    """Instantiates the LLK test suite's whole SFPU dispatch (sfpu_operations.h): every unary
    SfpuType, binary BinaryOp and ternary op, exact and approximate, 16- and 32-bit Dst."""
    try:
        tt_metal = ensure_headers() / "tt_metal"
    except HeadersUnavailable as exc:
        pytest.skip(f"tt-metal headers unavailable: {exc}")
    tests_dir = _llk_tests_dir()
    dispatch = (tests_dir / "helpers" / "include" / "sfpu_operations.h").read_text()
    types = (tt_metal / "hw" / "ckernels" / "wormhole_b0" / "metal" / "llk_api" / "llk_sfpu_types.h").read_text()
    defs = (tt_metal / "tt-llk" / "tt_llk_wormhole_b0" / "common" / "inc" / "ckernel_defs.h").read_text()
    unary, binary = _enumerators(types, "SfpuType"), _enumerators(defs, "BinaryOp")
    ternary = sorted(set(re.findall(r"OPERATION == SfpuType::(\w+)",
                                    dispatch[dispatch.index("void call_ternary_sfpu_operation_init()"):])))
    sync = "ckernel::DstSync::SyncHalf"
    calls = []
    for approx, fp32 in itertools.product(("false", "true"), repeat=2):
        calls += [f"test_utils::call_unary_sfpu_operation<{sync}, false, SfpuType::{op}, {approx}, {fp32}, 8>(0);"
                  f"test_utils::call_unary_sfpu_operation_init<SfpuType::{op}, {approx}, {fp32}, 8>(0);" for op in unary]
        calls += [f"test_utils::call_binary_sfpu_operation<{sync}, {fp32}, {approx}, BinaryOp::{op}>();"
                  f"test_utils::call_binary_sfpu_operation_init<{approx}, {fp32}, BinaryOp::{op}>();" for op in binary]
        calls += [f"test_utils::call_ternary_sfpu_operation<{sync}, {fp32}, SfpuType::{op}, {approx}, {fp32}, "
                  f"DataFormat::Float32>(); test_utils::call_ternary_sfpu_operation_init<SfpuType::{op}, {approx}, {fp32}>();"
                  for op in ternary]
    source = tmp_path / "all_sfpu_ops.cpp"
    source.write_text('#include "ckernel.h"\n#include "llk_sfpu_types.h"\n#include "sfpu_operations.h"\n'
                      "void instantiate() {\n" + "\n".join(calls) + "\n}\n")
    flags = [*_include_flags(tt_metal, "wormhole"), *_llk_flags(tt_metal, tmp_path / "shims"),
             f"-I{tests_dir / 'helpers' / 'include'}"]
    built = subprocess.run(["g++", "-std=c++20", "-fsyntax-only", "-w", *flags, str(source)], capture_output=True, text=True)
    assert built.returncode == 0, built.stderr[-6000:]
    assert len(unary) > 150 and len(binary) > 40 and len(ternary) >= 5


def _enumerators(source: str, enum: str) -> list[str]:
    body = re.search(rf"enum class {enum}\b[^{{]*\{{(.*?)\}};", source, re.S).group(1)
    names = (item.split("=")[0].strip() for item in re.sub(r"//[^\n]*", "", body).split(","))
    return [n for n in names if n]
