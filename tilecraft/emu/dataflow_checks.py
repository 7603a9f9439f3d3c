"""The emulator's own API checks on the real dataflow API: which calls report to it, and with what.

Why: the emulator's dataflow API checks what Tenstorrent's code leaves to the device (a push of
more pages than were reserved, a pop of more than were waited for, a runtime arg past the host's,
a semaphore the host never created: docs/emulator.md section 5, E51xx/E52xx/E5311). On the real
path (tensix_dataflow.py) the CB calls are Tenstorrent's code over the stream registers and those
mistakes would run on silently. The same checks run there from the emulator's state: the
call-site rewrite (call_sites.py) opens each function listed here with one more statement, after
its SiteScope, that hands the emulator the call's parameters (``TC_API_CHECK``,
tc_tensix_kernel.h); the emulator checks them against the CB, argument and semaphore state it
keeps, records what the call grants (the pages reserved, the RISC's CB pointers) and reports at
the kernel's line. Tenstorrent's body then runs unchanged. A poll that may grant pages
(``cb_pages_reservable_at_back``) reports its result instead: its ``return`` hands the value to
``TC_API_RESULT``, which tells the emulator whether the pages were found.

The same statements feed the profiling trace (runtime/trace.h): the barriers and the local
semaphore set are listed only for it (their check records the call as the emulator's own API
records it: a barrier once per call, not once per status counter its loop reads), and
``noc_semaphore_set_remote`` so that the 4-byte write it issues lands as the semaphore write it is.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ApiCheck:
    """A dataflow API function the emulator checks: ``kind`` names the ``tc_tensix::ApiCheck``
    enumerator; ``parameters`` the indices of the two parameters it hands over (the CB and its
    pages, an argument index, a multicast's address and destination count); ``extra`` a
    ``str.format`` template over the parameter names of a third value (the RISC's own CB pointer
    at a push or pop, a multicast's NoC; ``0`` when the check takes none); ``on_result``: the check
    reports the function's result (a poll), not its entry."""

    kind: str
    parameters: tuple[int, int] = (0, 1)
    extra: str = "0"
    on_result: bool = False

    def arguments(self, names: list[str]) -> str:
        """The macro's arguments: the kind, the two parameters (0 where missing) and the extra value."""
        first, second = ((names[i] if i < len(names) else "0") for i in self.parameters)
        return f"{self.kind}, {first}, {second}, {self.extra.format(*names)}"

    def entry(self, names: list[str]) -> str:
        """The statement the function's body opens with (after its SiteScope); empty for a result check."""
        return "" if self.on_result else f" TC_API_CHECK({self.arguments(names)});"

    def result(self, names: list[str], expression: str) -> str:
        """The expression a result check's ``return`` returns in place of ``expression``."""
        return f"TC_API_RESULT({self.arguments(names)}, {expression})"


_MULTICAST = ApiCheck("WriteMulticast", (1, 3), "{5}")


def _barrier(kind: str, noc: int = 0) -> ApiCheck:
    """A barrier's check: its NoC (the parameter at index ``noc``) as both parameters."""
    return ApiCheck(kind, (noc, noc))


#: The functions of ``api/dataflow/dataflow_api.h`` the emulator checks (the object API's CB and DFB
#: calls, CircularBuffer::push_back ..., and its Semaphore multicasts reach these;
#: ``get_arg_val`` and ``get_common_arg_val``, which other headers forward-declare, get theirs from
#: tensix_tree's rewrites). Each enumerator's check is in runtime/noc_niu.cpp (api_check); the
#: pointer a push or pop passes keeps the emulator's record of the RISC's CB pointers equal to the
#: kernel's own (a kernel may move them itself).
CHECKS: dict[str, ApiCheck] = {
    "cb_reserve_back": ApiCheck("CbReserve"),
    "cb_wait_front": ApiCheck("CbWait"),
    "cb_push_back": ApiCheck("CbPush", extra="get_local_cb_interface({0}).fifo_wr_ptr"),
    "cb_pop_front": ApiCheck("CbPop", extra="get_local_cb_interface({0}).fifo_rd_ptr"),
    "cb_pages_reservable_at_back": ApiCheck("CbReservable", on_result=True),
    "cb_pages_available_at_front": ApiCheck("CbAvailable", on_result=True),
    "get_write_ptr": ApiCheck("CbWritePtr"),
    "get_read_ptr": ApiCheck("CbReadPtr"),
    "get_semaphore": ApiCheck("Semaphore"),
    "noc_semaphore_set_multicast": ApiCheck("SemaphoreSetMulticast", (1, 2), "{4}"),
    "noc_semaphore_set_multicast_loopback_src": ApiCheck("SemaphoreSetMulticastLoopback", (1, 2), "{4}"),
    "noc_semaphore_inc_multicast": ApiCheck("SemaphoreIncMulticast", (0, 2), "{3}"),
    "noc_semaphore_wait": ApiCheck("SemaphoreWait"),
    "noc_semaphore_wait_min": ApiCheck("SemaphoreWaitMin"),
    "noc_semaphore_set": ApiCheck("SemaphoreSet"),
    "noc_semaphore_set_remote": ApiCheck("SemaphoreSetRemote"),
    "noc_async_read_barrier": _barrier("ReadBarrier"),
    "noc_async_write_barrier": _barrier("WriteBarrier"),
    "noc_async_writes_flushed": _barrier("WritesFlushed"),
    "noc_async_posted_writes_flushed": _barrier("PostedWritesFlushed"),
    "noc_async_atomic_barrier": _barrier("AtomicBarrier"),
    "noc_async_full_barrier": _barrier("FullBarrier"),
    "noc_async_read_barrier_with_trid": _barrier("ReadBarrier", 1),
    "noc_async_write_barrier_with_trid": _barrier("WriteBarrier", 1),
    "noc_async_write_flushed_with_trid": _barrier("WritesFlushed", 1),
}

#: The functions of ``internal/dataflow/dataflow_api_raw.h`` the emulator checks: the multicast
#: writes the free functions and the object API's ``Noc::async_write_multicast`` both reach. They
#: take no call site of their own: the kernel's call into the API set it.
RAW_CHECKS: dict[str, ApiCheck] = {
    "noc_async_write_multicast_one_packet_impl": _MULTICAST,
    "noc_async_write_multicast_impl": _MULTICAST,
    "noc_async_write_multicast_loopback_src_impl": ApiCheck("WriteMulticastLoopback", (1, 3), "{5}"),
}
