// DPRINT (0.81.1 api/debug/dprint.h), emulated: DPRINT(format, ...) is DEVICE_PRINT, fmt-style
// (`DPRINT("tiles {} scale {:.2f}\n", n, s);`, see device_print.h). 0.81.1 removed the stream
// form `DPRINT << x << ENDL();`: as on the device, a kernel that still uses it does not compile
// (compile_errors.py reports it as E5003 with the replacement).
#pragma once

#include <cstdint>

#include "api/debug/device_print.h"

// The stream form's manipulators, kept (deprecated) so that its first error is the one below.
struct [[deprecated("Use DEVICE_PRINT instead")]] ENDL {};
struct [[deprecated("Use DEVICE_PRINT instead")]] HEX {};
struct [[deprecated("Use DEVICE_PRINT instead")]] DEC {};
struct [[deprecated("Use DEVICE_PRINT instead")]] OCT {};
struct [[deprecated("Use DEVICE_PRINT instead")]] FIXED {};
struct [[deprecated("Use DEVICE_PRINT instead")]] SETPRECISION {
    SETPRECISION(char) {}
};
struct [[deprecated("Use DEVICE_PRINT instead")]] SETW {
    SETW(char) {}
};

// The object the stream form names (the function-like macro below is not expanded without '(').
class OldStyleDevicePrint {
} inline DPRINT;

template <typename Type>
OldStyleDevicePrint operator<<(OldStyleDevicePrint dp, Type) {
    static_assert(sizeof(Type) == 0, "Old style DPRINT is deprecated. Use DPRINT(format, ...) instead.");
    return dp;
}

#define DPRINT(format, ...) DEVICE_PRINT(format, ##__VA_ARGS__)
#define DPRINT_UNPACK(format, ...) DEVICE_PRINT_UNPACK(format, ##__VA_ARGS__)
#define DPRINT_MATH(format, ...) DEVICE_PRINT_MATH(format, ##__VA_ARGS__)
#define DPRINT_PACK(format, ...) DEVICE_PRINT_PACK(format, ##__VA_ARGS__)
#define DPRINT_DATA0(format, ...) DEVICE_PRINT_DATA0(format, ##__VA_ARGS__)
#define DPRINT_DATA1(format, ...) DEVICE_PRINT_DATA1(format, ##__VA_ARGS__)
