// lltt.h for tilecraft's Tensix machine: the SFPI toolchain's replay-buffer helpers.
//
// The real header (SFPI, not shipped in the wheel) lowers these to a REPLAY instruction through a
// compiler builtin. Here they issue the same REPLAY word (encoding: ckernel_ops.h's
// TT_OP_REPLAY, semantics: the ISA's REPLAY.md) through the calling TRISC, so recording, replay
// and execute-while-recording happen in the machine's Replay Expander (replay.cpp).
#pragma once

#include <cstdint>

#include "tc_tensix_kernel.h"

namespace lltt {

enum ExecBool : bool { NoExec, Exec };

// The REPLAY instruction that replays `length` recorded instructions starting at slot `start`.
constexpr std::uint32_t replay_insn(unsigned start, unsigned length) {
    return (0x04u << 24) | (start << 14) | (length << 4);
}

// Record the next `length` issued instructions into slots start.. (and also execute them if E).
template <ExecBool E = NoExec>
inline void record(unsigned start, unsigned length) {
    ::tc_tensix::issue_from_kernel(replay_insn(start, length) | (unsigned(bool(E)) << 1) | 1u);
}

inline void replay(unsigned start, unsigned length) { ::tc_tensix::issue_from_kernel(replay_insn(start, length)); }

}  // namespace lltt
