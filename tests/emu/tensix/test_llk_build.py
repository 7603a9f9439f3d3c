"""The LLK test suite's own sources built for tilecraft's Tensix machine and run end to end
(tilecraft/emu/tensix_build.py over the machine include tree of tensix_tree.py).

``build.h`` and the runtime args are written here the way the suite's TestConfig writes them
(python_tests/helpers/test_config.py: generate_build_header, generate_runtime_args_struct,
write_runtimes_to_L1) for the variants below; results are read from L1 where the suite's
harness reads them.
"""

from __future__ import annotations

import struct

import pytest

from tilecraft.emu import tensix_build, tensix_tree
from tilecraft.wheels import WheelUnavailable

L1_BYTES = 0x16E000  # Wormhole B0: 1464 KiB
BUFFER_A, BUFFER_B, BUFFER_RES = 0x21000, 0x22000, 0x23000  # stimuli addresses (above the runtime args)
TILE_BYTES = 2048
PCK_DEST_RD_CTRL_READ_32B_DATA_SHAMT = 0  # wormhole_b0_defines/cfg_defines.h
FLOAT16_B, INT32 = 5, 8  # WORMHOLE_DATA_FORMAT_ENUM_VALUES

# FormatConfig's fields (helpers/format_config.py: FORMATS_CONFIG_STRUCT_RUNTIME), in order
FORMAT_FIELDS = ("unpack_A_src", "unpack_B_src", "unpack_S_src", "unpack_A_dst", "unpack_B_dst", "unpack_S_dst",
                 "math", "sfpu_src", "sfpu_dst", "pack_src", "pack_dst", "pack_S_src", "pack_S_dst")
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
""" + "struct FormatConfig\n{\n" + "".join(f"    std::uint32_t {name} = 0;\n" for name in FORMAT_FIELDS) + """};
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
    program.run(l1, suite_runtime_args(INT32))
    cycles, pack_seen, unpack_seen = struct.unpack_from("<III", l1, BUFFER_RES)
    assert (cycles, pack_seen, unpack_seen) == (256, 256, 256)


# A kernel of our own for the failure paths: UNPACK configures through the LLK's own helpers and
# then, in mode 0, issues XMOV (the mover, which the machine does not model); MATH waits on
# UNPACK's semaphore post and, in mode 1, fails an LLK_ASSERT. One build serves every case.
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
    if (params.mode == 0)
    {
        TTI_XMOV(0, 0);
    }
}
#endif

#ifdef LLK_TRISC_MATH
void run_kernel(RUNTIME_PARAMETERS params)
{
    while (semaphore_read(semaphore::UNPACK_SYNC) == 0) {}
    LLK_ASSERT(params.mode != 1, "mode 1 fails this assertion");
}
#endif

#ifdef LLK_TRISC_PACK
void run_kernel(RUNTIME_PARAMETERS) {}
#endif
"""
FAILING_BUILD_H = suite_build_h([], ["std::uint32_t mode;"])


@pytest.fixture(scope="module")
def failing_kernel(tmp_path_factory, sources):
    path = tmp_path_factory.mktemp("llk_kernels") / "failing_kernel.cpp"
    path.write_text(FAILING_KERNEL)
    return path


@pytest.fixture(scope="module")
def failing_program(failing_kernel):
    return tensix_build.build_llk_test(failing_kernel, FAILING_BUILD_H)


def test_unmodelled_instruction_is_named(failing_program):
    l1 = bytearray(L1_BYTES)
    with pytest.raises(tensix_build.TensixRunError) as raised:
        failing_program.run(l1, suite_runtime_args(FLOAT16_B, "I", 0))
    assert raised.value.code == "E5871"
    assert ("failing_kernel.cpp on the Tensix machine: TRISC UNPACK issued 0x40000000 (opcode 0x40 XMOV): "
            "this instruction is not modelled by tilecraft's Tensix machine") in str(raised.value)
    # what ran before it: the RMWCIB write landed in the config register, read back through the
    # memory map and stored to L1 through a pointer cast
    (field_word,) = struct.unpack_from("<I", l1, BUFFER_RES)
    assert field_word == 1 << PCK_DEST_RD_CTRL_READ_32B_DATA_SHAMT


def test_failed_llk_assert_names_condition_and_place(failing_program, failing_kernel):
    with pytest.raises(tensix_build.TensixRunError) as raised:
        failing_program.run(bytearray(L1_BYTES), suite_runtime_args(FLOAT16_B, "I", 1))
    message = str(raised.value)
    assert "TRISC MATH: LLK_ASSERT(params.mode != 1) failed at " in message
    assert f"{failing_kernel}:" in message and "mode 1 fails this assertion" in message


def test_wrong_runtime_args_size_is_reported(failing_program):
    with pytest.raises(tensix_build.TensixRunError, match="the runtime args are 8 bytes, but this build's "
                                                          "RuntimeParams is 92 bytes"):
        failing_program.run(bytearray(L1_BYTES), b"\0" * 8)


# A source that brings its own RuntimeParams and has no build.h, as the fuser's generated kernels do
# (python_tests/fuser/kernel_generator.py; their TestConfig has skip_build_header=True and never
# writes runtime args). The struct's size (12: a trailing byte padded to 4) is only its compile's.
OWN_PARAMS_KERNEL = r"""
#include <cstdint>
#include "ckernel.h"

