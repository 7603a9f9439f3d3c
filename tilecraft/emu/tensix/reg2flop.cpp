// REG2FLOP: the Scalar Unit (ThCon) moves a GPR into THCON_* backend configuration (Wormhole B0).
//
// Why here: the pack LLK programs every tile's L1 destination with it (program_packer_destination)
// and the BFP exponent sections and packer L1 offsets on each reconfiguration; the unpack LLK uses
// the same configuration form for tilize. Facts: tt-isa-documentation REG2FLOP.md,
// REG2FLOP_Configuration.md, REG2FLOP_ADC.md. The ADC form (TargetSel >= 2) is not modelled: the
// 0.81.1 LLK never issues it.
#include <string>

#include "cfg_defines.h"
#include "machine.h"

namespace tc_tensix {

namespace {

void exec_reg2flop(Machine& m, int t, uint32_t w) {
    const uint32_t gpr = field(w, 0, 6), index = field(w, 6, 10), context = field(w, 16, 2);
    const uint32_t byte_offset = field(w, 18, 2), target = field(w, 20, 2), size_sel = field(w, 22, 2);
    if (target >= 2) m.fail(t, w, "REG2FLOP into the ADCs (TargetSel >= 2) is not modelled");
    if (target != 0 || byte_offset != 0 || context != 0)
        m.fail(t, w, "REG2FLOP configuration form with nonzero TargetSel/ByteOffset/ContextId_2 is undefined");
    if (index >= GLOBAL_CFGREG_BASE_ADDR32 - THCON_CFGREG_BASE_ADDR32)
        m.fail(t, w, "REG2FLOP configuration index " + std::to_string(index) +
                         " is beyond the THCON_* registers (undefined behaviour)");
    if (size_sel == 0) {  // 128-bit: four consecutive words from four consecutive GPRs
        for (uint32_t k = 0; k < 4; ++k)
            m.cfg_word(t, THCON_CFGREG_BASE_ADDR32 + (index & ~3u) + k) = m.s.gpr[t][(gpr & ~3u) + k];
    } else {  // 32-bit (SizeSel 1, 2 and 3 all write the whole GPR)
        m.cfg_word(t, THCON_CFGREG_BASE_ADDR32 + index) = m.s.gpr[t][gpr];
    }
}

}  // namespace

TC_OPCODE(0x48, REG2FLOP, exec_reg2flop);

}  // namespace tc_tensix
