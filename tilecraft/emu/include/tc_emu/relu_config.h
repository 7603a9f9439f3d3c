// The packer's ReLU configuration (0.81.1 tt-llk llk_lib/llk_defs.h: ReluType, ReluConfig), which
// pack_relu_config takes: a mode and a 16-bit threshold. Declared beside the emulator's API rather
// than as llk_defs.h, whose other contents the emulator does not provide.
#pragma once

#include <cstdint>

namespace ckernel {

enum class ReluType : std::uint8_t { NO_RELU = 0, ZERO_RELU, MIN_THRESHOLD_RELU, MAX_THRESHOLD_RELU };

struct ReluConfig {
    static constexpr ReluConfig none() { return {ReluType::NO_RELU}; }
    static constexpr ReluConfig zero() { return {ReluType::ZERO_RELU}; }
    static constexpr ReluConfig min_threshold(std::uint32_t t) { return {ReluType::MIN_THRESHOLD_RELU, t}; }
    static constexpr ReluConfig max_threshold(std::uint32_t t) { return {ReluType::MAX_THRESHOLD_RELU, t}; }
    static constexpr ReluConfig from_packed(std::uint32_t packed) {
        return {static_cast<ReluType>(packed & 0x3), (packed >> 16) & 0xFFFF};
    }
    constexpr ReluType get_mode() const { return mode; }
    constexpr std::uint32_t get_threshold() const { return threshold; }

private:
    constexpr ReluConfig(ReluType m, std::uint32_t t = 0) : mode(m), threshold(t) {}

    ReluType mode = ReluType::NO_RELU;
    std::uint32_t threshold = 0;
};

}  // namespace ckernel
