"""Host programs for an emitted MetalProgram: a Python ``ttnn.generic_op`` host, a C++ MeshDevice
host with its CMake file, and a manifest.

The Python host is what a user with hardware runs: it builds the ``ProgramDescriptor`` from
data tables (buffers, semaphores, per-core runtime arguments) and calls ``ttnn.generic_op``
on ttnn tensors, outputs pre-allocated and passed last (the micro-op pattern). Runtime
arguments that only the device knows (buffer addresses, NoC coordinates of logical cores) are
symbolic in the tables and resolved when the host runs.
"""

from __future__ import annotations

import json
from typing import Any, Mapping

from ..arch import get as get_arch
from ..arch.processors import Processor
from ..diagnostics import Span
from ..ir.grid import all_cores
from . import kir

_COMPUTE_CONFIG = ("ttnn.ComputeConfigDescriptor(math_fidelity=ttnn.MathFidelity.{fidelity}, "
                   "fp32_dest_acc_en={fp32}, math_approx_mode=False, unpack_to_dest_mode=unpack_to_dest_modes())")


def _python_config(processor: Processor) -> str:
    """The Python host's config descriptor of a kernel (a template: ``{fidelity}``, ``{fp32}``)."""
    if processor.is_compute:
        return _COMPUTE_CONFIG
    return (f"ttnn.DataMovementConfigDescriptor(processor=ttnn.DataMovementProcessor.{processor.metal_name}, "
            f"noc=ttnn.NOC.{processor.default_noc_name})")


def kernel_file(kernel: kir.Kernel) -> str:
    return f"{kernel.name}.cpp"


def manifest(program: kir.MetalProgram, source: str | None,
             spans: Mapping[str, Mapping[int, Span]] | None = None) -> dict[str, Any]:
    """The program's tables; ``spans`` (kernel file -> C++ line -> source span) become each kernel's
    ``source_map`` over the ``source_files`` list (see :func:`source_map`)."""
    cols, rows = (program.grid + (1,))[:2]
    files: list[str] = []
    maps = {name: source_map(lines, files) for name, lines in (spans or {}).items()}
    return {
        "generator": "tilecraft",
        "tt_metal_version": kir.METAL_VERSION,
        "arch": program.arch,
        "program": program.name,
        "source": source,
        "grid": list(program.grid),
        #: grid="full"/"auto": the compute grid of the architecture emitted for (hosts check the device's)
        "grid_from_device": program.grid_from_device,
        "cores": {"start": [0, 0], "end": [cols - 1, rows - 1]},
        #: every core in the order of the per-core runtime argument lists (node(dims=1) order)
        "core_order": [list(c) + [0] * (2 - len(c)) for c in all_cores(program.grid)],
        "tensors": [{"index": t.index, "name": t.name, "shape": list(t.shape), "dtype": t.fmt.name,
                     "layout": "TILE" if t.unit.tiled else "ROW_MAJOR"} for t in program.tensors],
        "circular_buffers": [_circular_buffer(cb) for cb in program.cbs],
        "semaphores": [{"id": s.index, "name": s.name, "initial_value": s.initial} for s in program.semaphores],
        "compute_config": {"math_fidelity": program.math_fidelity, "fp32_dest_acc_en": program.fp32_dest_acc_en,
                           #: Float32 buffers unpacked straight into DST (UnpackToDestFp32), all others Default
                           "unpack_to_dest_fp32": list(program.unpack_to_dest_fp32),
                           "num_circular_buffers": get_arch(program.arch).circular_buffers},
        "kernels": [{
            "file": kernel_file(k), "thread": k.name, "processor": k.processor,
            "compile_time_args": [*k.compile_args, *(f"TensorAccessorArgs({t.name})" for t, _ in k.accessors)],
            "runtime_args": [{"label": a.label, "per_core": [_json_value(v) for v in a.values]} for a in k.rt_args],
            "common_runtime_args": [{"label": a.label, "value": _json_value(a.values[0])} for a in k.common_args],
            "source_map": maps.get(kernel_file(k), []),
        } for k in program.kernels],
        "source_files": files,
    }


