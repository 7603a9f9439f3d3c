"""The PyKernel front end: Python kernel bodies -> kernel-level IR -> C++, checked line by line.

Each kernel of ``kernels.py`` is compiled for an interface (the parameters' roles, as the host
binding decides them) and its C++ is checked for the lines that matter; the IR is verified by
the compiler itself (``verify_body``). The misuse catalogue (tests/pykernel/test_pykernel_misuse.py) holds
the errors; the examples (test_pykernel_examples.py) run what is compiled here.
"""

from __future__ import annotations

import re

import pytest

from tilecraft.arch.processors import Processor
from tests.pykernel import kernels
from tilecraft.pykernel import CircularBuffer, CompileTimeValue, Kernel, api, ttkernel_compile
from tilecraft.pykernel.interface import CB, COMMON, CT, RT, KernelInterface, ParamBinding


def interface(kind: str, processor: str, *params: ParamBinding, compile_args: int | None = None) -> KernelInterface:
    cbs = sum(1 for p in params if p.role == CB)
    return KernelInterface(kind, Processor(processor), params, cbs if compile_args is None else compile_args)


def lines(text: str) -> list[str]:
    """The C++ statements, without comments and indentation."""
    return [line.strip() for line in text.splitlines() if line.strip() and not line.strip().startswith("//")]


def test_arguments_follow_the_binding():
    compiled = kernels.control_flow.compile(interface(
        api.DATAMOVEMENT, "riscv_1", ParamBinding("cb", CB, 0), ParamBinding("n", COMMON, 0),
        ParamBinding("first", RT, 0), ParamBinding("flag", CT, value=True)))
    body = lines(compiled.text)
    assert "constexpr uint32_t cb = get_compile_time_arg_val(0);  // cb (circular buffer id)" in body
    assert "uint32_t n = get_common_arg_val<uint32_t>(0);  // n" in body
    assert "uint32_t first = get_arg_val<uint32_t>(0);  // first" in body
    assert '#include "api/dataflow/dataflow_api.h"' in body


def test_control_flow_and_mutable_variables():
    compiled = kernels.control_flow.compile(interface(
        api.DATAMOVEMENT, "riscv_1", ParamBinding("cb", CB, 0), ParamBinding("n", COMMON, 0),
        ParamBinding("first", COMMON, 1), ParamBinding("flag", CT, value=True)))
    body = lines(compiled.text)
    assert body.index("uint32_t total = 0;") < body.index("for (uint32_t i = first; i < t; i++) {")
    # `i % 2 == 0 and i != 4` keeps Python's meaning: two comparisons joined by &&
    assert any(re.fullmatch(r"bool \w+ = \(\w+ && \w+\);", line) for line in body)
    assert "total = total + t_3;" in body or any(re.fullmatch(r"total = total \+ \w+;", line) for line in body)
    assert "total = total - 1;" in body and "break;" in body
    # `if flag:` on a CompileTimeValue is decided at compile time: only the taken branch is emitted,
    # with the module constant folded in
    assert "total = total + 2048;" in body and "total = 0;" not in body[body.index("total = total + 2048;"):]
    assert any(re.fullmatch(r"\w+ last = \w+ \? total : first;", line) for line in body)
    assert body[-2] == "cb_reserve_back(cb, last);"


def test_compile_time_false_branch():
    compiled = kernels.control_flow.compile(interface(
        api.DATAMOVEMENT, "riscv_1", ParamBinding("cb", CB, 0), ParamBinding("n", COMMON, 0),
        ParamBinding("first", COMMON, 1), ParamBinding("flag", CT, value=False)))
    body = lines(compiled.text)
    assert "total = 0;" in body and "2048" not in compiled.text


def test_templates_enums_and_floats():
    compiled = kernels.templated.compile(interface(
        api.COMPUTE, "compute", ParamBinding("cb_a", CB, 0), ParamBinding("cb_b", CB, 1),
        ParamBinding("cb_out", CB, 2)))
    body = lines(compiled.text)
    assert "compute_kernel_hw_startup<SrcOrder::Reverse>(cb_a, cb_b, cb_out);" in body
    assert "fill_tile(0, 0.5f);" in body
    assert "exp_tile(0, VectorMode::RC);" in body
    assert "pack_tile(0, cb_out);" in body
    for header in ("api/compute/common.h", "api/compute/compute_kernel_hw_startup.h", "api/compute/matmul.h",
                   "api/compute/eltwise_unary/fill.h", "api/compute/eltwise_unary/exp.h", "api/compute/pack.h"):
        assert f'#include "{header}"' in body


def test_accessors_and_argument_reads():
    compiled = kernels.accessors.compile(interface(
        api.DATAMOVEMENT, "riscv_0", ParamBinding("cb", CB, 0), ParamBinding("addr", COMMON, 0),
        ParamBinding("count", COMMON, 1), compile_args=3))
    body = lines(compiled.text)
    assert "constexpr auto args = TensorAccessorArgs<1>();" in body
    assert any(re.fullmatch(r"const auto s = TensorAccessor\(args, addr, \w+\);", line) for line in body)
    assert "uint32_t offset = get_arg_val<uint32_t>(0);" in body  # get_arg_val(int, 0): the published spelling
    assert "uint32_t common = get_common_arg_val<uint32_t>(1);" in body  # the type defaults to uint32_t


