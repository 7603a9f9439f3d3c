// Private state of the four packers (PACR), kept between PACR instructions.
//
// Why state between instructions: a packer appends to its output streams until a PACR with Last or
// Flush set (Packers/OutputAddressGenerator.md, "NeedsNewAddress"), its edge-mask tile position
// generator keeps counting across instructions (Packers/EdgeMasking.md), and a BFP block of 16
// datums may be completed by a later instruction.
#pragma once

#include <cstdint>

#include "prng.h"

namespace tc_tensix {

struct PackerStreams {
    bool needs_new_address = true;  // next PACR takes fresh output addresses from config
    uint32_t data_addr = 0;         // byte address of the next datum in L1
    uint32_t exp_addr = 0;          // byte address of the next shared exponent (BFP outputs)
    unsigned tpg_x = 0, tpg_y = 0, tpg_z = 0;  // tile position generator (edge masking)
    uint32_t bfp_block[16] = {};    // BFP block entries collected so far (see format_encode.h)
    uint32_t bfp_thresholds[16] = {};  // their stochastic rounding thresholds (Packer_srnd_en)
    unsigned bfp_fill = 0;
    // Random bits of the packer's stochastic rounding (prng.h): a lane per datum of a row of 16.
    LanePrng<16> rounding_prng;
};

struct PackState {
    PackerStreams packer[4];
    PackState() {
        for (int i = 0; i < 4; ++i) packer[i].rounding_prng = LanePrng<16>(kPackerStream + 16 * i);
    }
};

}  // namespace tc_tensix
