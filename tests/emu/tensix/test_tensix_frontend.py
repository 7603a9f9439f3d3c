"""The Tensix machine's frontend and sync units and its fibers (tilecraft/emu/tensix: mop.cpp,
replay.cpp, config.cpp, sync.cpp, fibers.cpp, mmio.cpp), checked against the ISA documentation's
functional models (MOPExpander.md, REPLAY.md, RMWCIB.md, the *DMAREG pages, SEMPOST/SEMGET/SEMWAIT).

One C++ program (one compile) runs every case and prints ``name: values``; a probe opcode (0xfe,
unused by the ISA) records the order in which words reach execution.
"""

from __future__ import annotations

import pytest

PROGRAM = r'''
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

#include "ckernel_ops.h"
#include "cfg_defines.h"
#include "fibers.h"
#include "machine.h"

using namespace tc_tensix;

static std::vector<unsigned> g_seen;
static void probe(Machine&, int, uint32_t word) { g_seen.push_back(word & 0xffffffu); }
TC_OPCODE(0xfe, PROBE, probe);
static uint32_t P(unsigned id) { return (0xfeu << 24) | id; }

static void print_seen(const char* name) {
    std::printf("%s:", name);
    for (unsigned v : g_seen) std::printf(" %u", v);
    std::printf("\n");
    g_seen.clear();
}

static std::string one_line(std::string s) {
    for (char& c : s) if (c == '\n') c = '|';
    return s;
}

static void set_mop(Machine& m, int t, std::vector<uint32_t> cfg) {
    for (int i = 0; i < 9; ++i) m.s.mop_cfg[t][i] = cfg[i];
}

int main() {
    Machine m;
    const int T = kMath;
    const uint32_t NOP = TT_OP_NOP;

    // Template 0, HasA123 + HasB, 3 iterations, mask bit 1 set: A0 A1 A2 A3 B | SkipA0 SkipB | A0..B
    set_mop(m, T, {0, 3, P(5), P(1), P(2), P(3), P(4), P(7), P(8)});
    m.issue(T, TT_OP_MOP(0, 2, 0b010));
    print_seen("t0_full");
    // Template 0 without A1..A3/B; MOP_CFG supplies mask bits 16..31: 18 iterations, bit 16 set
    set_mop(m, T, {0, 0, P(5), P(1), P(2), P(3), P(4), P(7), P(8)});
    m.issue(T, TT_OP_MOP_CFG(1));
    m.issue(T, TT_OP_MOP(0, 17, 0));
    print_seen("t0_maskhi");
    m.issue(T, TT_OP_MOP_CFG(0));

    // Template 1: outer 2, inner 2, start/end ops, LoopOp1 a NOP
    set_mop(m, T, {2, 2, P(10), P(11), P(12), P(13), NOP, P(17), P(18)});
    m.issue(T, TT_OP_MOP(1, 0, 0));
    print_seen("t1_plain");
    // Template 1 alternating LoopOp/LoopOp1 (inner doubles), no start, EndOp1 ignored without EndOp0
    set_mop(m, T, {1, 2, NOP, NOP, P(12), P(13), P(14), P(17), P(18)});
    m.issue(T, TT_OP_MOP(1, 0, 0));
    print_seen("t1_flip");
    // Template 1's hardware quirk: outer 1, no start, inner 0, EndOp0 set -> 129 outer iterations
    set_mop(m, T, {1, 0, NOP, P(11), NOP, P(13), NOP, P(17), P(18)});
    m.issue(T, TT_OP_MOP(1, 0, 0));
    std::printf("t1_quirk: %zu\n", g_seen.size());
    g_seen.clear();

    // REPLAY: record without executing, replay, record while executing, wrap-around slots
    m.issue(T, TT_OP_REPLAY(4, 3, 0, 1));
    m.issue(T, P(21)); m.issue(T, P(22)); m.issue(T, P(23));
    print_seen("rec_noexec");
    m.issue(T, TT_OP_REPLAY(4, 3, 0, 0));
    m.issue(T, TT_OP_REPLAY(5, 1, 0, 0));
    print_seen("replay");
    m.issue(T, TT_OP_REPLAY(30, 4, 1, 1));
    m.issue(T, P(31)); m.issue(T, P(32)); m.issue(T, P(33)); m.issue(T, P(34));
    print_seen("rec_exec");
    m.issue(T, TT_OP_REPLAY(31, 2, 0, 0));
    print_seen("replay_wrap");
    // a MOP whose A0 is a REPLAY: the replay expander sits after the MOP expander
    set_mop(m, T, {0, 0, NOP, TT_OP_REPLAY(0, 2, 0, 0), NOP, NOP, NOP, P(99), NOP});
    m.issue(T, TT_OP_MOP(0, 1, 0b10));
    print_seen("mop_replay");
    // recording is per thread: UNPACK records while MATH's words pass straight through
    m.issue(kUnpack, TT_OP_REPLAY(0, 1, 0, 1));
    m.issue(T, P(41));
    m.issue(kUnpack, P(42));
    m.issue(kUnpack, TT_OP_REPLAY(0, 1, 0, 0));
    print_seen("per_thread");

    // RMWCIB: byte n of the word in the state CFG_STATE_ID selects, masked
    m.s.cfg[0][10] = 0xAABBCCDDu;
    m.issue(T, TT_OP_RMWCIB2(0xF0, 0x12, 10));
    m.issue(T, TT_OP_RMWCIB0(0xFF, 0x34, 10));
    std::printf("rmwcib: %08x %08x\n", m.s.cfg[0][10], m.s.cfg[1][10]);
    m.issue(T, TT_OP_SETC16(CFG_STATE_ID_StateID_ADDR32, 1));
    m.issue(T, TT_OP_RMWCIB3(0x0F, 0xFF, 10));
    std::printf("rmwcib_state1: %08x %08x\n", m.s.cfg[0][10], m.s.cfg[1][10]);
    // WRCFG / RDCFG through GPRs (state 1 now), 128-bit write
    m.s.gpr[T][8] = 1; m.s.gpr[T][9] = 2; m.s.gpr[T][10] = 3; m.s.gpr[T][11] = 4;
    m.issue(T, TT_OP_WRCFG(9, 1, 22));
    m.issue(T, TT_OP_RDCFG(12, 21));
    std::printf("wrcfg128: %u %u %u %u rd=%u\n", m.s.cfg[1][20], m.s.cfg[1][21], m.s.cfg[1][22], m.s.cfg[1][23],
                m.s.gpr[T][12]);
    m.issue(T, TT_OP_SETC16(CFG_STATE_ID_StateID_ADDR32, 0));

    // GPR arithmetic
    m.issue(T, TT_OP_SETDMAREG(0, 0x1234, 0, 2 * 5));      // low half of r5
    m.issue(T, TT_OP_SETDMAREG(0, 0x0003, 0, 2 * 5 + 1));  // high half of r5
    m.issue(T, TT_OP_SETDMAREG(0, 7, 0, 2 * 6));
    m.issue(T, TT_OP_ADDDMAREG(0, 7, 6, 5));     // r7 = r5 + r6
    m.issue(T, TT_OP_SUBDMAREG(1, 8, 40, 6));    // r8 = r6 - 40 (wraps)
    m.issue(T, TT_OP_MULDMAREG(0, 9, 5, 5));     // r9 = lo16(r5)^2
    m.issue(T, TT_OP_SHIFTDMAREG(1, 0, 10, 4, 6)); // r10 = r6 << 4
    m.issue(T, TT_OP_SHIFTDMAREG(1, 1, 11, 2, 5)); // r11 = r5 >> 2
    m.issue(T, TT_OP_BITWOPDMAREG(1, 2, 12, 0x3f, 6)); // r12 = r6 ^ 63
    m.issue(T, TT_OP_CMPDMAREG(0, 0, 13, 6, 5)); // r13 = r5 > r6
    m.issue(T, TT_OP_CMPDMAREG(1, 2, 14, 7, 6)); // r14 = r6 == 7
    std::printf("gpr: %08x %u %08x %u %u %u %u %u %u\n", m.s.gpr[T][5], m.s.gpr[T][7], m.s.gpr[T][8], m.s.gpr[T][9],
                m.s.gpr[T][10], m.s.gpr[T][11], m.s.gpr[T][12], m.s.gpr[T][13], m.s.gpr[T][14]);

    // Semaphores: SEMINIT (mask), SEMPOST caps at 15 (not at max), SEMGET floors at 0
    m.issue(T, TT_OP_SEMINIT(2, 1, 0b1010));
    for (int i = 0; i < 20; ++i) m.issue(T, TT_OP_SEMPOST(0b0010));
    m.issue(T, TT_OP_SEMGET(0b1000));
    m.issue(T, TT_OP_SEMGET(0b1000));
    std::printf("sem: %u/%u %u/%u\n", m.s.sem_value[1], m.s.sem_max[1], m.s.sem_value[3], m.s.sem_max[3]);
    try { m.issue(T, TT_OP_SEMWAIT(2, 0b1000, 1)); std::printf("semwait_zero: passed\n"); }
    catch (const std::runtime_error& e) { std::printf("semwait_zero: %s\n", e.what()); }
    m.issue(T, TT_OP_SEMWAIT(2, 0b0010, 1));  // value 15 is non-zero: passes
    std::printf("semwait_nonzero: passed\n");

    // Fibers: MATH waits on a semaphore that PACK posts after polling twice; UNPACK takes a
    // mutex MATH then waits for. The order of events shows the round robin.
    {
        Machine f;
        std::vector<std::string> log;
        const std::string err = run_triscs(f, [&](int t) {
            if (t == kUnpack) {
                f.issue(t, TT_OP_ATGETM(3)); log.push_back("U:got");
                for (int i = 0; i < 4; ++i) fiber_poll("nothing");
                log.push_back("U:release");
                f.issue(t, TT_OP_ATRELM(3));
            } else if (t == kMath) {
                f.issue(t, TT_OP_SEMWAIT(2, 0b1, 1)); log.push_back("M:sem");
                f.issue(t, TT_OP_ATGETM(3)); log.push_back("M:got");
            } else {
                fiber_poll("a"); fiber_poll("b"); log.push_back("P:post");
                f.issue(t, TT_OP_SEMPOST(0b1));
            }
        }, 10.0);
        std::printf("fibers: [%s]", err.c_str());
        for (auto& e : log) std::printf(" %s", e.c_str());
        std::printf("\n");
    }
    // Deadlock: UNPACK and MATH wait on semaphores nobody posts; PACK finishes
    {
        Machine f;
        const std::string err = run_triscs(f, [&](int t) {
            if (t == kUnpack) f.issue(t, TT_OP_SEMWAIT(2, 0b1000, 1));
            if (t == kMath) { f.issue(t, TT_OP_NOP); f.issue(t, TT_OP_SEMWAIT(2, 0b0100, 2)); }
        }, 10.0);
        std::printf("deadlock: %s\n", one_line(err).c_str());
    }
    // A hard error on a fiber ends the run with its message (no exception crosses the fiber)
    {
        Machine f;
        const std::string err = run_triscs(f, [&](int t) { if (t == kPack) f.issue(t, 0xfd000000u); }, 10.0);
        std::printf("fail: %s\n", err.c_str());
    }
    // A crash in kernel code is reported with the thread and its last instruction
    {
        Machine f;
        const std::string err = run_triscs(f, [&](int t) {
            if (t == kMath) { f.issue(t, TT_OP_NOP); *static_cast<volatile int*>(nullptr) = 1; }
        }, 10.0);
        std::printf("crash: %s\n", err.c_str());
    }
}
'''


