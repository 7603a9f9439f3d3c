// State private to the unpackers (unpack.cpp), held in MachineState::unpack.
//
// machine.h includes this header after declaring kNumThreads; include machine.h, not this file.
// The unpackers' ADCs are MachineState::adc (one record per thread, shared with the packers).
// Facts: tt-isa-documentation WormholeB0 UNPACR_Regular.md.
#pragma once

#include <cstdint>

namespace tc_tensix {

struct UnpackerState {
    // Unpackers[n].SrcRow[thread]: row offset added to SrcA/SrcB writes when SrcA row addressing is
    // not overridden (SRCA_SET_SetOvrdWithAddr), reset to SRC*_SET_Base << 4 when the bank flips.
    uint32_t src_row[2][kNumThreads] = {};
    // Unpackers[n].ContextCounter[thread]: config context used by UNPACR with UseContextCounter.
    uint32_t context_counter[2][kNumThreads] = {};
};

}  // namespace tc_tensix
