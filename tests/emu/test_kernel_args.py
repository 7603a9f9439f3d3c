"""Metal 2.0's named kernel arguments and bindings (0.81.1 experimental/kernel_args.h and the
JIT's generated headers) on the emulator, from tilecraft's ttnn.KernelBindings: a reader that
names its runtime, common runtime and compile-time args, a vararg, a tensor and a DFB reads each
core's own tiles; a read past the args the host set is reported at the kernel's line, and a
binding the host did not declare is a compile error at the kernel's line. Needs no wheel."""

from __future__ import annotations

import pytest
import torch

import tilecraft.ttnn as ttnn
from tilecraft.diagnostics import KernelError
from tilecraft.emu import chlkc
from tilecraft.emu.build import CBInfo
from tests.emu.harness import KERNELS, cb, cores, dram, kernel, line_of, output, run, write_kernel, writer

GRID = cores(0, 0, 1, 0)
SOURCE = KERNELS / "reader_named_args.cpp"


def _reader(src: ttnn.Tensor, rt: dict, common: list[int], chunk: int = 2,
            path=SOURCE) -> ttnn.KernelDescriptor:
    desc = kernel(path, ttnn.ReaderConfigDescriptor(), GRID, rt=rt, common=common)
    desc.bindings = ttnn.KernelBindings(runtime_args=["first_tile"], common_runtime_args=["tile_count"],
                                        compile_time_args={"chunk": chunk}, dfbs={"out": 3}, tensors={"src": src})
    return desc


def _writers(out: ttnn.Tensor, count: int) -> list[ttnn.KernelDescriptor]:
    return [writer(out, 3, count, x * count, core_ranges=cores(x, 0, x, 0)) for x in (0, 1)]


def test_named_args_varargs_tensor_and_dfb_bindings_select_each_cores_tiles(device) -> None:
    """Core (0, 0) gathers tiles 0 and 2, core (1, 0) tiles 1 and 3 (first tile per core, step 2
    as a vararg, count shared, two tiles per push): every binding kind reaches the kernel."""
    x = torch.randn(64, 64)
    src, out = dram(device, x), output(device, (64, 64))
    run([src, out], [_reader(src, {(0, 0): [0, 2], (1, 0): [1, 2]}, common=[2]), *_writers(out, 2)],
        [cb(3, core_ranges=GRID)])
    tiles = ttnn.to_torch(src).reshape(2, 32, 2, 32).permute(0, 2, 1, 3).reshape(4, 32, 32)
    got = ttnn.to_torch(out).reshape(2, 32, 2, 32).permute(0, 2, 1, 3).reshape(4, 32, 32)
    assert torch.equal(got, tiles[[0, 2, 1, 3]])


def test_a_vararg_past_the_hosts_args_is_reported_at_its_line(device) -> None:
    """Core (1, 0) gets its named runtime arg but no vararg: get_vararg(0) is E5103 at the kernel
    line that reads it, never a silent zero."""
    src, out = dram(device, torch.randn(64, 64)), output(device, (64, 64))
    with pytest.raises(KernelError) as info:
        run([src, out], [_reader(src, {(0, 0): [0, 2], (1, 0): [1]}, common=[2]), *_writers(out, 2)],
            [cb(3, core_ranges=GRID)])
    d = info.value.diagnostic
    assert d.code == "E5103" and d.span.line == line_of(SOURCE), d


def test_a_binding_the_host_did_not_declare_is_a_compile_error_at_the_kernels_line(device, tmp_path) -> None:
    text = SOURCE.read_text().replace("get_vararg(0);  // FINDING-HERE (a vararg the host did not set)",
                                      "get_arg(args::stride);  // FINDING-HERE")
    path = write_kernel(tmp_path, "reader_undeclared.cpp", text)
    src, out = dram(device, torch.randn(64, 64)), output(device, (64, 64))
    with pytest.raises(KernelError) as info:
        run([src, out], [_reader(src, {(0, 0): [0, 1], (1, 0): [2, 1]}, common=[2], path=path), *_writers(out, 2)],
            [cb(3, core_ranges=GRID)])
    d = info.value.diagnostic
    assert d.code == "E5001" and d.span.line == line_of(path), d
    assert "args::stride" in d.message and "KernelBindings" in (d.hint or ""), d


def test_a_binding_without_any_kernel_bindings_names_the_extension(device) -> None:
    """A Metal 2.0 kernel run by a host that gives it no KernelBindings at all: E5001 at the first
    line naming a binding, pointing at the extension."""
    src, out = dram(device, torch.randn(64, 64)), output(device, (64, 64))
    reader = _reader(src, {(0, 0): [0, 1], (1, 0): [2, 1]}, common=[2])
    reader.bindings = None
    with pytest.raises(KernelError) as info:
        run([src, out], [reader, *_writers(out, 2)], [cb(3, core_ranges=GRID)])
    d = info.value.diagnostic
    assert d.code == "E5001" and d.span.line == line_of(SOURCE, "FIRST-BINDING"), d
    assert "args::" in d.message and "KernelBindings" in (d.hint or ""), d


