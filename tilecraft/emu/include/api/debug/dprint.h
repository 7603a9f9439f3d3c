// DPRINT (0.81.1 api/debug/dprint.h), emulated: `DPRINT << "x = " << x << ENDL();` appends a line
// tagged with the core and RISC to the run's debug log, which tilecraft prints after the run.
#pragma once

#include <cstdint>
#include <cstdio>
#include <type_traits>

#include "tc_emu/runtime.h"

struct ENDL {};
struct HEX {};
struct DEC {};

namespace tc {
struct DebugPrinter {
    bool hex = false;
    const DebugPrinter& operator<<(const char* text) const {
        ::tc::dprint(text);
        return *this;
    }
    const DebugPrinter& operator<<(char c) const {
        char text[2] = {c, 0};
        ::tc::dprint(text);
        return *this;
    }
    template <typename T>
    const DebugPrinter& operator<<(T value) const
        requires(std::is_integral_v<T> || std::is_enum_v<T>)
    {
        char text[32];
        std::snprintf(text, sizeof text, hex ? "0x%llx" : "%lld", (long long)value);
        ::tc::dprint(text);
        return *this;
    }
    const DebugPrinter& operator<<(float value) const {
        char text[32];
        std::snprintf(text, sizeof text, "%g", double(value));
        ::tc::dprint(text);
        return *this;
    }
    const DebugPrinter& operator<<(double value) const { return *this << float(value); }
    const DebugPrinter& operator<<(ENDL) const {
        ::tc::dprint_endl();
        return *this;
    }
    DebugPrinter operator<<(HEX) const { return DebugPrinter{true}; }
    DebugPrinter operator<<(DEC) const { return DebugPrinter{false}; }
};
}  // namespace tc

#define DPRINT (::tc::DebugPrinter{})
#define DPRINT_MATH(x) x
#define DPRINT_PACK(x) x
#define DPRINT_UNPACK(x) x
#define DPRINT_DATA0(x) x
#define DPRINT_DATA1(x) x
