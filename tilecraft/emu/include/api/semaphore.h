// The Semaphore object of 0.81.1 (api/semaphore.h) for data-movement kernels on Wormhole and
// Blackhole, emulated: a semaphore is the L1 word get_semaphore(id) of the core (LOCAL_NONATOMIC
// scope). up/down/set change it locally, wait/wait_min block on it, and the NoC forms increment,
// relay or multicast it to other cores; each goes through the runtime's semaphore calls, so a
// blocked wait shows in the deadlock report and the sanitizer checks the addresses. Compute-kernel
// semaphores (COMPUTE_ATOMIC, Blackhole) are not modelled.
#pragma once

#include <cstdint>

#include "api/dataflow/semaphore_binding_token.h"
#include "api/debug/assert.h"
#include "tc_emu/base.h"
#ifndef COMPILE_FOR_TRISC
#include "api/dataflow/noc.h"
#endif

#ifdef COMPILE_FOR_TRISC
#define TC_NO_COMPUTE_SEMAPHORE \
    static_assert(core_type != core_type, "not modelled by the tilecraft emulator: Semaphore in a compute kernel")
#else
#define TC_NO_COMPUTE_SEMAPHORE
#endif

template <ProgrammableCoreType core_type = ProgrammableCoreType::TENSIX>
class Semaphore {
    template <ProgrammableCoreType>
    friend class Semaphore;

public:
    explicit Semaphore(SemaphoreBindingToken token, TC_LOC) : handle_(tc_address(token.id, tc_loc)) {
        ASSERT(token.scope == SemScope::LOCAL_NONATOMIC);
    }
    explicit Semaphore(std::uint32_t semaphore_id, TC_LOC) : handle_(tc_address(semaphore_id, tc_loc)) {}

    void up(std::uint32_t value, TC_LOC) { ::tc::sem_set(word(), *word() + value, tc_loc); }

    void down(std::uint32_t value, TC_LOC) {
        ::tc::sem_wait(word(), value, true, tc_loc);
        ::tc::sem_set(word(), *word() - value, tc_loc);
    }

    void wait(std::uint32_t value, TC_LOC) const { ::tc::sem_wait(word(), value, false, tc_loc); }

    void wait_min(std::uint32_t value, TC_LOC) const { ::tc::sem_wait(word(), value, true, tc_loc); }

    void set(std::uint32_t value, TC_LOC) { ::tc::sem_set(word(), value, tc_loc); }

    std::uint32_t value(TC_LOC) const {
        ::tc::yield_point(tc_loc);  // invalidate_l1_cache(): a polling loop lets the other cores run
        return *word();
    }

#ifndef COMPILE_FOR_TRISC
    void up(const Noc& noc, std::uint32_t noc_x, std::uint32_t noc_y, std::uint32_t value,
            std::uint8_t vc = NOC_UNICAST_WRITE_VC, TC_LOC) {
        (void)vc;
        ::tc::sem_inc(::get_noc_addr(noc_x, noc_y, uint32_t(handle_), noc.get_noc_id()), value, noc.get_noc_id(),
                      tc_loc);
    }

    template <ProgrammableCoreType dst_core_type = core_type>
    void relay_unicast(const Noc& noc, const Semaphore<dst_core_type>& dst_sem, std::uint32_t noc_x,
                       std::uint32_t noc_y, TC_LOC) {
        ::tc::sem_set_remote(uint32_t(handle_), ::get_noc_addr(noc_x, noc_y, uint32_t(dst_sem.handle_),
                                                               noc.get_noc_id()),
                             noc.get_noc_id(), tc_loc);
    }

    template <NocOptions opts = NocOptions::DEFAULT>
    void set_multicast(const Noc& noc, std::uint32_t noc_x_start, std::uint32_t noc_y_start, std::uint32_t noc_x_end,
                       std::uint32_t noc_y_end, std::uint32_t num_dests, bool linked = false, TC_LOC) {
        (void)linked;
        ::tc::sem_set_multicast(uint32_t(handle_),
                                ::get_noc_multicast_addr(noc_x_start, noc_y_start, noc_x_end, noc_y_end,
                                                         uint32_t(handle_), noc.get_noc_id()),
                                num_dests, has_flag(opts, NocOptions::MCAST_INCL_SRC), noc.get_noc_id(), tc_loc);
    }

    template <NocOptions opts = NocOptions::DEFAULT, ProgrammableCoreType dst_core_type = core_type>
    void relay_multicast(const Noc& noc, const Semaphore<dst_core_type>& dst_sem, std::uint32_t noc_x_start,
                         std::uint32_t noc_y_start, std::uint32_t noc_x_end, std::uint32_t noc_y_end,
                         std::uint32_t num_dests, bool linked = false, TC_LOC) {
        (void)linked;
        ::tc::sem_set_multicast(uint32_t(handle_),
                                ::get_noc_multicast_addr(noc_x_start, noc_y_start, noc_x_end, noc_y_end,
                                                         uint32_t(dst_sem.handle_), noc.get_noc_id()),
                                num_dests, has_flag(opts, NocOptions::MCAST_INCL_SRC), noc.get_noc_id(), tc_loc);
    }

    void inc_multicast(const Noc& noc, std::uint32_t noc_x_start, std::uint32_t noc_y_start, std::uint32_t noc_x_end,
                       std::uint32_t noc_y_end, std::uint32_t value, std::uint32_t num_dests, TC_LOC) {
        ::tc::sem_inc_multicast(::get_noc_multicast_addr(noc_x_start, noc_y_start, noc_x_end, noc_y_end,
                                                         uint32_t(handle_), noc.get_noc_id()),
                                value, num_dests, noc.get_noc_id(), tc_loc);
    }

#endif  // !COMPILE_FOR_TRISC

private:
    static std::uintptr_t tc_address(std::uint32_t id, ::tc::Loc loc) {
#ifdef COMPILE_FOR_TRISC
        TC_NO_COMPUTE_SEMAPHORE;
        (void)loc;
        return id;
#else
        return get_semaphore<core_type>(id, loc);
#endif
    }

    volatile std::uint32_t* word() const { return reinterpret_cast<volatile std::uint32_t*>(handle_); }

    std::uintptr_t handle_;
};
