"""The call-site rewrite of the real dataflow API's headers (tilecraft/emu/call_sites.py): each
function the header defines takes the caller's source location and opens a scope with it; what
is not a function definition with a declared type, or cannot take a defaulted parameter, or is
also declared elsewhere without a body, is left as it is. Pure text: no compiler."""

from __future__ import annotations

import pytest

from tilecraft.emu.call_sites import SITE_PARAMETER, add_call_sites, code_mask, declared_names, site_scope
from tilecraft.emu.dataflow_checks import CHECKS

SITE = SITE_PARAMETER


@pytest.mark.parametrize("text,want", [
    ("FORCE_INLINE void noc_async_read_barrier(uint8_t noc = noc_index) {\n    x();\n}",
     f"FORCE_INLINE void noc_async_read_barrier(uint8_t noc = noc_index, {SITE}) {{"
     f"{site_scope('noc_async_read_barrier')}\n    x();\n}}"),
    ("template <bool posted = false>\ninline uint64_t get(\n    int a,\n    bool b) const {",
     f"template <bool posted = false>\ninline uint64_t get(\n    int a,\n    bool b, {SITE}) const {{{site_scope('get')}"),
    ("class Noc {\n public:\n    __attribute__((always_inline)) uint8_t get_noc_id() const { return id; }",
     f"class Noc {{\n public:\n    __attribute__((always_inline)) uint8_t get_noc_id({SITE}) const {{"
     f"{site_scope('Noc::get_noc_id')} return id; }}"),
    ("template <typename T>\nclass DataflowBuffer {\n    struct Page { int n; };\n public:\n    void wait_front(int n) {",
     "template <typename T>\nclass DataflowBuffer {\n    struct Page { int n; };\n public:\n"
     f"    void wait_front(int n, {SITE}) {{{site_scope('DataflowBuffer::wait_front')}"),
])
def test_a_defined_function_takes_its_call_site(text: str, want: str) -> None:
    got, count = add_call_sites(text)
    assert (got, count) == (want, 1)


@pytest.mark.parametrize("text", [
    "void f() {\n    if (x) {\n    }\n    for (;;) {\n    }\n    auto g = [](int a) {\n    };\n}",  # only f
    "explicit __attribute__((always_inline)) Semaphore(uint32_t id) : handle_(id), scope_(s) {\n}",  # constructor
    "constexpr inline std::int32_t get_tile_size(const std::int32_t operand) {\n}",  # constexpr
    "template <typename... Args>\nvoid emit(Args... args) {\n}",  # a parameter pack
    "bool operator==(const Noc& other) const {\n}",  # an operator
    "// void commented(int a) {\n/* void block(int b) { */\n#define M(x) void macro(x) {\nint s = call(\"void s(int c) {\");",
])
def test_what_is_not_a_plain_function_definition_is_left_alone(text: str) -> None:
    got, count = add_call_sites(text)
    assert got.count("tc_site_scope(") == count
    assert count == (1 if text.startswith("void f()") else 0), got


def test_a_function_declared_elsewhere_keeps_its_signature() -> None:
    """``static uintptr_t get_common_arg_addr(int arg_idx);`` in another header: a parameter added
    to the definition only would make every call ambiguous."""
    header = "// uintptr_t get_arg_addr(int arg_idx);\nstatic uintptr_t get_common_arg_addr(int arg_idx);\nx = f(1);\n"
    assert declared_names(header, {"get_common_arg_addr", "get_arg_addr", "f"}) == {"get_common_arg_addr"}
    text = "static FORCE_INLINE uintptr_t get_common_arg_addr(int arg_idx) {\n}\nvoid other() {\n}"
    got, count = add_call_sites(text, skip={"get_common_arg_addr"})
    assert count == 1 and got.startswith("static FORCE_INLINE uintptr_t get_common_arg_addr(int arg_idx) {\n}")


def test_the_mask_keeps_positions_and_newlines() -> None:
    text = 'a = "x{y";  // c(d) {\n#define E(f) {\\\n  g\nh(\'{\');'
    masked = code_mask(text)
    assert len(masked) == len(text) and masked.count("\n") == text.count("\n")
    assert "{" not in masked and masked.startswith("a = ") and "h(" in masked


def test_a_checked_function_reports_its_call_to_the_emulator() -> None:
    """A function of dataflow_checks.CHECKS opens with the emulator's check of its parameters
    (after its scope); a push hands it the RISC's own write pointer."""
    text = "FORCE_INLINE\nvoid cb_push_back(const int32_t operand, const int32_t num_pages = 1) {\n    x();\n}"
    got, count = add_call_sites(text, checks=CHECKS)
    assert count == 1
    assert got == (f"FORCE_INLINE\nvoid cb_push_back(const int32_t operand, const int32_t num_pages = 1, {SITE}) "
                   f"{{{site_scope('cb_push_back')} TC_API_CHECK(CbPush, operand, num_pages, "
                   "get_local_cb_interface(operand).fifo_wr_ptr);\n    x();\n}")


def test_a_checked_poll_reports_its_result() -> None:
    """cb_pages_reservable_at_back grants the pages only when it finds them: its return value goes
    through TC_API_RESULT, its entry is not checked."""
    text = "bool cb_pages_reservable_at_back(int32_t operand, int32_t num_pages) {\n    return a <= b;\n}"
    got, _ = add_call_sites(text, checks=CHECKS)
    assert "TC_API_CHECK" not in got
    assert "return TC_API_RESULT(CbReservable, operand, num_pages, 0, a <= b);" in got