def _circular_buffer(cb: kir.CBSpec) -> dict[str, Any]:
    """A buffer's manifest entry; one that names another's pages says whose (``shares_pages_of``):
    the hosts make it one more format of that buffer's CircularBufferConfig."""
    entry = {"index": cb.index, "name": cb.name, "data_format": cb.fmt.metal_name, "page_size": cb.page_bytes,
             "pages": cb.pages, "total_size": cb.page_bytes * cb.pages, "introduced_by_lowering": cb.internal}
    if cb.shares is not None:
        entry["shares_pages_of"] = cb.shares
    return entry


def source_map(spans: Mapping[int, Span], files: list[str]) -> list[list[int]]:
    """C++ lines -> source lines, for tools that report a finding in the C++ at the line that
    produced it (the kernel emulator does): runs ``[first C++ line, last C++ line, index into
    source_files, line, column]`` of consecutive lines printed for one source span. The C++
    carries the same mapping for readers, as a comment before each statement."""
    runs: list[list[int]] = []
    for cpp_line in sorted(spans):
        span = spans[cpp_line]
        if span.file not in files:
            files.append(span.file)
        where = [files.index(span.file), span.line, span.col]
        if runs and runs[-1][1] == cpp_line - 1 and runs[-1][2:] == where:
            runs[-1][1] = cpp_line
        else:
            runs.append([cpp_line, cpp_line, *where])
    return runs


def _json_value(value: Any) -> Any:
    return list(value) if isinstance(value, tuple) else value


