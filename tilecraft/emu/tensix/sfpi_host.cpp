// Machine side of our sfpi.h (sfpi/sfpi_host.h): predicated assignment and the SFPU/FPU
// instructions SFPI code issues for Dst access, counters and constant registers.
#include "sfpi/sfpi_host.h"

#include <algorithm>
#include <cstring>

#include "current_machine.h"
#include "machine.h"

#include "cfg_defines.h"  // PRNG_SEED register
#include "ckernel_ops.h"  // the wheel's TT_OP_* encodings

namespace tc_tensix::sfpi_host {

namespace {

constexpr unsigned kScratchLReg = 7;  // holds values around issued SFPLOAD/SFPSTORE; restored after

Machine& machine_for_sfpi() {
    Machine& m = current_machine();
    const int thread = current_thread();
    if (m.s.replay_record_left[thread] > 0)
        m.fail(thread, 0, "SFPI code (vFloat/v_if/dst_reg...) ran while a REPLAY buffer was recording; "
                          "only TTI_ instructions can be recorded, tilecraft does not model this mix");
    return m;
}

// Runs `issue` with LReg `idx` temporarily holding `value` (all lanes); returns what the issued
// instruction left in it and restores the kernel's LReg.
template <class Issue>
Vec through_lreg(Machine& m, unsigned idx, const Vec& value, Issue issue) {
    uint32_t (&reg)[kSfpuLanes] = m.s.lreg[idx];
    Vec saved;
    for (int i = 0; i < kSfpuLanes; ++i) saved[i] = reg[i], reg[i] = value[i];
    issue();
    Vec out;
    for (int i = 0; i < kSfpuLanes; ++i) out[i] = reg[i], reg[i] = saved[i];
    return out;
}

sfpu::SfpuState& sfpu_state() { return machine_for_sfpi().s.sfpu; }

}  // namespace

uint32_t enabled_lanes() { return sfpu_state().enabled(); }

void assign_enabled(Vec& dst, const Vec& src) {
    const uint32_t on = enabled_lanes();
    if (on == sfpu::kAllLanes) {  // outside v_if: the common case, one copy
        dst = src;
        return;
    }
    for (int i = 0; i < sfpu::kLanes; ++i)
        if ((on >> i) & 1u) dst[i] = src[i];
}

Vec dst_load(unsigned mod0, unsigned addr, unsigned addr_mod) {
    Machine& m = machine_for_sfpi();
    return through_lreg(m, kScratchLReg, Vec{}, [&] {
        m.issue(current_thread(), TT_OP_SFPLOAD(kScratchLReg, mod0, addr_mod, addr));
    });
}

void dst_store(const Vec& v, unsigned mod0, unsigned addr, unsigned addr_mod) {
    Machine& m = machine_for_sfpi();
    through_lreg(m, kScratchLReg, v, [&] {
        m.issue(current_thread(), TT_OP_SFPSTORE(kScratchLReg, mod0, addr_mod, addr));
    });
}

void advance_dst(unsigned rows) {
    Machine& m = machine_for_sfpi();
    m.issue(current_thread(), TT_OP_INCRWC(0, rows, 0, 0));
}

Vec read_lreg(unsigned idx) {
    const Machine& m = machine_for_sfpi();
    Vec r;
    for (int i = 0; i < kSfpuLanes; ++i) r[i] = m.s.lreg[idx & 15u][i];
    return r;
}

void write_lreg(unsigned idx, const Vec& v) {
    Machine& m = machine_for_sfpi();
    if (idx >= 8) unsupported("writing l_reg[" + std::to_string(idx) + "] (only LReg0..7 are writable)");
    const uint32_t on = m.s.sfpu.enabled();
    for (int i = 0; i < kSfpuLanes; ++i)
        if ((on >> i) & 1u) m.s.lreg[idx][i] = v[i];
}

void transpose_subvecs(Vec& a, Vec& b, Vec& c, Vec& d) {
    Machine& m = machine_for_sfpi();
    Vec* const values[4] = {&a, &b, &c, &d};
    uint32_t saved[8][kSfpuLanes];  // SFPTRANSP transposes LReg[4..7] too
    std::memcpy(saved, m.s.lreg, sizeof saved);
    for (int r = 0; r < 4; ++r) std::copy(values[r]->begin(), values[r]->end(), m.s.lreg[r]);
    m.issue(current_thread(), TT_OP_SFPTRANSP(0, 0, 0, 0));
    for (int r = 0; r < 4; ++r) std::copy(m.s.lreg[r], m.s.lreg[r] + kSfpuLanes, values[r]->begin());
    std::memcpy(m.s.lreg, saved, sizeof saved);
}

Vec shuffle_subvec(const Vec& v, unsigned mod1) {
    Machine& m = machine_for_sfpi();
    return through_lreg(m, kScratchLReg, v, [&] {
        m.issue(current_thread(), TT_OP_SFPSHFT2(0, kScratchLReg, kScratchLReg, mod1));
    });
}

void write_config_lreg(unsigned idx, const Vec& v) {
    Machine& m = machine_for_sfpi();
    through_lreg(m, 0, v, [&] { m.issue(current_thread(), TT_OP_SFPCONFIG(0, idx, 0)); });
}

Vec prng_values() {
    Machine& m = machine_for_sfpi();
    sfpu::SfpuState& st = m.s.sfpu;
    st.prng.follow_seed_register(m.cfg_word(current_thread(), PRNG_SEED_Seed_Val_ADDR32));
    const uint32_t on = st.enabled();
    Vec r{};
    for (int i = 0; i < sfpu::kLanes; ++i)
        if ((on >> i) & 1u) r[i] = st.prng.advance(i);
    return r;
}

void unsupported(const std::string& what) {
    current_machine().fail(current_thread(), 0, "tilecraft sfpi: " + what + " is not modelled");
}

void cc_open() {
    sfpu::Predication& cc = sfpu_state().cc;
    if (cc.depth == 0) cc.encc(10 /* EI_RI: set both from the immediate */, 3 /* enable, flags true */);
    if (!cc.push()) unsupported("v_if nesting deeper than the SFPU's 8-entry flag stack");
}

void cc_narrow(uint32_t lanes) {
    sfpu::SfpuState& st = sfpu_state();
    st.cc.setcc(st.enabled(), lanes);
}

void cc_otherwise() { sfpu_state().cc.compc(); }

void cc_close(int levels) {
    sfpu::Predication& cc = sfpu_state().cc;
    for (int i = 0; i < levels; ++i)
        if (!cc.pop(0)) unsupported("closing a v_if whose flag-stack entry was already popped (raw TTI_SFPPOPC inside it)");
}

}  // namespace tc_tensix::sfpi_host
