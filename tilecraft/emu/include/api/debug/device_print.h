// DEVICE_PRINT (0.81.1 api/debug/device_print.h), emulated: `DEVICE_PRINT("x = {:.3f}\n", x)`
// formats its arguments with fmt's replacement fields ({}, {N}, {{, }}, and the format spec
// [[fill]align][sign][#][0][width][.precision][type] with types d x X o b c s e E f F g G) and
// appends the text to the run's debug log; each completed line is tagged with the core and RISC.
// The device formats on the host from the ELF's strings, with fmt; formatting here gives the same
// text. Compute kernels run as one thread: DEVICE_PRINT_UNPACK/_MATH/_PACK each print once, and a
// plain DEVICE_PRINT prints once (the device prints it from each of the three TRISCs).
#pragma once

#include "tc_emu/noc_addr.h"
#include "tc_emu/print_format.h"

#define DEVICE_PRINT(_device_print_format, ...) ::tc::print::device_print(_device_print_format, ##__VA_ARGS__)
#define DEVICE_PRINT_UNPACK(format, ...) DEVICE_PRINT(format, ##__VA_ARGS__)
#define DEVICE_PRINT_MATH(format, ...) DEVICE_PRINT(format, ##__VA_ARGS__)
#define DEVICE_PRINT_PACK(format, ...) DEVICE_PRINT(format, ##__VA_ARGS__)
#if defined(COMPILE_FOR_BRISC) || defined(COMPILE_FOR_NCRISC)
#define DEVICE_PRINT_DATA0(format, ...)      \
    if (noc_index == 0) {                    \
        DEVICE_PRINT(format, ##__VA_ARGS__); \
    }
#define DEVICE_PRINT_DATA1(format, ...)      \
    if (noc_index == 1) {                    \
        DEVICE_PRINT(format, ##__VA_ARGS__); \
    }
#else
#define DEVICE_PRINT_DATA0(format, ...)
#define DEVICE_PRINT_DATA1(format, ...)
#endif
