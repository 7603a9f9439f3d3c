// Circular buffers from a compute kernel (0.81.1 api/compute/cb_api.h): waits and pops move the
// unpacker's read pointer, reserves and pushes the packer's write pointer.
#pragma once

#include <cstdint>

#include "api/compute/common_globals.h"
#include "tc_emu/cb_interface.h"  // get_local_cb_interface (llk_io_pack.h / llk_io_unpack.h bring it)

namespace ckernel {

ALWI void cb_wait_front(uint32_t cbid, uint32_t ntiles, TC_LOC) {
    ::tc::cb_wait_front(int32_t(cbid), int32_t(ntiles), tc_loc);
}

ALWI void cb_pop_front(uint32_t cbid, uint32_t ntiles, TC_LOC) {
    ::tc::cb_pop_front(int32_t(cbid), int32_t(ntiles), tc_loc);
}

ALWI void cb_reserve_back(uint32_t cbid, uint32_t ntiles, TC_LOC) {
    ::tc::cb_reserve_back(int32_t(cbid), int32_t(ntiles), tc_loc);
}

ALWI void cb_push_back(uint32_t cbid, uint32_t ntiles, TC_LOC) {
    ::tc::cb_push_back(int32_t(cbid), int32_t(ntiles), tc_loc);
}

ALWI uint32_t get_tile_address(uint32_t cb_id, uint32_t tile_index, TC_LOC) {
    return ::tc::cb_tile_address(cb_id, tile_index, tc_loc);
}

}  // namespace ckernel
