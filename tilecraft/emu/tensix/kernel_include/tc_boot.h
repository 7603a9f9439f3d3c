// The coprocessor state the firmware leaves before any kernel runs, shared by the two firmware
// stand-ins: the LLK test suite's (tc_trisc_main.h) and tt-metal's (tc_compute_trisc_main.h, where
// BRISC's device_setup does the same before it releases the TRISCs).
#pragma once

#include "ckernel.h"

// What the suite's firmware start-up (helpers/include/boot.h, device_setup) leaves in the
// coprocessor before any kernel runs: Dst cleared, the SFPU's condition-code stack enabled, LReg11
// holding -1 (where SFPI expects it), and the semaphores the LLK's unpack-to-Dst, math/pack and
// operand hand-shakes count with initialised to 0 of at most 1. The UNPACK TRISC runs it first,
// as it does on the device before it releases the other two from reset.
inline void tc_boot_coprocessor() {
#if defined(ARCH_BLACKHOLE)
    TTI_ZEROACC(ckernel::p_zeroacc::CLR_ALL, 0, 0, 1, 0);
#else
    TTI_ZEROACC(ckernel::p_zeroacc::CLR_ALL, 0, 0);
#endif
    TTI_SFPENCC(3, 0, 0, 10);
    TTI_NOP;
    TTI_SFPCONFIG(0, 11, 1);
    ckernel::t6_semaphore_init(ckernel::semaphore::UNPACK_TO_DEST, 0, 1);
    ckernel::t6_semaphore_init(ckernel::semaphore::MATH_DONE, 0, 1);
#if defined(LLK_BARRIER_ON_TRISC)  // the suite's barrier.h reserves two of them (and poisons their names)
    ckernel::t6_semaphore_init(llk_barrier::ARRIVE_SEM, 0, 1);
    ckernel::t6_semaphore_init(llk_barrier::RELEASE_SEM, 0, 1);
#else
    ckernel::t6_semaphore_init(ckernel::semaphore::PACK_DONE, 0, 1);
    ckernel::t6_semaphore_init(ckernel::semaphore::UNPACK_OPERAND_SYNC, 0, 1);
#endif
}
