// The firmware side of one TRISC of an LLK test on tilecraft's Tensix machine: included at the
// end of the translation unit that includes the test source (tilecraft/emu/tensix_build.py).
//
// It takes the place of the suite's helpers/src/trisc.cpp (the RISC-V start-up, linker-placed
// globals and mailbox hand-shake) and of helpers/include/ckernel_helper.h (the ckernel globals,
// tc_ckernel_globals.h), and tc_trisc_main is what the runner
// calls on this TRISC's fiber. Everything the kernel does in between is the test's and the LLK's.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "ckernel.h"
#include "tc_boot.h"
#include "tc_ckernel_globals.h"
#include "tc_tensix_kernel.h"


// The linker script's RUNTIME_ARGS_START (helpers/ld/memory.<arch>.ld): the runner writes the
// RuntimeParams bytes there, as the suite's loader does.
constexpr std::uintptr_t kTcRuntimeArgsStart = 0x20000;

// The `args_size` of a run whose runtime args are already in L1 and of no size the caller knows:
// a kernel that defines its own RuntimeParams (the fuser's generated kernels), which the suite
// never writes. The firmware copies sizeof(RuntimeParams) bytes whatever they are; so does this.
constexpr std::size_t kTcRuntimeArgsInL1 = SIZE_MAX;

// Runs this TRISC's kernel as trisc.cpp's main does (runtime args copied from L1, GPRs cleared,
// config state and dest offset reset, run_kernel, then a TTSync). Returns sizeof(RuntimeParams)
// when `args_size` differs from it (the runner reports the mismatch), else 0.
extern "C" TC_TENSIX_EXPORT std::size_t tc_trisc_main(std::size_t args_size) {
    if (args_size != kTcRuntimeArgsInL1 && args_size != sizeof(RuntimeParams)) return sizeof(RuntimeParams);
    struct RuntimeParams params;
    ckernel::memcpy_blocking(&params, ::tc_tensix::mmio_cast<const volatile RuntimeParams*>(kTcRuntimeArgsStart),
                             sizeof(RuntimeParams));
    ckernel::regfile = ::tc_tensix::mmio_cast<volatile std::uint32_t*>(REGFILE_BASE);
#if defined(LLK_TRISC_UNPACK)
    tc_boot_coprocessor();
#endif
    std::fill(ckernel::regfile, ckernel::regfile + 64, 0);
    ckernel::reset_cfg_state_id();
    ckernel::reset_dest_offset_id();
    run_kernel(params);
    ckernel::tensix_sync();
    return 0;
}
