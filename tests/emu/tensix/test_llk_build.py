"""The LLK test suite's own sources built for tilecraft's Tensix machine and run end to end
(tilecraft/emu/tensix_build.py over the machine include tree of tensix_tree.py).

``build.h`` and the runtime args are written here the way the suite's TestConfig writes them
(python_tests/helpers/test_config.py: generate_build_header, generate_runtime_args_struct,
write_runtimes_to_L1) for the variants below; results are read from L1 where the suite's
harness reads them.
"""

from __future__ import annotations

import struct
import time

import pytest

from tilecraft.emu import tensix_build, tensix_tree
from tilecraft.wheels import WheelUnavailable

L1_BYTES = 0x16E000  # Wormhole B0: 1464 KiB
BUFFER_A, BUFFER_B, BUFFER_RES = 0x21000, 0x22000, 0x23000  # stimuli addresses (above the runtime args)
TILE_BYTES = 2048
PCK_DEST_RD_CTRL_READ_32B_DATA_SHAMT = 0  # wormhole_b0_defines/cfg_defines.h

BUILD_H_HEAD = """#pragma once
#include <array>
#include <type_traits>
#include "operand.h"
#include "llk_defs.h"
#include "llk_sfpu_types.h"
#include "perf.h"
#include "tensix_types.h"
#define RUNTIME_PARAMETERS  [[maybe_unused]] const struct RuntimeParams&
constexpr bool l1_acc_en = false;
constexpr bool unpack_to_dest = false;
struct FormatConfig
{
    std::uint32_t unpack_A_src = 0;
    std::uint32_t unpack_B_src = 0;
    std::uint32_t unpack_S_src = 0;
    std::uint32_t unpack_A_dst = 0;
    std::uint32_t unpack_B_dst = 0;
    std::uint32_t unpack_S_dst = 0;
    std::uint32_t math = 0;
    std::uint32_t sfpu_src = 0;
    std::uint32_t sfpu_dst = 0;
    std::uint32_t pack_src = 0;
    std::uint32_t pack_dst = 0;
    std::uint32_t pack_S_src = 0;
    std::uint32_t pack_S_dst = 0;
};
constexpr bool is_fp32_dest_acc_en = false;
"""


def suite_build_h(templates: list[str], runtime_fields: list[str]) -> str:
    """A build.h with the suite's layout: runtime formats, stimuli operands, then the runtimes."""
    fields = ["std::uint32_t TILE_SIZE_PACK;", "std::uint32_t TILE_SIZE_UNPACK_A;", "std::uint32_t TILE_SIZE_UNPACK_B;",
              "FormatConfig formats;", "Operand buffer_A;", "Operand buffer_B;", "Operand buffer_Res;",
              *runtime_fields]
    return BUILD_H_HEAD + "\n".join(templates) + "\nstruct RuntimeParams {\n" + "\n".join(fields) + "\n};\n"


def suite_runtime_args(data_format: int, runtime_format: str = "", *runtimes: int) -> bytes:
    """The RuntimeParams bytes in the order write_runtimes_to_L1 packs them."""
    return struct.pack("<III" + "I" * 13 + "IIIIII" + runtime_format, TILE_BYTES, TILE_BYTES, TILE_BYTES,
                       *([data_format] * 13), BUFFER_A, TILE_BYTES, BUFFER_B, TILE_BYTES, BUFFER_RES, TILE_BYTES,
                       *runtimes)


@pytest.fixture(scope="module")
def sources():
    try:
        return tensix_tree.machine_tree("wormhole") / "tt-llk" / "tests" / "sources"
    except WheelUnavailable as exc:
        pytest.skip(f"the ttnn wheel is unavailable: {exc}")


def test_mailbox_read_completion(sources):
    """The suite's mailbox_read_completion_test: MATH programs a config field with RMWCIB and
    releases UNPACK and PACK through their mailboxes 256 times; each must read the field back
    already holding the value of that cycle (blocking mailbox reads, RMWCIB, tensix_sync)."""
    program = tensix_build.build_llk_test(sources / "mailbox_read_completion_test.cpp", suite_build_h([], []),
                                          defines=["RUNTIME_FORMATS"])
    l1 = bytearray(L1_BYTES)
    program.run(l1, suite_runtime_args(8))  # Int32
    cycles, pack_seen, unpack_seen = struct.unpack_from("<III", l1, BUFFER_RES)
    assert (cycles, pack_seen, unpack_seen) == (256, 256, 256)


