// What the kernel emulator hands each TRISC of a ttnn compute kernel running on the Tensix machine
// (tensix/bridge/compute_bridge.cpp fills it, tc_compute_trisc_main.h reads it): the parts of
// tt-metal's launch message the TRISC firmware reads before it calls the kernel.
#pragma once

#include <cstdint>

namespace tc_tensix {

constexpr int kLaunchCbs = 64;  // NUM_CIRCULAR_BUFFERS on Blackhole; Wormhole uses the first 32

struct ComputeLaunch {
    std::uint32_t* rta = nullptr;   // this core's runtime args (in L1)
    std::uint32_t* crta = nullptr;  // the kernel's common runtime args (in L1)
    // The host's local CB configuration as the firmware finds it at local_cb_offset: per CB its
    // address, size, page count and page size in bytes; `cb_mask` has a bit per configured CB.
    std::uint32_t cb_config[kLaunchCbs][4] = {};
    std::uint64_t cb_mask = 0;
    std::uint8_t logical_x = 0, logical_y = 0;
};

}  // namespace tc_tensix
