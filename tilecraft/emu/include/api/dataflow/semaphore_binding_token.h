// Semaphore scopes and binding tokens (0.81.1 api/dataflow/semaphore_binding_token.h). On
// Wormhole and Blackhole a data-movement semaphore is always LOCAL_NONATOMIC: an L1 word read and
// written by the RISC, reached from other cores over the NoC.
#pragma once

#include <cstdint>

enum class SemScope : uint8_t {
    LOCAL_NONATOMIC = 0,
    DM_LOCAL_CACHED = 1,
    EXTERNAL = 2,
    COMPUTE_ATOMIC = 3,
};

struct SemaphoreBindingToken {
    std::uint32_t id;
    SemScope scope;
};
