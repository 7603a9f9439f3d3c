// Sync Unit (SyncUnit.md) and the Wait Gate's STALLWAIT: semaphores, mutexes and waits, as a
// functional model in which every unit completes an instruction at issue. What is left to wait
// for is state another thread changes: semaphore values, mutex owners and the SrcA/SrcB dvalid
// hand-over between unpacker and matrix unit. A waiting instruction blocks its thread
// (Machine::wait_for) until its condition holds; on hardware the block mask lets some later
// instructions of the thread pass meanwhile, here the whole thread waits (no LLK sequence relies on
// overtaking a latched wait from the same thread).
#include <string>

#include "machine.h"

namespace tc_tensix {

namespace {

constexpr uint32_t kSemaphoreMax = 15;  // SEMPOST.md

uint32_t semaphore_mask(uint32_t word) { return field(word, 2, 8); }

template <class F>
void for_each_selected(uint32_t mask, F f) {
    for (int i = 0; i < kSemaphores; ++i)
        if ((mask >> i) & 1u) f(i);
}

std::string mask_text(uint32_t mask) {
    std::string out;
    for_each_selected(mask, [&](int i) { out += (out.empty() ? "" : ", ") + std::to_string(i); });
    return out;
}

void seminit(Machine& m, int, uint32_t word) {
    for_each_selected(semaphore_mask(word), [&](int i) {
        m.s.sem_value[i] = field(word, 16, 4);
        m.s.sem_max[i] = field(word, 20, 4);
    });
}

void sempost(Machine& m, int, uint32_t word) {
    for_each_selected(semaphore_mask(word), [&](int i) {
        if (m.s.sem_value[i] < kSemaphoreMax) ++m.s.sem_value[i];
    });
}

void semget(Machine& m, int, uint32_t word) {
    for_each_selected(semaphore_mask(word), [&](int i) {
        if (m.s.sem_value[i] > 0) --m.s.sem_value[i];
    });
}

// SEMWAIT: keep waiting while (C0) any selected semaphore is 0, or (C1) any is at its max.
void semwait(Machine& m, int, uint32_t word) {
    const uint32_t mask = semaphore_mask(word), cond = field(word, 0, 2);
    if (cond == 0) return;  // a plain STALLWAIT on busy units: nothing outstanding
    MachineState& s = m.s;
    auto ready = [&s, mask, cond] {
        bool ok = true;
        for_each_selected(mask, [&](int i) {
            if ((cond & 1u) && s.sem_value[i] == 0) ok = false;
            if ((cond & 2u) && s.sem_value[i] >= s.sem_max[i]) ok = false;
        });
        return ok;
    };
    const std::string what = std::string("semaphore(s) ") + mask_text(mask) +
                             ((cond & 1u) ? " to be non-zero" : "") + ((cond == 3) ? " and" : "") +
                             ((cond & 2u) ? " to be below their max" : "");
    m.wait_for(Wait{ready, what});
}

// STALLWAIT: of its conditions only C8..C11 (the SrcA/SrcB ownership) can be unmet here.
void stallwait(Machine& m, int, uint32_t word) {
    // A zero mask means 0x7F on Wormhole (STALLWAIT.md): unit-idle conditions only, met at once here.
    const uint32_t cond = field(word, 0, kEnc.stallwait_wait_res_bits);
    MachineState& s = m.s;
    const uint32_t src = uint32_t(kEnc.stallwait_src_bit);  // SRCA_CLR; SRCB_CLR, SRCA_VLD, SRCB_VLD follow (arch.h)
    auto ready = [&s, cond, src] {
        if ((cond & (1u << src)) && s.srca[s.srca_unpack_bank].dvalid) return false;         // SrcA not back with unpacker
        if ((cond & (1u << (src + 1))) && s.srcb[s.srcb_unpack_bank].dvalid) return false;   // SrcB not back with unpacker
        if ((cond & (1u << (src + 2))) && !s.srca[s.srca_math_bank].dvalid) return false;  // SrcA not yet with matrix unit
        if ((cond & (1u << (src + 3))) && !s.srcb[s.srcb_math_bank].dvalid) return false;  // SrcB not yet with matrix unit
        return true;
    };
    m.wait_for(Wait{ready, "the SrcA/SrcB hand-over its STALLWAIT conditions select"});
}

// ATGETM/ATRELM: mutexes 0 and 2..7 (index 1 or above 7 waits forever on hardware: a hard error).
int mutex_index(Machine& m, int thread, uint32_t word) {
    const uint32_t index = field(word, 0, 24);
    if (index == 1 || index > 7) m.fail(thread, word, "mutex index " + std::to_string(index) + " waits forever");
    return int(index);
}

void atgetm(Machine& m, int thread, uint32_t word) {
    const int index = mutex_index(m, thread, word);
    int& owner = m.s.mutex_owner[index];
    m.wait_for(Wait{[&owner, thread] { return owner == -1 || owner == thread; },
                    "mutex " + std::to_string(index) + " held by another thread"});
    owner = thread;
}

void atrelm(Machine& m, int thread, uint32_t word) {
    int& owner = m.s.mutex_owner[mutex_index(m, thread, word)];
    if (owner == thread) owner = -1;
}

}  // namespace

TC_OPCODE(0xa3, SEMINIT, seminit);
TC_OPCODE(0xa4, SEMPOST, sempost);
TC_OPCODE(0xa5, SEMGET, semget);
TC_OPCODE(0xa6, SEMWAIT, semwait);
TC_OPCODE(0xa2, STALLWAIT, stallwait);
TC_OPCODE(0xa0, ATGETM, atgetm);
TC_OPCODE(0xa1, ATRELM, atrelm);

}  // namespace tc_tensix
