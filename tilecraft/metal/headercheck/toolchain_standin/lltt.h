// tilecraft header-check STAND-IN for the SFPI toolchain's lltt.h.  PARSE-ONLY.
//
// Written for tilecraft; not derived from SFPI.  The LLK headers drive the
// Tensix replay buffer through lltt::record / lltt::replay / lltt::replay_insn.
// The real versions emit Tensix instructions; these only give host g++ the
// names and call shapes so the headers parse.  They do nothing.
#pragma once

#include <cstdint>

namespace lltt {

// Whether recorded instructions also execute while being recorded.
enum ExecBool : bool { NoExec, Exec };

template <ExecBool E = NoExec>
inline void record(std::uint32_t start, std::uint32_t length) {
    (void)start;
    (void)length;
}

inline void replay(std::uint32_t start, std::uint32_t length) {
    (void)start;
    (void)length;
}

// The encoded REPLAY instruction, for code that stores it into a MOP template.
constexpr std::uint32_t replay_insn(std::uint32_t start, std::uint32_t length) {
    return (start << 8) | length;
}

}  // namespace lltt
