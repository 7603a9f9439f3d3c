"""The machine include tree's rewrites that need no wheel (tilecraft/emu/tensix_tree.py): the C-style
volatile-pointer casts of the firmware headers go through mmio_cast with their whole operand, and
what is not a device address (an address-of, a literal) stays as it is."""

from __future__ import annotations

import pytest

from tilecraft.emu.tensix_tree import rewrite_c_casts


@pytest.mark.parametrize("text,want", [
    ("volatile uint32_t* ptr = (volatile uint32_t*)offset;",
     "volatile uint32_t* ptr = ::tc_tensix::mmio_cast<volatile uint32_t*>(offset);"),
    # stream_io_map.h: an integer cast chained before a parenthesised operand with nested calls
    ("return (volatile uint32_t*)(uintptr_t)(STREAM_REG_ADDR(\n    get_operand_stream_id(operand), X));",
     "return ::tc_tensix::mmio_cast<volatile uint32_t*>((uintptr_t)(STREAM_REG_ADDR(\n"
     "    get_operand_stream_id(operand), X)));"),
    # a postfix expression is the operand whole: subscripts, members, calls
    ("x = (volatile tt_reg_ptr uint32_t *) a[3]->b.c(1) + 2;",
     "x = ::tc_tensix::mmio_cast<volatile tt_reg_ptr uint32_t *>(a[3]->b.c(1)) + 2;"),
    # not a device address: left alone
    ("p = (volatile tt_l1_ptr uint32_t*)&mailbox->word;", "p = (volatile tt_l1_ptr uint32_t*)&mailbox->word;"),
    ("q = (uint32_t*)table;", "q = (uint32_t*)table;"),
])
def test_c_style_register_casts_go_through_mmio_cast(text: str, want: str) -> None:
    got, count = rewrite_c_casts(text)
    assert got == want
    assert count == (got != text)