# A kernel of our own for the failure paths: UNPACK configures through the LLK's own helpers and
# then issues XMOV (the mover, which the machine does not model); MATH and PACK wait on UNPACK's
# semaphore post, or MATH fails an LLK_ASSERT when FAIL_ASSERT is defined.
FAILING_KERNEL = r"""
#include <cstdint>
#include "build.h"
#include "ckernel.h"

using namespace ckernel;

#ifdef LLK_TRISC_UNPACK
void run_kernel(RUNTIME_PARAMETERS params)
{
    cfg_reg_rmw_tensix<PCK_DEST_RD_CTRL_Read_32b_data_RMW>(1);
    auto* res = reinterpret_cast<volatile std::uint32_t*>(params.buffer_Res[0]);
    res[0] = cfg_read(PCK_DEST_RD_CTRL_Read_32b_data_ADDR32);
    semaphore_post(semaphore::UNPACK_SYNC);
#ifndef FAIL_ASSERT
    TTI_XMOV(0, 0);
#endif
}
#endif

#ifdef LLK_TRISC_MATH
void run_kernel([[maybe_unused]] RUNTIME_PARAMETERS params)
{
    while (semaphore_read(semaphore::UNPACK_SYNC) == 0) {}
#ifdef FAIL_ASSERT
    LLK_ASSERT(params.buffer_Res[0] == 0, "the result buffer is not at address 0");
#endif
}
#endif

#ifdef LLK_TRISC_PACK
void run_kernel(RUNTIME_PARAMETERS) {}
#endif
"""


@pytest.fixture(scope="module")
def failing_kernel(tmp_path_factory):
    path = tmp_path_factory.mktemp("llk_kernels") / "failing_kernel.cpp"
    path.write_text(FAILING_KERNEL)
    return path


def test_unmodelled_instruction_is_named(sources, failing_kernel):
    program = tensix_build.build_llk_test(failing_kernel, suite_build_h([], []))
    l1 = bytearray(L1_BYTES)
    with pytest.raises(tensix_build.TensixRunError) as raised:
        program.run(l1, suite_runtime_args(5))
    assert raised.value.code == "E5871"
    assert ("failing_kernel.cpp on the Tensix machine: TRISC UNPACK issued 0x40000000 (opcode 0x40 XMOV): "
            "this instruction is not modelled by tilecraft's Tensix machine") in str(raised.value)
    # what ran before it: the RMWCIB write landed in the config register, read back through the
    # memory map and stored to L1 through a pointer cast
    (field_word,) = struct.unpack_from("<I", l1, BUFFER_RES)
    assert field_word == 1 << PCK_DEST_RD_CTRL_READ_32B_DATA_SHAMT


def test_failed_llk_assert_names_condition_and_place(sources, failing_kernel):
    program = tensix_build.build_llk_test(failing_kernel, suite_build_h([], []), defines=["FAIL_ASSERT"])
    with pytest.raises(tensix_build.TensixRunError) as raised:
        program.run(bytearray(L1_BYTES), suite_runtime_args(5))
    message = str(raised.value)
    assert "TRISC MATH: LLK_ASSERT(params.buffer_Res[0] == 0) failed at " in message
    assert f"{failing_kernel}:" in message and "the result buffer is not at address 0" in message


def test_wrong_runtime_args_size_is_reported(sources, failing_kernel):
    program = tensix_build.build_llk_test(failing_kernel, suite_build_h([], []))
    with pytest.raises(tensix_build.TensixRunError, match="the runtime args are 8 bytes, but this build's "
                                                          "RuntimeParams is 88 bytes"):
        program.run(bytearray(L1_BYTES), b"\0" * 8)


def test_compile_error_is_a_build_error(sources, failing_kernel):
    with pytest.raises(tensix_build.TensixBuildError) as raised:
        tensix_build.build_llk_test(failing_kernel, "#pragma once\n")  # no RuntimeParams
    assert raised.value.code == "E5872"
    assert "failing_kernel.cpp (TRISC UNPACK) does not compile for tilecraft's Tensix machine" in str(raised.value)