#if __has_include("build.h")
#error "a source built without build.h must not find one"
#endif

struct RuntimeParams
{
    std::uint32_t result_address;
    std::uint32_t value;
    std::uint8_t tag;
};

#ifdef LLK_TRISC_PACK
void run_kernel(const volatile struct RuntimeParams& params)
{
    auto* result = reinterpret_cast<volatile std::uint32_t*>(params.result_address);
    result[0] = params.value * 3 + params.tag;
}
#else
void run_kernel(const volatile struct RuntimeParams&) {}
#endif
"""


@pytest.fixture(scope="module")
def own_params_program(tmp_path_factory, sources):
    path = tmp_path_factory.mktemp("llk_kernels") / "own_params_kernel.cpp"
    path.write_text(OWN_PARAMS_KERNEL)
    return tensix_build.build_llk_test(path, None)


def test_own_runtime_params_are_copied_from_l1_as_they_stand(own_params_program):
    # run(l1, None): nothing is written at RUNTIME_ARGS_START; each TRISC copies its own
    # sizeof(RuntimeParams) bytes from L1, as the firmware does
    args = struct.pack("<IIB", BUFFER_RES, 14, 5) + b"\xaa" * 3
    l1 = bytearray(L1_BYTES)
    l1[tensix_build.RUNTIME_ARGS_START:tensix_build.RUNTIME_ARGS_START + len(args)] = args
    own_params_program.run(l1, None)
    assert struct.unpack_from("<I", l1, BUFFER_RES) == (14 * 3 + 5,)
    assert l1[tensix_build.RUNTIME_ARGS_START:tensix_build.RUNTIME_ARGS_START + len(args)] == args


def test_own_runtime_params_size_is_the_sources(own_params_program):
    with pytest.raises(tensix_build.TensixRunError, match="the runtime args are 9 bytes, but this build's "
                                                          "RuntimeParams is 12 bytes"):
        own_params_program.run(bytearray(L1_BYTES), struct.pack("<IIB", BUFFER_RES, 14, 5))


def test_compile_error_is_a_build_error(failing_kernel):
    with pytest.raises(tensix_build.TensixBuildError) as raised:
        tensix_build.build_llk_test(failing_kernel, "#pragma once\n")  # no RuntimeParams
    assert raised.value.code == "E5872"
    assert "failing_kernel.cpp (TRISC UNPACK) does not compile for tilecraft's Tensix machine" in str(raised.value)


# eltwise_unary_datacopy_test.cpp, one variant: Float16_b in and out, one 32x32 tile (4 faces),
# dest_acc off, no tilize (test_eltwise_unary_datacopy.py's templates and runtimes, in its order).
DATACOPY_TEMPLATES = ["constexpr std::uint32_t FULL_RT_DIM = 1;", "constexpr std::uint32_t FULL_CT_DIM = 1;",
                      "constexpr std::uint32_t BLOCK_CT_DIM = 1;", "constexpr std::uint32_t BLOCK_RT_DIM = 1;",
                      "constexpr bool tilize_en = false;", "constexpr auto PERF_RUN_TYPE = PerfRunType::L1_TO_L1;"]
DATACOPY_RUNTIMES = ["int DST_INDEX;", "std::uint32_t TILE_CNT;", "std::uint32_t num_faces;",
                     "std::uint32_t num_faces_A;", "std::uint32_t num_faces_B;", "int NUM_BLOCKS;",
                     "int INPUT_NUM_BLOCKS;", "int OUTPUT_NUM_BLOCKS;", "std::uint32_t NUM_TILES_IN_BLOCK;",
                     "std::uint32_t INPUT_NUM_TILES_IN_BLOCK;", "std::uint32_t OUTPUT_NUM_TILES_IN_BLOCK;",
                     "std::uint32_t LOOP_FACTOR;"]


def test_datacopy_float16_b_is_bit_exact(sources):
    torch = pytest.importorskip("torch")
    program = tensix_build.build_llk_test(sources / "eltwise_unary_datacopy_test.cpp",
                                          suite_build_h(DATACOPY_TEMPLATES, DATACOPY_RUNTIMES),
                                          defines=["RUNTIME_FORMATS"])
    stimuli = torch.randn(1024, generator=torch.Generator().manual_seed(21)).to(torch.bfloat16)
    l1 = bytearray(L1_BYTES)
    l1[BUFFER_A:BUFFER_A + 2048] = stimuli.view(torch.int16).numpy().tobytes()
    args = suite_runtime_args(FLOAT16_B, "iIIIIiiiIIII", 0, 1, 4, 4, 4, 1, 1, 1, 1, 1, 1, 1)
    program.run(l1, args)
    result = torch.frombuffer(bytearray(l1[BUFFER_RES:BUFFER_RES + 2048]), dtype=torch.int16)
    # the golden of a Float16_b -> Float16_b copy of finite normal values: the same bits (DataCopyGolden)
    assert torch.equal(result, stimuli.view(torch.int16))