def python_host(program: kir.MetalProgram) -> str:
    """program.py: build the ProgramDescriptor from the manifest's tables and run generic_op."""
    fidelity = program.math_fidelity
    configs = {k.name: _python_config(k.processor).format(fidelity=fidelity, fp32=program.fp32_dest_acc_en)
               for k in program.kernels}
    config_lines = "\n".join(f"    {k!r}: lambda: {v}," for k, v in configs.items())
    return f'''"""Host for the kernel program '{program.name}', generated by tilecraft (tt-metal {kir.METAL_VERSION}).

Run on a machine with a Tenstorrent device and ttnn {kir.METAL_VERSION}:

    python program.py            # random inputs, prints the outputs

or import it and call ``run(device, tensors)`` with ttnn tensors in the program's order
({", ".join(t.name for t in program.tensors)}); outputs are pre-allocated tensors among them.
"""

import json
import os

import ttnn

HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(HERE, "manifest.json")) as f:
    MANIFEST = json.load(f)

CONFIGS = {{
{config_lines}
}}


def unpack_to_dest_modes():
    """UnpackToDestFp32 for the Float32 buffers the compute kernel copies into DST (all 32 bits
    kept); Default, through SrcA/SrcB (TF32 for Float32 data), for every other buffer."""
    config = MANIFEST["compute_config"]
    return [ttnn.UnpackToDestMode.UnpackToDestFp32 if i in config["unpack_to_dest_fp32"] else
            ttnn.UnpackToDestMode.Default for i in range(config["num_circular_buffers"])]


def core_ranges():
    start, end = MANIFEST["cores"]["start"], MANIFEST["cores"]["end"]
    return ttnn.CoreRangeSet([ttnn.CoreRange(ttnn.CoreCoord(*start), ttnn.CoreCoord(*end))])


def resolve(value, device, tensors):
    """Runtime argument values the device decides: buffer addresses and NoC coordinates."""
    if isinstance(value, list) and value[0] == "buffer_address":
        return tensors[value[1]].buffer_address()
    if isinstance(value, list) and value[0] in ("noc_x", "noc_y"):
        logical = ttnn.CoreCoord(value[1], 0) if value[0] == "noc_x" else ttnn.CoreCoord(0, value[1])
        physical = device.worker_core_from_logical_core(logical)
        return physical.x if value[0] == "noc_x" else physical.y
    return int(value)


def cores():
    """Every core, in the order of the manifest's per-core runtime argument lists."""
    return [tuple(c) for c in MANIFEST["core_order"]]


def check_grid(device):
    """The program's kernels were compiled for its grid: every per-core argument, pipe table and loop
    bound is fixed for it (docs/emit.md, "Grids"). A device without those cores cannot run it; a
    grid="full" program on a device with more cores runs on the grid it was emitted for."""
    grid = device.compute_with_storage_grid_size()
    cols, rows = (c + 1 for c in MANIFEST["cores"]["end"])
    again = f"emit it again for this device: tilecraft emit SCRIPT.py --grid {{grid.x}},{{grid.y}}"
    if cols > grid.x or rows > grid.y:
        raise RuntimeError(f"program {{MANIFEST['program']!r}} runs on a {{cols}}x{{rows}} grid of cores, but this "
                           f"device's compute grid is {{grid.x}}x{{grid.y}}" + (f"; {{again}}" if MANIFEST["grid_from_device"]
                                                                         else ""))
    if MANIFEST["grid_from_device"] and (cols, rows) != (grid.x, grid.y):
        print(f"program.py: note: {{MANIFEST['program']!r}} was emitted for the full {{cols}}x{{rows}} grid of "
              f"{{MANIFEST['arch']}} and uses those cores of this device's {{grid.x}}x{{grid.y}}; {{again}}")


def program_descriptor(device, tensors):
    check_grid(device)
    ranges = core_ranges()
    formats = {{}}  # an index that shares another buffer's pages is one more format of that buffer's CB
    for cb in MANIFEST["circular_buffers"]:
        formats.setdefault(cb.get("shares_pages_of", cb["index"]), []).append(ttnn.CBFormatDescriptor(
            buffer_index=cb["index"], data_format=getattr(ttnn, MANIFEST_DTYPES[cb["data_format"]]),
            page_size=cb["page_size"]))
    cbs = [ttnn.CBDescriptor(total_size=cb["total_size"], core_ranges=ranges, format_descriptors=formats[cb["index"]])
           for cb in MANIFEST["circular_buffers"] if "shares_pages_of" not in cb]
    semaphores = [ttnn.SemaphoreDescriptor(id=s["id"], core_ranges=ranges, initial_value=s["initial_value"])
                  for s in MANIFEST["semaphores"]]
    kernels = []
    for k in MANIFEST["kernels"]:
        compile_args = []
        for name in k["compile_time_args"]:
            if isinstance(name, int):  # a literal word (a circular buffer id)
                compile_args.append(name)
                continue
            index = next(t["index"] for t in MANIFEST["tensors"] if "TensorAccessorArgs(" + t["name"] + ")" == name)
            compile_args += ttnn.TensorAccessorArgs(tensors[index]).get_compile_time_args()
        runtime = ttnn.RuntimeArgs()
        for flat, (x, y) in enumerate(cores()):
            runtime[x][y] = [resolve(a["per_core"][flat], device, tensors) for a in k["runtime_args"]]
        kernels.append(ttnn.KernelDescriptor(
            kernel_source=os.path.join(HERE, k["file"]),
            source_type=ttnn.KernelDescriptor.SourceType.FILE_PATH,
            core_ranges=ranges, compile_time_args=compile_args, runtime_args=runtime,
            common_runtime_args=[resolve(a["value"], device, tensors) for a in k["common_runtime_args"]],
            config=CONFIGS[k["thread"]]()))
    return ttnn.ProgramDescriptor(kernels=kernels, semaphores=semaphores, cbs=cbs)


MANIFEST_DTYPES = {{"Float16_b": "bfloat16", "Float32": "float32", "Bfp8_b": "bfloat8_b", "Bfp4_b": "bfloat4_b",
                   "Float16": "float16", "Int32": "int32", "UInt32": "uint32", "UInt16": "uint16", "UInt8": "uint8"}}


def run(device, tensors):
    return ttnn.generic_op(list(tensors), program_descriptor(device, tensors))


def main():
    import torch
    device = ttnn.open_device(device_id=0)
    try:
        tensors = [ttnn.from_torch(torch.rand(t["shape"]).to(torch.bfloat16), dtype=getattr(ttnn, t["dtype"]),
                                   layout=getattr(ttnn, t["layout"] + "_LAYOUT"), device=device,
                                   memory_config=ttnn.DRAM_MEMORY_CONFIG) for t in MANIFEST["tensors"]]
        run(device, tensors)
        for t, tensor in zip(MANIFEST["tensors"], tensors):
            print(t["name"], ttnn.to_torch(tensor))
    finally:
        ttnn.close_device(device)


if __name__ == "__main__":
    main()
'''


