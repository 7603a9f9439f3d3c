// Access patterns of a DataflowBuffer (0.81.1 api/dataflow/dfb_access.h). On Wormhole and
// Blackhole a DataflowBuffer is not a template; the patterns matter on Quasar only.
#pragma once

#include <cstdint>

namespace dfb {
enum AccessPattern : uint8_t {
    STRIDED,
    ALL,
    BLOCKED,
    UNKNOWN,
};
}  // namespace dfb

class DataflowBuffer;
using DataflowBufferAnyPattern = DataflowBuffer;

template <typename T>
inline constexpr bool is_dataflow_buffer_v = false;
template <>
inline constexpr bool is_dataflow_buffer_v<DataflowBuffer> = true;
