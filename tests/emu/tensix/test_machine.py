"""The Tensix machine's core: an unmodelled instruction is a hard error that names it."""


def test_unmodelled_opcode_is_named(tensix_unit_test):
    out = tensix_unit_test(r'''
#include <cstdio>
#include <stdexcept>
#include "machine.h"
int main() {
    tc_tensix::Machine m;
    try { m.issue(tc_tensix::kMath, 0xfe000000u); } catch (const std::runtime_error& e) { std::printf("%s\n", e.what()); }
    m.dst32_write(5, 3, 0x3f801234u);
    std::printf("%08x\n", m.dst32_read(5, 3));
}
''')
    lines = out.splitlines()
    assert "TRISC MATH issued 0xfe000000 (opcode 0xfe ?)" in lines[0]
    assert "not modelled" in lines[0]
    assert lines[1] == "3f801234"
