// The layer under Tenstorrent's LLK when it runs on tilecraft's Tensix machine (kernel side).
//
// The machine include tree (tilecraft/emu/tensix_tree.py) rewrites the wheel's headers to call
// this: ckernel_ops.h's TTI_INSN/TT_INSN issue through issue_from_kernel, every
// reinterpret_cast<volatile T *>(device address) goes through mmio_cast, and ckernel.h's PC
// buffer and mailbox pointers are the proxy types below. The functions are defined once in the
// runner executable (mmio.cpp, fibers.cpp) and act on the calling fiber's core and TRISC, so a
// kernel compiled as a shared object (one per TRISC) needs no state of its own for them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <source_location>
#include <type_traits>

#define TC_TENSIX_EXPORT __attribute__((visibility("default")))

// The dependent `false` the header cache substitutes for `static_assert(false, ...)` (a C++23
// idiom g++ 12 rejects; tilecraft/wheel_headers.py). This header is force-included first.
template <class T>
inline constexpr bool tilecraft_deferred_false = false;

namespace tc_tensix {

// The calling TRISC issues one Tensix instruction word (MOP/REPLAY expansion, then execution).
TC_TENSIX_EXPORT void issue_from_kernel(std::uint32_t word);

// The host address backing `bytes` bytes at device address `addr` as the calling TRISC sees it
// (config registers, its MOP config and GPRs, debug registers, L1). An address the machine does
// not back is a hard error naming it.
TC_TENSIX_EXPORT volatile void* mmio_address(std::uintptr_t addr, std::size_t bytes);

// LLK_ASSERT failed (the suite's ebreak): a hard error naming the condition, message and place.
[[noreturn]] TC_TENSIX_EXPORT void llk_assert_failed(const char* condition, const char* message, const char* file,
                                                     int line);

// PC buffer words (PCBufs.md; semaphore access per ckernel.h's SemaphoreAccess layout).
TC_TENSIX_EXPORT std::uint32_t pcbuf_load(std::uint32_t word_index);
TC_TENSIX_EXPORT void pcbuf_store(std::uint32_t word_index, std::uint32_t value);
// Mailbox `box` (TENSIX_MAILBOX<box>_BASE) word `word_index` (Mailboxes.md).
TC_TENSIX_EXPORT std::uint32_t mailbox_load(int box, std::uint32_t word_index);
TC_TENSIX_EXPORT void mailbox_store(int box, std::uint32_t value);

// --- a data-movement kernel (BRISC/NCRISC) on the kernel emulator ---------------------------------
// The real 0.81.1 dataflow API (tilecraft/emu/tensix_dataflow.py) runs on the emulator's fibers; the
// emulator's runtime (runtime/noc_niu.cpp) defines these. Its L1 addresses are host addresses in
// the emulator's L1 window (below 2 GiB), so a kernel's own pointer casts work unchanged.
// The NIU's registers (noc_parameters.h: command buffers, status counters, NOC_CFG) as
// noc_nonblocking_api.h's accessors reach them; a write of NOC_CMD_CTRL issues the transaction.
TC_TENSIX_EXPORT void noc_register_write(std::uint32_t addr, std::uint32_t value);
TC_TENSIX_EXPORT std::uint32_t noc_register_read(std::uint32_t addr);
// Any other device address a data-movement RISC reaches (stream registers, debug registers, L1).
TC_TENSIX_EXPORT volatile void* dataflow_address(std::uintptr_t addr, std::size_t bytes);
// A polling loop on L1 (invalidate_l1_cache in each iteration): the other fibers get a turn.
TC_TENSIX_EXPORT void dataflow_poll();
// The kernel returned: its last stores to the register words it holds take effect.
TC_TENSIX_EXPORT void dataflow_done();

// The kernel line of the dataflow API call in progress. The machine tree gives each function of the
// dataflow API a trailing `Site tc_site = Site::current()` parameter, evaluated at its call site,
// and a SiteScope first in its body (tilecraft/emu/call_sites.py). The outermost scope (the
// kernel's call; the API's calls of itself are nested) writes the site where the emulator keeps
// the RISC's last API call (its fiber's, handed over at launch: tc_dataflow_main.h), so every
// finding of that call names the kernel's line, and the function's name while the call is in
// progress (a deadlock report names the call a polling loop is in). A TRISC (semaphore.h is
// shared) records nothing.
using Site = std::source_location;
}  // namespace tc_tensix
#if defined(TC_DATAFLOW_KERNEL)
#include "../../include/tc_emu/print_format.h"  // the emulator's DEVICE_PRINT formatter
#include "tc_dataflow_launch.h"
#else
// A TRISC's lookup of a named compile-time arg the host did not pass ends here too, not in the
// wheel's __builtin_unreachable: at run time the emulator's E5116 at the caller's line (its runtime,
// loaded before the compute bridge, defines it); a compile-time use does not compile, and the
// error names this function (not constexpr), which the build's diagnosis turns into E5001 "names an
// argument the host did not pass" (compile_errors.py), as for a data-movement kernel.
void tc_named_compile_time_arg_is_not_defined(const char* name, std::size_t length, std::source_location site);
#endif
namespace tc_tensix {
#if defined(TC_DATAFLOW_KERNEL)
inline Site* g_call_site = nullptr;  // per kernel object: the emulator loads one per core
inline const char** g_call_name = nullptr;
inline std::uint64_t* g_call_serial = nullptr;
inline int g_call_depth = 0;
struct SiteScope {
    SiteScope(const Site& site, const char* name) {
        if (g_call_depth++ == 0 && g_call_site != nullptr) {
            *g_call_site = site;
            *g_call_name = name;
            ++*g_call_serial;
        }
    }
    ~SiteScope() {
        if (--g_call_depth == 0 && g_call_name != nullptr) *g_call_name = nullptr;
    }
    SiteScope(const SiteScope&) = delete;
    SiteScope& operator=(const SiteScope&) = delete;
};
// The emulator's checks of a call (dataflow_checks.py): at its entry, or of the result of a poll
// (the value returned, passed through; found or not, the poll is a call of the trace). A TRISC
// (dataflow_api.h is shared) checks nothing.
#define TC_API_CHECK(call, a, b, c)                                                                  \
    ::tc_tensix::api_check(::tc_tensix::ApiCheck::call, std::uint64_t(a), std::uint32_t(b), std::uint32_t(c))
#define TC_API_RESULT(call, a, b, c, result) ::tc_tensix::api_result(::tc_tensix::ApiCheck::call, a, b, result)
inline bool api_result(ApiCheck call, std::uint64_t a, std::uint32_t b, bool found) {
    api_check(call, a, b, found);
    return found;
}
// ASSERT (api/debug/assert.h without the watcher): checked, a failure is E5008 at its line.
#define TC_ASSERT(condition) \
    (void(not(condition) ? (::tc::assert_failed(#condition, ::tc_tensix::Site::current()), 0) : 0))
// DEVICE_PRINT (api/debug/device_print.h without DEBUG_PRINT_ENABLED): formatted on the host as the
// emulator's own API formats it (fmt's fields), each line tagged with the core and RISC.
#define TC_DEVICE_PRINT(format, ...) ::tc::print::device_print(format, ##__VA_ARGS__)
// A function another header declares first (get_arg_val: tensor_accessor.h): the default goes on
// that first declaration, the parameter and the scope on the definition.
#define TC_FIRST_SITE , ::tc_tensix::Site tc_site = ::tc_tensix::Site::current()
#define TC_LATER_SITE , ::tc_tensix::Site tc_site
#define TC_LATER_SCOPE ::tc_tensix::SiteScope tc_site_scope(tc_site, __func__);
#else
struct SiteScope {
    SiteScope(const Site&, const char*) {}
};
#define TC_API_CHECK(call, a, b, c) ((void)0)
#define TC_API_RESULT(call, a, b, c, result) (result)
#define TC_ASSERT(condition) (void(sizeof(decltype(not(condition)))))
#define TC_DEVICE_PRINT(format, ...)
#define TC_FIRST_SITE
#define TC_LATER_SITE
#define TC_LATER_SCOPE
#endif

// A named compile-time arg the host did not pass (compile_time_args.h's lookup): E5116 at the caller's
// line, on every RISC.
#define TC_NAMED_ARG_MISSING(name, site) tc_named_compile_time_arg_is_not_defined(name.data(), name.size(), site)

// --- a compute kernel's API calls, for the kernel emulator's trace and sanitizer -----------------
// The machine tree gives each compute API call tilecraft/emu/tensix_call_events.py lists its caller's
// place (TC_CALL_SITE_PARAMS, a trailing default parameter) and starts its body with
// TC_COMPUTE_EVENT, which calls the hook the kernel emulator's compute bridge sets (null elsewhere:
// the LLK suite's runner) from each TRISC, with the TRISC's index, the call's name and up to eight
// of its values (what the trace records, then what the checks read). The MATH TRISC's calls are
// the kernel's sequence, once each.
using ComputeEventHook = void (*)(int trisc, int kind, const char* call, const std::uint32_t* values,
                                  const std::source_location& site);
TC_TENSIX_EXPORT extern ComputeEventHook compute_event_hook;
#define TC_CALL_SITE_PARAMS std::source_location tc_call_site = std::source_location::current()
// An API call made inside another (add_init -> binary_tiles_init, add_tiles_bcast -> any_tiles_bcast)
// is part of the outer call: only the outermost reports (ComputeCall counts the calls in progress;
// the kernel's unit, one per TRISC and core, has its own count). TC_COMPUTE_EVENT_THEN is a second
// event of the same call (reconfig_data_format: SrcA's, then SrcB's).
#if defined(COMPILE_FOR_TRISC)
static int compute_call_depth = 0;
struct ComputeCall {
    bool outermost;
    const std::source_location& site;
    ComputeCall(int kind, const char* call, const std::uint32_t* values, const std::source_location& site)
        : outermost(compute_call_depth++ == 0), site(site) {
        report(kind, call, values);
    }
    ~ComputeCall() { --compute_call_depth; }
    ComputeCall(const ComputeCall&) = delete;
    ComputeCall& operator=(const ComputeCall&) = delete;
    void report(int kind, const char* call, const std::uint32_t* values) const {
        if (outermost && compute_event_hook != nullptr) compute_event_hook(COMPILE_FOR_TRISC, kind, call, values, site);
    }
};
#define TC_COMPUTE_EVENT(kind, call, ...)                                 \
    const std::uint32_t tc_event_values[8] = {__VA_ARGS__};               \
    const ::tc_tensix::ComputeCall tc_compute_call(kind, call, tc_event_values, tc_call_site)
#define TC_COMPUTE_EVENT_THEN(kind, call, ...)                            \
    do {                                                                  \
        const std::uint32_t tc_then_values[8] = {__VA_ARGS__};            \
        tc_compute_call.report(kind, call, tc_then_values);               \
    } while (0)
#else
#define TC_COMPUTE_EVENT(kind, call, ...) ((void)tc_call_site)
#define TC_COMPUTE_EVENT_THEN(kind, call, ...) ((void)0)
#endif

#if defined(TC_DATAFLOW_KERNEL)
#define TC_MMIO_ADDRESS ::tc_tensix::dataflow_address
#define TC_L1_POLL() ::tc_tensix::dataflow_poll()
#else
#define TC_MMIO_ADDRESS ::tc_tensix::mmio_address
#define TC_L1_POLL() ((void)0)
#endif

// reinterpret_cast<volatile T *>(x) of the LLK: a device address (an integer) is translated; a
// host pointer (e.g. memcpy_blocking's arguments) is cast as the original did.
template <class P, class A>
inline P mmio_cast(A a) {
    if constexpr (std::is_pointer_v<A>) {
        return reinterpret_cast<P>(a);
    } else {
        using T = std::remove_cv_t<std::remove_pointer_t<P>>;
        constexpr std::size_t bytes = std::is_void_v<T> ? 1 : sizeof(std::conditional_t<std::is_void_v<T>, char, T>);
        return static_cast<P>(const_cast<void*>(TC_MMIO_ADDRESS(static_cast<std::uintptr_t>(a), bytes)));
    }
}

// A cast of a device address in the kernel API and firmware headers (hw/inc: reinterpret_cast<T *>
// and C casts to volatile pointers, tensix_tree.py): on a data-movement RISC it goes through
// mmio_cast (the emulator backs the address); on a TRISC it stays the cast tt-metal wrote, as
// before the data-movement layer existed (the compute bridge resolves what the LLK reads).
template <class P, class A>
inline P firmware_cast(A a) {
#if defined(TC_DATAFLOW_KERNEL)
    return mmio_cast<P>(a);
#else
    return (P)a;
#endif
}

// --- the PC buffer: reads and writes with side effects ------------------------------------------
struct PcBufWordPtr;
struct PcBufWord {
    std::uint32_t index;
    operator std::uint32_t() const { return pcbuf_load(index); }
    const PcBufWord& operator=(std::uint32_t value) const {
        pcbuf_store(index, value);
        return *this;
    }
    PcBufWordPtr operator&() const;
};
struct PcBufWordPtr {
    std::uint32_t index;
    PcBufWord operator*() const { return PcBufWord{index}; }
};
inline PcBufWordPtr PcBufWord::operator&() const { return PcBufWordPtr{index}; }
struct PcBuf {
    PcBufWord operator[](std::uint32_t index) const { return PcBufWord{index}; }
};
// ckernel::load_blocking / store_blocking on a PC buffer word (tensix_sync, mop_sync): found by ADL.
inline std::uint32_t load_blocking(PcBufWordPtr p) { return pcbuf_load(p.index); }
template <class U>
inline void store_blocking(PcBufWordPtr p, U&& value) { pcbuf_store(p.index, static_cast<std::uint32_t>(value)); }

// --- mailboxes ------------------------------------------------------------------------------------
struct MailboxWordPtr;
struct MailboxWord {
    int box;
    std::uint32_t index;
    operator std::uint32_t() const { return mailbox_load(box, index); }
    const MailboxWord& operator=(std::uint32_t value) const {
        mailbox_store(box, value);
        return *this;
    }
    MailboxWordPtr operator&() const;
};
struct MailboxWordPtr {
    int box;
    std::uint32_t index;
    MailboxWord operator*() const { return MailboxWord{box, index}; }
};
inline MailboxWordPtr MailboxWord::operator&() const { return MailboxWordPtr{box, index}; }
struct Mailbox {
    int box;
    MailboxWord operator[](std::uint32_t index) const { return MailboxWord{box, index}; }
};
inline std::uint32_t load_blocking(MailboxWordPtr p) { return mailbox_load(p.box, p.index); }
template <class U>
inline void store_blocking(MailboxWordPtr p, U&& value) { mailbox_store(p.box, static_cast<std::uint32_t>(value)); }

}  // namespace tc_tensix
