// The formatting behind DEVICE_PRINT (api/debug/device_print.h): fmt's replacement fields and
// format specs over the argument types kernels print, and the hand-off of whole lines to the
// runtime's debug log. Written by tilecraft. The real dataflow API's DEVICE_PRINT uses it too (by
// its path: tc_tensix_kernel.h), so it includes its one neighbour by a relative name.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <type_traits>

#include "runtime.h"  // tc_emu/runtime.h

namespace tc::print {

struct Spec {
    char fill = ' ', align = 0, sign = '-', type = 0;
    bool alt = false, zero = false;
    int width = -1, precision = -1;
};

// Parse the part of a replacement field after ':' (up to the closing brace).
inline Spec parse_spec(const char* s, const char* end) {
    Spec spec;
    auto is_align = [](char c) { return c == '<' || c == '>' || c == '^'; };
    if (end - s >= 2 && is_align(s[1])) {
        spec.fill = s[0];
        spec.align = s[1];
        s += 2;
    } else if (s < end && is_align(*s)) {
        spec.align = *s++;
    }
    if (s < end && (*s == '+' || *s == '-' || *s == ' ')) spec.sign = *s++;
    if (s < end && *s == '#') spec.alt = (++s, true);
    if (s < end && *s == '0') spec.zero = (++s, true);
    for (; s < end && *s >= '0' && *s <= '9'; ++s) spec.width = (spec.width < 0 ? 0 : spec.width * 10) + (*s - '0');
    if (s < end && *s == '.') {
        spec.precision = 0;
        for (++s; s < end && *s >= '0' && *s <= '9'; ++s) spec.precision = spec.precision * 10 + (*s - '0');
    }
    if (s < end) spec.type = *s;
    return spec;
}

// Pad `body` (whose first `prefix` characters are a sign or base prefix) to the spec's width.
inline std::string pad(std::string body, const Spec& spec, bool numeric, std::size_t prefix) {
    if (spec.width < 0 || int(body.size()) >= spec.width) return body;
    const std::size_t n = std::size_t(spec.width) - body.size();
    if (spec.zero && numeric && spec.align == 0) return body.insert(prefix, n, '0');
    const char align = spec.align ? spec.align : (numeric ? '>' : '<');
    if (align == '<') return body + std::string(n, spec.fill);
    if (align == '>') return std::string(n, spec.fill) + body;
    return std::string(n / 2, spec.fill) + body + std::string(n - n / 2, spec.fill);
}

inline std::string sign_of(bool negative, const Spec& spec) {
    return negative ? "-" : spec.sign == '+' ? "+" : spec.sign == ' ' ? " " : "";
}

inline std::string integer(unsigned long long magnitude, bool negative, const Spec& spec) {
    if (spec.type == 'c') return pad(std::string(1, char(magnitude)), spec, false, 0);
    std::string digits, prefix;
    const char type = spec.type ? spec.type : 'd';
    if (type == 'b' || type == 'B') {
        do digits.insert(digits.begin(), char('0' + (magnitude & 1))); while (magnitude >>= 1);
        prefix = spec.alt ? (type == 'b' ? "0b" : "0B") : "";
    } else {
        char buffer[32];
        const char* conversion = type == 'x' ? "%llx" : type == 'X' ? "%llX" : type == 'o' ? "%llo" : "%llu";
        std::snprintf(buffer, sizeof buffer, conversion, magnitude);
        digits = buffer;
        if (spec.alt) prefix = type == 'x' ? "0x" : type == 'X' ? "0X" : (type == 'o' && magnitude) ? "0" : "";
    }
    const std::string lead = sign_of(negative, spec) + prefix;
    return pad(lead + digits, spec, true, lead.size());
}

// fmt's `{}` for a float: the shortest digits that read back as the same value, in fixed notation
// when the decimal exponent is in [-4, 16), else in exponential notation (1e+20).
template <typename F>
std::string shortest(F value) {
    char buffer[64];
    for (int digits = 1;; ++digits) {
        std::snprintf(buffer, sizeof buffer, "%.*e", digits - 1, double(value));
        if (digits == 17 || F(std::strtod(buffer, nullptr)) == value) break;
    }
    const char* e = std::strchr(buffer, 'e');
    const int exponent = std::atoi(e + 1);
    std::string digits;
    for (const char* p = buffer; p < e; ++p)
        if (*p != '.') digits += *p;
    const int n = int(digits.size());
    if (exponent < -4 || exponent >= 16) {
        std::string mantissa = n > 1 ? digits.substr(0, 1) + "." + digits.substr(1) : digits;
        std::snprintf(buffer, sizeof buffer, "e%c%02d", exponent < 0 ? '-' : '+', exponent < 0 ? -exponent : exponent);
        return mantissa + buffer;
    }
    if (exponent >= n - 1) return digits + std::string(std::size_t(exponent - n + 1), '0');
    if (exponent >= 0) return digits.substr(0, std::size_t(exponent + 1)) + "." + digits.substr(std::size_t(exponent + 1));
    return "0." + std::string(std::size_t(-exponent - 1), '0') + digits;
}

template <typename F>
std::string floating(F value, const Spec& spec) {
    const bool negative = std::signbit(value);
    const F magnitude = negative ? -value : value;
    std::string body;
    if (std::isnan(value) || std::isinf(value)) {
        body = std::isnan(value) ? "nan" : "inf";
        if (spec.type == 'E' || spec.type == 'F' || spec.type == 'G') body = std::isnan(value) ? "NAN" : "INF";
    } else if (spec.type == 0 && spec.precision < 0) {
        body = shortest(magnitude);
    } else {
        char conversion[8], buffer[512];
        int k = 0;
        conversion[k++] = '%';
        if (spec.alt) conversion[k++] = '#';
        conversion[k++] = '.';
        conversion[k++] = '*';
        conversion[k++] = spec.type ? spec.type : 'g';
        conversion[k] = 0;
        std::snprintf(buffer, sizeof buffer, conversion, spec.precision < 0 ? 6 : spec.precision, double(magnitude));
        body = buffer;
    }
    const std::string lead = sign_of(negative, spec);
    return pad(lead + body, spec, true, lead.size());
}

template <typename T>
std::string format_one(const T& value, const Spec& spec) {
    using V = std::remove_cvref_t<T>;
    if constexpr (std::is_same_v<V, bool>) {
        return spec.type && spec.type != 's' ? integer(value, false, spec) : pad(value ? "true" : "false", spec, false, 0);
    } else if constexpr (std::is_same_v<V, char>) {
        return spec.type && spec.type != 'c' ? integer((unsigned char)value, false, spec)
                                             : pad(std::string(1, value), spec, false, 0);
    } else if constexpr (std::is_enum_v<V>) {
        return format_one(static_cast<std::underlying_type_t<V>>(value), spec);
    } else if constexpr (std::is_integral_v<V>) {
        const bool negative = std::is_signed_v<V> && value < 0;
        const unsigned long long magnitude =
            negative ? 0ull - (unsigned long long)(long long)value : (unsigned long long)value;
        return integer(magnitude, negative, spec);
    } else if constexpr (std::is_floating_point_v<V>) {
        return floating(value, spec);
    } else if constexpr (std::is_convertible_v<V, const char*>) {
        std::string text(static_cast<const char*>(value));
        if (spec.precision >= 0 && std::size_t(spec.precision) < text.size()) text.resize(std::size_t(spec.precision));
        return pad(text, spec, false, 0);
    } else if constexpr (std::is_pointer_v<V>) {
        Spec hex = spec;
        hex.type = 'x';
        hex.alt = true;
        return integer((unsigned long long)(std::uintptr_t)value, false, hex);
    } else {
        static_assert(sizeof(V) == 0, "DEVICE_PRINT: the emulator does not format arguments of this type");
        return {};
    }
}

// Append the text to the debug log, closing a line at each '\n'.
inline void emit(const std::string& text) {
    std::size_t start = 0;
    for (std::size_t nl; (nl = text.find('\n', start)) != std::string::npos; start = nl + 1) {
        ::tc::dprint(text.substr(start, nl - start).c_str());
        ::tc::dprint_endl();
    }
    if (start < text.size()) ::tc::dprint(text.substr(start).c_str());
}

template <typename... Args>
void device_print(const char* format, const Args&... args) {
    std::string (*formatters[])(const void*, const Spec&) = {
        [](const void* p, const Spec& spec) { return format_one(*static_cast<const Args*>(p), spec); }..., nullptr};
    const void* values[] = {static_cast<const void*>(&args)..., nullptr};
    std::string out;
    std::size_t next = 0;
    for (const char* s = format; *s; ++s) {
        if ((*s == '{' && s[1] == '{') || (*s == '}' && s[1] == '}')) {
            out += *s++;
        } else if (*s == '{') {
            const char* close = std::strchr(s, '}');
            const char* colon = static_cast<const char*>(std::memchr(s, ':', std::size_t(close - s)));
            std::size_t index = next++;
            if (s + 1 < (colon ? colon : close)) index = std::size_t(std::atoi(s + 1));
            const Spec spec = colon ? parse_spec(colon + 1, close) : Spec{};
            if (index < sizeof...(Args)) out += formatters[index](values[index], spec);
            s = close;
        } else {
            out += *s;
        }
    }
    emit(out);
}

}  // namespace tc::print
