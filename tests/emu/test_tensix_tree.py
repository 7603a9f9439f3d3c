"""The machine include tree's rewrites that need no wheel (tilecraft/emu/tensix_tree.py): the C-style
volatile-pointer casts of the firmware headers go through mmio_cast with their whole operand, and
what is not a device address (an address-of, a literal) stays as it is; a Deferral moves the parts
of a header that read a kernel's own macros into a header of their own, included in place unless
the data-movement prefix is being built."""

from __future__ import annotations

from pathlib import Path

import pytest

from tilecraft.emu.tensix_tree import DEFER_MACRO, Deferral, TreeError, rewrite_c_casts


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


ARGS_HEADER = """#pragma once
#include <array>
#ifdef KERNEL_MAP
#include <string_view>
#endif
#ifndef KERNEL_ARGS
#define KERNEL_ARGS
#endif
constexpr auto args = make_array(KERNEL_ARGS);
#define get_arg(i) get_ct_arg<i>()
"""


def _deferral(patterns: tuple[str, ...]) -> Deferral:
    return Deferral("hw/inc/api/args.h", patterns, "api/tc_deferred_args.h", "the kernel's args",
                    declarations="template <int I>\nconstexpr int get_ct_arg();\n")


def test_a_deferral_moves_the_parts_naming_kernel_macros_to_a_header_of_their_own(tmp_path: Path) -> None:
    header = tmp_path / "hw/inc/api/args.h"
    header.parent.mkdir(parents=True)
    header.write_text(ARGS_HEADER)
    line = _deferral((r"^#ifdef KERNEL_MAP\n.*?#endif\n", r"^#ifndef KERNEL_ARGS\n.*?KERNEL_ARGS\);\n")).apply(tmp_path)
    assert line == "hw/inc/api/args.h: 2 part(s) moved to hw/inc/api/tc_deferred_args.h (the kernel's args)"
    assert header.read_text() == ("#pragma once\n#include <array>\ntemplate <int I>\nconstexpr int get_ct_arg();\n"
                                  f"#ifndef {DEFER_MACRO}\n#include \"api/tc_deferred_args.h\"\n#endif\n"
                                  "#define get_arg(i) get_ct_arg<i>()\n")
    moved = (tmp_path / "hw/inc/api/tc_deferred_args.h").read_text()
    assert moved.endswith("#pragma once\n#ifdef KERNEL_MAP\n#include <string_view>\n#endif\n#ifndef KERNEL_ARGS\n"
                          "#define KERNEL_ARGS\n#endif\nconstexpr auto args = make_array(KERNEL_ARGS);\n")


def test_a_deferral_whose_text_is_not_in_the_header_fails_loudly(tmp_path: Path) -> None:
    header = tmp_path / "hw/inc/api/args.h"
    header.parent.mkdir(parents=True)
    header.write_text(ARGS_HEADER)
    with pytest.raises(TreeError, match="expected 1 match .* found 0"):
        _deferral((r"^#ifdef KERNEL_NAMED_MAP\n",)).apply(tmp_path)