@pytest.fixture(scope="module")
def results(tensix_unit_test) -> dict[str, str]:
    out = tensix_unit_test(PROGRAM)
    return dict(line.split(": ", 1) if ": " in line else (line.rstrip(":"), "") for line in out.splitlines())


def seen(results: dict[str, str], name: str) -> list[int]:
    return [int(v) for v in results[name].split()]


def test_mop_template0_order_and_mask(results):
    # MOPExpander.md ExpandTemplate0: per iteration A0 A1 A2 A3 B, or SkipA0 SkipB where the mask bit is set
    assert seen(results, "t0_full") == [1, 2, 3, 4, 5, 7, 8, 1, 2, 3, 4, 5]
    # mask bit 16 comes from MOP_CFG; without HasB/HasA123 only A0 / SkipA0
    assert seen(results, "t0_maskhi") == [1] * 16 + [7] + [1]


def test_mop_template1_loops(results):
    # outer 2 x (Start, inner 2 with Loop1Last/Loop0Last on the last inner iteration, End0, End1)
    assert seen(results, "t1_plain") == [10, 13, 18, 11, 12, 10, 13, 17, 11, 12]
    # LoopOp1 not a NOP: LoopOp and LoopOp1 alternate over twice the iterations; no EndOp0 -> no EndOp1
    assert seen(results, "t1_flip") == [13, 14, 13, 17]
    # the documented hardware bug: 128 extra outer iterations
    assert results["t1_quirk"] == "129"


