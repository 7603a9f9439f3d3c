// The LLK operand metadata a Metal 2.0 binding token carries (0.81.1 internal/llk_metadata.h). The
// emulator's tokens accept it so generated bindings read as the JIT's do; nothing reads it back
// (LLKOperandFrom is not modelled).
#pragma once

#include <cstdint>

namespace binding_details {
struct LLKMetadata {
    static constexpr std::uint8_t kNoFormat = 0xFF;
    std::uint8_t format = kNoFormat;
    std::uint8_t face_r_dim = 16;
    std::uint8_t face_c_dim = 16;
    std::uint8_t num_faces_r_dim = 2;
    std::uint8_t num_faces_c_dim = 2;
};
}  // namespace binding_details
