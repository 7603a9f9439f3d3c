// The Replay Expander (REPLAY.md): one per thread, after the MOP expander. REPLAY with Load set
// records the next Count words into the thread's 32-slot buffer (also executing them if Exec);
// without Load it emits Count recorded words. Count 0 means 64.
#include "machine.h"

namespace tc_tensix {

namespace {

uint32_t replay_count(uint32_t word) {
    const uint32_t n = field(word, 4, 6);
    return n != 0 ? n : 64;
}

// A REPLAY that comes out of the replay buffer is not expanded again; on hardware it would go on
// to the backend, which does not know it.
void replay_in_backend(Machine& m, int thread, uint32_t word) {
    m.fail(thread, word, "a REPLAY instruction reached the backend (it was itself recorded in a replay buffer)");
}

}  // namespace

void replay_stage(Machine& m, int thread, uint32_t word) {
    MachineState& s = m.s;
    if (s.replay_record_left[thread] > 0) {
        s.replay[thread][s.replay_record_at[thread] % kReplaySlots] = word;
        ++s.replay_record_at[thread];
        --s.replay_record_left[thread];
        if (s.replay_record_exec[thread]) m.execute(thread, word);
        return;
    }
    if (opcode_of(word) != kOpReplay) return m.execute(thread, word);
    const uint32_t start = field(word, 14, 5), count = replay_count(word);
    if (field(word, 0, 1) != 0) {  // Load: record the next `count` words
        s.replay_record_at[thread] = int(start);
        s.replay_record_left[thread] = int(count);
        s.replay_record_exec[thread] = field(word, 1, 1) != 0;
        return;
    }
    for (uint32_t i = 0; i < count; ++i) m.execute(thread, s.replay[thread][(start + i) % kReplaySlots]);
}

TC_OPCODE(kOpReplay, REPLAY, replay_in_backend);

}  // namespace tc_tensix