def test_replay_record_and_replay(results):
    assert results["rec_noexec"] == ""
    assert seen(results, "replay") == [21, 22, 23, 22]
    assert seen(results, "rec_exec") == [31, 32, 33, 34]
    assert seen(results, "replay_wrap") == [32, 33]  # slots 31, 0
    # MOP A0 is REPLAY(0, 2): slots 0 and 1 hold 33, 34; the masked iteration emits SkipA0
    assert seen(results, "mop_replay") == [33, 34, 99]
    # the UNPACK thread's recording does not capture MATH's word
    assert seen(results, "per_thread") == [41, 42]


def test_rmwcib_masks_and_state(results):
    # RMWCIB2 mask F0 data 12 on byte 2 (BB) -> 1B; RMWCIB0 replaces byte 0 entirely
    assert results["rmwcib"] == "aa1bcc34 00000000"
    # with CFG_STATE_ID = 1 the write lands in state 1: byte 3 = (FF & 0F) | (00 & F0)
    assert results["rmwcib_state1"] == "aa1bcc34 0f000000"
    # 128-bit WRCFG: GPRs 8..11 into words 20..23 (indices rounded down to multiples of 4)
    assert results["wrcfg128"] == "1 2 3 4 rd=2"


def test_gpr_arithmetic(results):
    r5, r6 = 0x00031234, 7
    expected = [f"{r5:08x}", str(r5 + r6), f"{(r6 - 40) & 0xffffffff:08x}", str(0x1234 * 0x1234), str(r6 << 4),
                str(r5 >> 2), str(r6 ^ 63), "1", "1"]
    assert results["gpr"].split() == expected