def cpp_host(program: kir.MetalProgram) -> str:
    """main.cpp: the same program on the C++ MeshDevice API (seed 002's host launcher)."""
    cols, rows = (program.grid + (1,))[:2]
    lines = [f"// Host for the kernel program '{program.name}', generated by tilecraft (tt-metal {kir.METAL_VERSION}).",
             "// Build: cmake -B build && cmake --build build; run ./build/host. Inputs are random.",
             "#include <tt-metalium/host_api.hpp>", "#include <tt-metalium/distributed.hpp>",
             "#include <tt-metalium/tensor_accessor_args.hpp>", "#include <cstdint>", "#include <cstdio>",
             "#include <string>",
             "#include <vector>", "", "using namespace tt;", "using namespace tt::tt_metal;", "",
             "int main() {",
             "    auto mesh = distributed::MeshDevice::create_unit_mesh(0);",
             "    auto& cq = mesh->mesh_command_queue();",
             "    Program program = CreateProgram();",
             f"    CoreRange cores({{0, 0}}, {{{cols - 1}, {rows - 1}}});",
             "    auto device_grid = mesh->compute_with_storage_grid_size();",
             f"    if (device_grid.x < {cols} || device_grid.y < {rows}) {{  // kernels are compiled for this grid",
             f'        fprintf(stderr, "this program runs on a {cols}x{rows} grid; the device has %zux%zu cores: '
             f're-emit it with tilecraft emit --grid\\n", device_grid.x, device_grid.y);',
             "        return 1;",
             "    }", ""]
    lines.append("    // tensors: DRAM interleaved, one page per tile (tile layout) or per row (row-major)")
    for t in program.tensors:
        page = t.fmt.tile_bytes if t.unit.tiled else t.shape[-1] * t.fmt.element_bits // 8
        pages = 1
        for extent in t.unit_shape:
            pages *= extent
        if not t.unit.tiled:
            pages //= t.shape[-1]
        lines += [f"    distributed::DeviceLocalBufferConfig {t.name}_local{{.page_size = {page}, "
                  f".buffer_type = BufferType::DRAM}};",
                  f"    auto {t.name}_buf = distributed::MeshBuffer::create(distributed::ReplicatedBufferConfig"
                  f"{{.size = {page * pages}}}, {t.name}_local, mesh.get());",
                  f"    std::vector<uint32_t> {t.name}_host({page * pages} / sizeof(uint32_t));",
                  f"    for (auto& w : {t.name}_host) w = 0x3f803f80u;  // bfloat16 1.0 pairs",
                  f"    distributed::EnqueueWriteMeshBuffer(cq, {t.name}_buf, {t.name}_host, false);"]
    lines.append("")
    for cb in program.cbs:
        if cb.shares is not None:
            continue
        named = [cb, *(view for view in program.cbs if view.shares == cb.index)]  # indices on these pages
        formats = ", ".join(f"{{{c.index}, tt::DataFormat::{c.fmt.metal_name}}}" for c in named)
        sizes = "".join(f".set_page_size({c.index}, {c.page_bytes})" for c in named)
        lines.append(f"    CreateCircularBuffer(program, cores, CircularBufferConfig({cb.page_bytes * cb.pages}, "
                     f"{{{formats}}}){sizes});  // {', '.join(c.name for c in named)}")
    for s in program.semaphores:
        lines.append(f"    CreateSemaphore(program, cores, {s.initial});  // {s.name} (id {s.index})")
    lines.append("")
    for k in program.kernels:
        var = f"k_{k.name}"
        lines.append(f"    std::vector<uint32_t> {var}_ct{{{', '.join(map(str, k.compile_args))}}};")
        for t, _ in k.accessors:
            lines.append(f"    TensorAccessorArgs(*{t.name}_buf).append_to({var}_ct);")
        if k.processor.is_compute:
            lines += _cpp_unpack_to_dest(program, var)
            cfg = (f"ComputeConfig{{.math_fidelity = MathFidelity::{program.math_fidelity}, "
                   f".fp32_dest_acc_en = {'true' if program.fp32_dest_acc_en else 'false'}, "
                   f".unpack_to_dest_mode = {var}_unpack_to_dest, .compile_args = {var}_ct}}")
        else:
            cfg = (f"DataMovementConfig{{.processor = DataMovementProcessor::{k.processor.metal_name}, "
                   f".noc = NOC::{k.processor.default_noc_name}, .compile_args = {var}_ct}}")
        lines.append(f'    auto {var} = CreateKernel(program, std::string(KERNEL_DIR) + "/{kernel_file(k)}", cores, {cfg});')
        lines.append(f"    for (uint32_t y = 0; y < {rows}; y++) for (uint32_t x = 0; x < {cols}; x++) {{")
        lines.append(f"        uint32_t flat = x * {rows} + y;  // the manifest's core order (last dimension fastest)")
        lines.append("        std::vector<uint32_t> args;")
        for a in k.rt_args:
            lines.append(f"        args.push_back({_cpp_arg(a, program)});  // {a.label}")
        lines.append(f"        SetRuntimeArgs(program, {var}, CoreCoord{{x, y}}, args);")
        lines.append("    }")
        if k.common_args:
            values = ", ".join(f"static_cast<uint32_t>({_cpp_arg(a, program)})" for a in k.common_args)
            lines.append(f"    std::vector<uint32_t> {var}_common{{{values}}};")
            lines.append(f"    SetCommonRuntimeArgs(program, {var}, {var}_common);")
    lines += ["", "    distributed::MeshWorkload workload;",
              "    workload.add_program(distributed::MeshCoordinateRange(mesh->shape()), std::move(program));",
              "    distributed::EnqueueMeshWorkload(cq, workload, false);", "    distributed::Finish(cq);"]
    for t in program.tensors:
        lines.append(f"    distributed::ReadShard(cq, {t.name}_host, {t.name}_buf, distributed::MeshCoordinate(0, 0), true);")
    lines += ["    mesh->close();", "    return 0;", "}"]
    return "\n".join(lines) + "\n"


