// The MOP Expander (MOPExpander.md, MOP.md, MOP_CFG.md): one per thread, at the start of the
// frontend. Machine::issue consumes MOP_CFG (the template-0 mask's high half) and hands MOP here;
// the thread's MopCfg[9] is what the LLK's ckernel_template.h wrote through TENSIX_MOP_CFG_BASE.
#include "machine.h"

namespace tc_tensix {

namespace {

bool is_nop(uint32_t word) { return opcode_of(word) == kOpNop; }  // only plain NOP counts (not DMANOP/SFPNOP)

// Template 0: a loop over Count1+1 iterations, each emitting the A/B sequence or, where the mask
// bit is set, the skip sequence.
void expand_template0(const uint32_t* cfg, uint32_t mask, uint32_t count1, const std::function<void(uint32_t)>& emit) {
    const uint32_t flags = cfg[1];
    const bool has_b = (flags & 1u) != 0, has_a123 = (flags & 2u) != 0;
    for (uint32_t i = 0; i <= count1; ++i, mask >>= 1) {
        if ((mask & 1u) == 0) {
            emit(cfg[3]);
            if (has_a123) {
                emit(cfg[4]);
                emit(cfg[5]);
                emit(cfg[6]);
            }
            if (has_b) emit(cfg[2]);
        } else {
            emit(cfg[7]);
            if (has_b) emit(cfg[8]);
        }
    }
}

// Template 1: an outer loop around an optional start op, an inner loop (alternating between two
// loop ops when the second is not a NOP, with the last-iteration overrides) and optional end ops.
void expand_template1(const uint32_t* cfg, const std::function<void(uint32_t)>& emit) {
    uint32_t outer = cfg[0] & 127u, inner = cfg[1] & 127u;
    const uint32_t start_op = cfg[2], end_op0 = cfg[3], end_op1 = cfg[4];
    uint32_t loop_op = cfg[5];
    const uint32_t loop_op1 = cfg[6], loop0_last = cfg[7], loop1_last = cfg[8];
    uint32_t flip = 0;
    if (!is_nop(loop_op1)) {
        flip = loop_op ^ loop_op1;
        inner *= 2;
    }
    if (outer == 1 && is_nop(start_op) && inner == 0 && !is_nop(end_op0)) outer += 128;  // the hardware's quirk
    for (uint32_t j = 0; j < outer; ++j) {
        if (!is_nop(start_op)) emit(start_op);
        for (uint32_t i = 0; i < inner; ++i) {
            if (i != inner - 1) {
                emit(loop_op);
            } else if (j != outer - 1) {
                emit(loop1_last);
            } else {
                emit(loop0_last);
            }
            loop_op ^= flip;
        }
        if (!is_nop(end_op0)) {
            emit(end_op0);
            if (!is_nop(end_op1)) emit(end_op1);
        }
    }
}

// MOP/MOP_CFG that come out of the replay expander never reach the MOP expander (REPLAY.md: a
// replay cannot contain MOP): on hardware they would go on to the backend as unknown opcodes.
void frontend_only(Machine& m, int thread, uint32_t word) {
    m.fail(thread, word, "a MOP/MOP_CFG instruction reached the backend (it was recorded in a replay buffer); "
                         "the MOP expander sits before the replay expander");
}

}  // namespace

void mop_expand(Machine& m, int thread, uint32_t mop_word, const std::function<void(uint32_t)>& emit) {
    const uint32_t* cfg = m.s.mop_cfg[thread];
    if (field(mop_word, 23, 1) == 0) {
        const uint32_t mask = (m.s.frontend.mop_mask_hi[thread] << 16) | field(mop_word, 0, 16);
        expand_template0(cfg, mask, field(mop_word, 16, 7), emit);
    } else {
        // Wormhole reads the low seven bits of each count (MOPExpander.md); Blackhole's LLK tests
        // program wider counts (1000 x 1000 in tensix_sync_mop_drain), whose width no source states.
        if (kArch == Arch::Blackhole && (cfg[0] > 127u || cfg[1] > 127u))
            m.fail(thread, mop_word, "MOP template 1 with an outer or inner count above 127 on Blackhole "
                                     "(the count width there is not modelled)");
        expand_template1(cfg, emit);
    }
}

TC_OPCODE(kOpMop, MOP, frontend_only);
TC_OPCODE(kOpMopCfg, MOP_CFG, frontend_only);

}  // namespace tc_tensix
