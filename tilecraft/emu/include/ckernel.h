// The part of the LLK's ckernel.h (0.81.1 tt-llk/tt_llk_*/common/inc/ckernel.h) that ttnn's kernels
// use outside the compute API: load_blocking, the load that waits for L1 to answer, which kernels
// use to order their own earlier stores ahead of a NoC transfer (kernel_helper_functions/pad_tile.hpp).
// In the emulator a store is in L1 when it retires, so the load alone is that order.
// mailbox_write / mailbox_read (the RISCs' mailboxes, which the sparse matmul's reader uses to pass
// each batch's validity to the three TRISCs) are declared so that kernels naming them compile;
// a call stops the run (E5009): the emulator runs the three TRISCs as one thread.
#pragma once

#include <cstdint>
#include <type_traits>

#include "ckernel_defs.h"
#include "tc_emu/runtime.h"

namespace ckernel {

template <typename T, typename = std::enable_if_t<std::is_trivially_copyable_v<T>>>
inline T load_blocking(volatile T* ptr) {
    static_assert(sizeof(T) == sizeof(std::uint16_t) || sizeof(T) == sizeof(std::uint32_t),
                  "load_blocking: operand must be 16-bit or 32-bit");
    return *ptr;
}

inline void mailbox_write(const std::uint8_t thread, const std::uint32_t data, TC_LOC) {
    (void)thread;
    (void)data;
    ::tc::not_modelled("mailbox_write (the RISCs' mailboxes)", tc_loc);
}

[[nodiscard]] inline std::uint32_t mailbox_read(const std::uint8_t thread, TC_LOC) {
    (void)thread;
    ::tc::not_modelled("mailbox_read (the RISCs' mailboxes)", tc_loc);
    return 0;
}

}  // namespace ckernel