def test_semaphores(results):
    # SEMINIT sets value 1 / max 2 on semaphores 1 and 3; SEMPOST counts to 15 whatever the max
    assert results["sem"] == "15/2 0/2"
    assert "waits for semaphore(s) 3 to be non-zero" in results["semwait_zero"]
    assert results["semwait_nonzero"] == "passed"


def test_fibers_round_robin_and_blocking(results):
    # UNPACK takes the mutex and polls four times; MATH waits for the semaphore PACK posts after
    # two polls (round 3), then for the mutex UNPACK releases in round 5
    assert results["fibers"] == "[] U:got P:post M:sem U:release M:got"


def test_deadlock_report_names_waits_and_last_instructions(results):
    report = results["deadlock"]
    assert report.startswith("the three TRISCs deadlocked: no thread can make progress.")
    assert "TRISC UNPACK: waits for semaphore(s) 3 to be non-zero; its last instruction was 0xa6" in report
    assert "(SEMWAIT)" in report
    assert "TRISC MATH: waits for semaphore(s) 2 to be below their max" in report
    assert "TRISC PACK: finished" in report


def test_hard_error_and_crash_end_the_run_with_a_message(results):
    assert results["fail"].startswith("TRISC PACK issued 0xfd000000 (opcode 0xfd ?): ")
    assert "not modelled" in results["fail"]
    assert results["crash"].startswith("TRISC MATH crashed with SIGSEGV (invalid memory access) at address (nil); "
                                       "its last instruction was 0x02000000 (NOP)")
