// Counter arithmetic on one ADC channel (ISA: ADCs.md), shared by the ADC instructions (adc.cpp)
// and the units that advance the counters as part of their own instructions (UNPACR's Y/Z
// increments in unpack.cpp). The counters are MachineState::adc, one ThreadAdcs per thread.
#pragma once

#include <cstdint>

#include "machine.h"

namespace tc_tensix::adc {

// Counter widths (ADCs.md): X 18 bits, Y 13, Z 8, W 8; arithmetic wraps at the width.
constexpr uint32_t kMask[4] = {0x3ffffu, 0x1fffu, 0xffu, 0xffu};

// Counter `dim` (0..3: X, Y, Z, W) of a channel, and its carriage-return register.
inline uint32_t& counter(AdcChannel& ch, int dim) { return dim == 0 ? ch.x : dim == 1 ? ch.y : dim == 2 ? ch.z : ch.w; }
inline uint32_t& counter_cr(AdcChannel& ch, int dim) {
    return dim == 0 ? ch.x_cr : dim == 1 ? ch.y_cr : dim == 2 ? ch.z_cr : ch.w_cr;
}

// Adds `inc` to the counter (not to its carriage-return register).
inline void bump(AdcChannel& ch, int dim, uint32_t inc) { counter(ch, dim) = (counter(ch, dim) + inc) & kMask[dim]; }

}  // namespace tc_tensix::adc
