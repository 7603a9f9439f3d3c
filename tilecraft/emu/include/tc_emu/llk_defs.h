// The LLK's packer ReLU configuration (0.81.1 tt-llk llk_defs.h: ReluType, ReluConfig), which the
// kernel API takes in pack_relu_config. Outside api/: in 0.81.1 it belongs to the LLK, not to the
// kernel API headers.
#pragma once

#include <cstdint>

namespace ckernel {

// the packer's ReLU modes, encoded as its 2-bit RELU_MODE field
enum class ReluType : std::uint8_t { NO_RELU = 0, ZERO_RELU, MIN_THRESHOLD_RELU, MAX_THRESHOLD_RELU };

// a ReLU mode and its 16-bit threshold (bits 16-31 of the packed form)
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
    ReluType mode;
    std::uint32_t threshold;
};

}  // namespace ckernel