@pytest.mark.parametrize("bindings,message", [
    (ttnn.KernelBindings(runtime_args=["n"], compile_time_args={"n": 1}), "args::n is declared twice"),
    (ttnn.KernelBindings(dfbs={"in-0": 0}), "'in-0' is not a C++ identifier"),
    (ttnn.KernelBindings(dfbs={"in0": 99}), "dfb::in0 is bound to 99"),
    (ttnn.KernelBindings(tensors={"src": 5}), "tensor::src is bound to int"),
    (ttnn.KernelBindings(common_runtime_args=["a", "b"]), "names 2 common runtime args, but common_runtime_args has 1"),
])
def test_malformed_bindings_are_refused_at_the_host(device, bindings, message) -> None:
    src, out = dram(device, torch.randn(64, 64)), output(device, (64, 64))
    reader = _reader(src, {(0, 0): [0, 1], (1, 0): [2, 1]}, common=[2])
    reader.bindings = bindings
    with pytest.raises(KernelError) as info:
        run([src, out], [reader, *_writers(out, 2)], [cb(3, core_ranges=GRID)])
    assert info.value.diagnostic.code == "E5130" and message in info.value.diagnostic.message, info.value.diagnostic


def test_descriptor_tables_follow_the_compute_configuration() -> None:
    """chlkc_descriptors.h's formats: a float32 CB unpacks to tf32 with an fp32 DST (to float32 when
    it unpacks to DST), a bfloat8_b CB unpacks to and packs from bfp8_b (from float32 with
    bfp8_pack_precise and an fp32 DST); unconfigured CBs are Invalid."""
    cbs = {0: CBInfo(4096, chlkc.FLOAT32), 1: CBInfo(1088, chlkc.BFP8_B), 16: CBInfo(1024, 5, 16, 32)}
    tables = chlkc.descriptor_tables(cbs, True, (False, False), bfp8_pack_precise=True)
    row = {line.split("[")[0].split()[-1]: [int(v) for v in line.split("{")[1].rstrip("};").split(",")]
           for line in tables.splitlines() if line.startswith("constexpr")}
    assert row["unpack_src_format"][:2] == [0, 6] and row["unpack_src_format"][2] == 255
    assert row["unpack_dst_format"][:2] == [chlkc.TF32, chlkc.BFP8_B]
    assert row["pack_src_format"][:2] == [chlkc.FLOAT32, chlkc.FLOAT32]
    assert row["unpack_tile_r_dim"][16] == 16 and row["pack_tile_num_faces"][16] == 2
    assert row["unpack_tile_size"][1] == 1088
    to_dest = chlkc.descriptor_tables(cbs, True, (True,), bfp8_pack_precise=False)
    assert f"unpack_dst_format[64] = {{{chlkc.FLOAT32}, {chlkc.BFP8_B}," in to_dest


def test_a_semaphore_binding_and_the_headers_the_generated_bindings_bring(device) -> None:
    """sem::counter is a SemaphoreBindingToken of the host's semaphore id, and a kernel with DFB
    bindings gets the DataflowBuffer class from the generated header (as the JIT's does). The kernel sets the semaphore to 0x3F803F7F and
    raises it: every word of the page is then two bfloat16 ones."""
    out = output(device, (32, 32))
    desc = kernel(KERNELS / "semaphore_binding.cpp", ttnn.WriterConfigDescriptor(), cores(0, 0, 0, 0), rt=[0x3F803F7F])
    desc.bindings = ttnn.KernelBindings(runtime_args=["start"], dfbs={"out": 3}, tensors={"dst": out},
                                        semaphores={"counter": 1})
    run([out], [desc], [cb(3, core_ranges=cores(0, 0, 0, 0))],
        [ttnn.SemaphoreDescriptor(id=1, core_ranges=cores(0, 0, 0, 0), initial_value=0)])
    assert torch.equal(ttnn.to_torch(out), torch.ones(32, 32, dtype=ttnn.to_torch(out).dtype))


def test_a_tt_kernel_entry_gets_the_kernel_main_the_jit_writes(device) -> None:
    """A kernel whose entry is a ``TT_KERNEL`` function gets kernel_main() from its signature
    (tilecraft/emu/tt_kernel_entry.py): the template parameter from the named compile-time arg, the function parameter from the named
    runtime arg. It stamps page 1 of a two-page output with two bfloat16 ones; page 0 keeps its zeros."""
    out = dram(device, torch.zeros(64, 32))
    desc = kernel(KERNELS / "tt_kernel_entry.cpp", ttnn.WriterConfigDescriptor(), cores(0, 0, 0, 0), rt=[1])
    desc.bindings = ttnn.KernelBindings(runtime_args=["page"], compile_time_args={"word": 0x3F803F80},
                                        dfbs={"out": 3}, tensors={"dst": out})
    run([out], [desc], [cb(3, core_ranges=cores(0, 0, 0, 0))])
    got = ttnn.to_torch(out).float()
    assert torch.equal(got[:32], torch.zeros(32, 32)) and torch.equal(got[32:], torch.ones(32, 32))


def test_the_tt_kernel_entry_is_read_from_its_signature() -> None:
    from tilecraft.emu import tt_kernel_entry

    text = ("// TT_KERNEL void not_this(uint32_t a) {}\ntemplate <uint32_t Kt, std::size_t N = sizeof(std::pair<int, int>)>\n"
            "TT_KERNEL void dataflow(uint32_t worker_index, const std::array<int, 2> group) {}\n")
    found = tt_kernel_entry.entry(text)
    assert found == tt_kernel_entry.Entry("dataflow", ("Kt", "N"), ("worker_index", "group"))
    assert "dataflow<get_arg(args::Kt), get_arg(args::N)>(get_arg(args::worker_index), get_arg(args::group));" \
        in tt_kernel_entry.shim(found)
    assert tt_kernel_entry.entry("void kernel_main() {}") is None