def test_semaphore_addresses_become_pointers():
    compiled = kernels.semaphores.compile(interface(
        api.DATAMOVEMENT, "riscv_0", ParamBinding("cb", CB, 0), ParamBinding("sem_id", COMMON, 0),
        ParamBinding("count", COMMON, 1)))
    body = lines(compiled.text)
    assert "uint32_t sem_addr = get_semaphore(sem_id);" in body
    casts = [line for line in body if "reinterpret_cast<volatile tt_l1_ptr uint32_t*>(sem_addr)" in line]
    assert len(casts) == 2  # one per call that takes the semaphore pointer
    assert "uint64_t remote = get_noc_addr(1, 1, sem_addr);" in body
    assert "noc_semaphore_inc(remote, 1);" in body


def test_every_cpp_line_of_the_body_maps_to_its_python_line():
    compiled = kernels.accessors.compile(interface(
        api.DATAMOVEMENT, "riscv_0", ParamBinding("cb", CB, 0), ParamBinding("addr", COMMON, 0),
        ParamBinding("count", COMMON, 1), compile_args=3))
    source = open(kernels.__file__).read().splitlines()
    text = compiled.text.splitlines()
    body_start = text.index("void kernel_main() {") + 1
    for number in range(body_start + 1, len(text)):
        python = compiled.origin[number]
        assert python.file == kernels.__file__
        line = text[number - 1].strip()
        if line.startswith("noc_async_write_page("):
            assert "noc_async_write_page(" in source[python.line - 1]
        if line.startswith("for ("):
            assert source[python.line - 1].strip().startswith("for i in range(count)")


def test_the_published_direct_call_returns_the_cpp():
    text = kernels.control_flow(CircularBuffer(3), 4, 0, CompileTimeValue("flag", True))
    assert "get_compile_time_arg_val(0)" in text and "get_arg_val<uint32_t>(0);  // n" in text
    kernel = Kernel("control_flow", text)
    assert kernel.kernel_string == text


def test_kernel_dump_to_file(tmp_path):
    path = Kernel("k", "void kernel_main() {}\n").dump_to_file(str(tmp_path / "out" / "k.cpp"))
    assert open(path).read() == "void kernel_main() {}\n"


def test_compiled_once_per_interface():
    face = interface(api.COMPUTE, "compute", ParamBinding("cb_a", CB, 0), ParamBinding("cb_b", CB, 1),
                     ParamBinding("cb_out", CB, 2))
    assert kernels.templated.compile(face) is kernels.templated.compile(face)


@pytest.mark.parametrize("name, kind, expected", [
    ("cb_wait_front", api.COMPUTE, "void cb_wait_front(uint32_t, uint32_t)"),
    ("cb_wait_front", api.DATAMOVEMENT, "void cb_wait_front(int32_t, int32_t)"),
    ("matmul_tiles", api.COMPUTE, "void matmul_tiles(uint32_t, uint32_t, uint32_t, uint32_t, uint32_t)"),
    # only the real 0.81.1 dataflow headers declare it; it lives in an internal header dataflow_api.h includes
    ("noc_async_write_one_packet_with_trid", api.DATAMOVEMENT,
     "void noc_async_write_one_packet_with_trid<bool = true, bool = false>(uint32_t, uint64_t, uint32_t, uint32_t, "
     "uint8_t = write_cmd_buf, uint8_t = noc_index, uint8_t = NOC_UNICAST_WRITE_VC)"),
])
def test_the_api_table_is_what_kernels_compile_against(name, kind, expected):
    """Compute overloads come from the wheel's real 0.81.1 compute headers, data-movement overloads
    from its real 0.81.1 dataflow headers, each under the header a kernel includes."""
    assert expected in [o.render() for o in api.overloads(name, kind)]
    assert all(o.header == "api/dataflow/dataflow_api.h" for o in api.overloads("get_noc_addr", api.DATAMOVEMENT))
    assert all(o.header == "api/compute/common.h" for o in api.overloads("get_arg_val", api.COMPUTE))
    assert expected in [o.render() for o in api.overloads(name, kind)]
    assert api.overloads("add_tiles", api.DATAMOVEMENT) == ()
    assert api.other_kind("add_tiles", api.DATAMOVEMENT) == api.COMPUTE
    assert "Reverse" in api.enums()["SrcOrder"]


def test_loop_variables_keep_pythons_meaning():
    compiled = kernels.loop_variables.compile(interface(
        api.DATAMOVEMENT, "riscv_1", ParamBinding("cb", CB, 0), ParamBinding("n", COMMON, 0)))
    body = lines(compiled.text)
    assert any(re.fullmatch(r"for \(int32_t i = \w+; i > -1; i \+= -1\) \{", line) for line in body)
    loop = next(line for line in body if line.startswith("for (int32_t j_1 = 0; j_1 < 3; j_1++)"))
    inside = body[body.index(loop) + 1:body.index(loop) + 3]
    assert inside == ["j = j_1;", "j = j * 2;"]
    assert body[-2] == "cb_push_back(cb, j);"


def test_ttkernel_compile_kinds():
    text = kernels.generic_compute(CircularBuffer(0), CircularBuffer(16))
    assert '#include "api/compute/eltwise_unary/eltwise_unary.h"' in text and "init_sfpu(cb_in, cb_out);" in text
    assert kernels.generic_compute.thread == "ttkernel_tensix_compile"
    with pytest.raises(ValueError, match="kernel_type"):
        ttkernel_compile(kernel_type="gpu")
