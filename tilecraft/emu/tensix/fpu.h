// The matrix unit (FPU): its private state, and the address-modifier step other units share.
//
// The FPU's instructions (fpu.cpp) read SrcA/SrcB banks the unpackers hand over (SrcBank::dvalid
// true = owned by the matrix unit), compute with fpu_arith.h, write Dst in its 16-bit or 32-bit
// view and advance the issuing thread's RWCs (MachineState::rwc[thread]) through an ADDR_MOD_* set
// chosen by the instruction (RWCs.md ApplyAddrMod).
#pragma once

#include <cstdint>

#include "prng.h"

namespace tc_tensix {

class Machine;

struct FpuState {
    // Dst16 rows ZEROACC marked undefined (Dst.md): their bits are zero, which packers and
    // arithmetic read as the zero they should; GMPOOL reads them as minus infinity instead.
    bool dst_undefined[1024] = {};
    // The SrcA row the last SrcA-reading instruction started at (SHIFTXA's input, a hardware bug).
    uint32_t last_srca_row = 0;
    // Random bits of stochastic rounding into Dst (ALU_ROUNDING_MODE_Fpu_srnd_en): a lane per column.
    LanePrng<16> rounding_prng{kFpuStream};
};

// ApplyAddrMod (RWCs.md): advance `thread`'s RWCs by ADDR_MOD set `addr_mod` (plus 4 when the
// extra bit or ADDR_MOD_SET_Base is set), the sets being the ADDR_MOD_*_SEC* thread config the
// LLK writes with SETC16 (each thread its own sets). `word` is the instruction, named if this fails.
// SFPLOAD/SFPSTORE pass update_fidelity = false (ApplyPartialAddrMod).
void apply_addr_mod(Machine& m, int thread, uint32_t word, uint32_t addr_mod, bool update_fidelity = true);

}  // namespace tc_tensix
