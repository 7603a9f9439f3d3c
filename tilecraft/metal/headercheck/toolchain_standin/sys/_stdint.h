// tilecraft header-check STAND-IN for newlib's <sys/_stdint.h>.  PARSE-ONLY.
//
// Some 0.81.1 LLK headers include this newlib-internal header, which the SFPI
// RISC-V toolchain provides and host glibc does not.  The fixed-width integer
// types it would declare come from <stdint.h> (shaped to the riscv32 model by
// the -D__INT32_TYPE__ / -D__UINT32_TYPE__ flags of the check).
#pragma once
#include <stdint.h>