def _cpp_unpack_to_dest(program: kir.MetalProgram, var: str) -> list[str]:
    """The per-buffer unpack_to_dest_mode table: UnpackToDestFp32 where Float32 data is copied into DST."""
    lines = [f"    std::vector<UnpackToDestMode> {var}_unpack_to_dest(NUM_CIRCULAR_BUFFERS, UnpackToDestMode::Default);"]
    lines += [f"    {var}_unpack_to_dest[{i}] = UnpackToDestMode::UnpackToDestFp32;  // Float32, copied into DST"
              for i in program.unpack_to_dest_fp32]
    return lines


def _cpp_arg(arg: kir.ArgDecl, program: kir.MetalProgram) -> str:
    first = arg.values[0]
    if isinstance(first, tuple) and first[0] == "buffer_address":
        return f"{program.tensors[first[1]].name}_buf->address()"
    if isinstance(first, tuple) and first[0] in ("noc_x", "noc_y"):
        axis = "x" if first[0] == "noc_x" else "y"
        coord = f"CoreCoord{{{first[1]}, 0}}" if axis == "x" else f"CoreCoord{{0, {first[1]}}}"
        return f"static_cast<uint32_t>(mesh->worker_core_from_logical_core({coord}).{axis})"
    if len(set(arg.values)) == 1:
        return str(int(first))
    table = ", ".join(str(int(v)) for v in arg.values)
    return f"std::vector<uint32_t>{{{table}}}[flat]"


def cmake(program: kir.MetalProgram) -> str:
    return ("cmake_minimum_required(VERSION 3.22)\n"
            f"project(tilecraft_{program.name.strip('_')} CXX)\n"
            "set(CMAKE_CXX_STANDARD 20)\n"
            "find_package(TT-Metalium REQUIRED)\n"
            "add_executable(host main.cpp)\n"
            "target_link_libraries(host PUBLIC TT::Metalium)\n"
            "# kernels are compiled at run time by tt-metal from the .cpp files next to this one\n"
            "target_compile_definitions(host PRIVATE KERNEL_DIR=\"${CMAKE_CURRENT_SOURCE_DIR}\")\n")


def manifest_json(program: kir.MetalProgram, source: str | None,
                  spans: Mapping[str, Mapping[int, Span]] | None = None) -> str:
    return json.dumps(manifest(program, source, spans), indent=2) + "\n"
