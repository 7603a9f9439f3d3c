"""Metal 2.0 named bindings of one kernel: what the JIT's generated headers give it, as C++.

A Metal 2.0 kernel names its arguments and buffers instead of indexing them: ``get_arg(args::Ht)``,
``DataflowBuffer in(dfb::in0)``, ``TensorAccessor(tensor::src)``. The constants behind those names
are generated per kernel by the JIT from the C++ host's schema (``kernel_args_generated.h`` and
``kernel_bindings_generated.h``); the 0.81.1 Python ``KernelDescriptor`` has no such schema, so
tilecraft's ``ttnn.KernelBindings`` extension describes it and :class:`NamedBindings` is its
resolved form, placed into the kernel's generated ``kernel_bindings_generated.h`` (tensix_compute.py,
tensix_dataflow.py).

The placement follows the real schema: a named runtime arg is ``RtaArg<uint32_t>{byte offset}``
from the start of the runtime args (the named section comes first, varargs after it, read with
``get_vararg(i)``); common runtime args likewise (``CrtaArg``, ``get_common_vararg``); a named
compile-time arg is ``CtaVal<uint32_t>{value}``; a DFB is a ``DFBBindingToken`` holding its CB
index; a tensor is a ``TensorBindingToken<CTA offset, address CRTA byte offset>`` whose accessor
args sit in the compile-time args at the CTA offset and whose address (then its accessor's common
runtime args) in the common runtime args at the byte offset.

Beyond those, 0.81.1's generator (``write_kernel_bindings_generated_header`` in the wheel's
libtt_metal.so, whose format strings these follow) emits: a tensor sequence as a ``std::tuple`` of
its tensors' tokens (``constexpr auto inputs = std::make_tuple(...)``, for
``make_tensor_accessors``); ``tensor::get_token_if_present<"name">()``, a pointer to the named
token or a null ``NullTensorBindingToken`` pointer (``dfb::`` likewise); a scratchpad as a ``ScratchpadBindingToken{CRTA
word index of its base address, size in bytes}`` (with ``api/scratchpad.h``); a prefetcher pipe as
a ``PrefetcherPipeBindingToken{id}``; the unnamed compile-time args as
``get_compile_time_vararg<i>()`` / ``get_compile_time_vararg(i)`` (``kernel_compile_time_args[i]``,
bounds-checked against their count). They are emitted only when asked for.
"""

from __future__ import annotations

from dataclasses import dataclass


#: how the vararg helpers take and pass their caller's location (NamedBindings.header): not at all
#: (the JIT's helpers, for the real API on a TRISC)
NO_LOCATION = ("", "")


@dataclass(frozen=True)
class TensorBinding:
    name: str
    cta_offset: int  # index of the tensor's first TensorAccessorArgs word in the compile-time args
    addr_crta_offset: int  # byte offset of its base-address word in the common runtime args


@dataclass(frozen=True)
class ScratchpadBinding:
    name: str
    crta_offset: int  # word index of its base-address slot in the common runtime args
    size_in_bytes: int


@dataclass(frozen=True)
class NamedBindings:
    """A kernel's named arguments and bindings, resolved to positions."""

    runtime: tuple[str, ...] = ()  # the leading runtime args, in order
    common: tuple[str, ...] = ()  # the leading common runtime args, in order
    compile_time: tuple[tuple[str, int], ...] = ()
    dfbs: tuple[tuple[str, int], ...] = ()  # name -> CB index
    tensors: tuple[TensorBinding, ...] = ()
    semaphores: tuple[tuple[str, int], ...] = ()  # name -> semaphore id
    tensor_sequences: tuple[tuple[str, tuple[str, ...]], ...] = ()  # name -> its tensors (bound above), in order
    token_lookup: bool = False  # whether tensor::/dfb::get_token_if_present are emitted (the real API's headers)
    scratchpads: tuple[ScratchpadBinding, ...] = ()
    pipes: tuple[tuple[str, int], ...] = ()  # name -> prefetcher pipe id
    compile_time_varargs: int = 0  # how many unnamed compile-time args get_compile_time_vararg reads

    def header(self, location: tuple[str, str] = NO_LOCATION) -> str:
        """C++ for the kernel's generated header: the JIT's two generated headers in one.
        ``location``: the parameter by which the vararg helpers take their caller's source location
        and the argument that passes it on to get_arg_val (NO_LOCATION: the JIT's helpers, for the
        real API on a TRISC; the real dataflow API's call site: tensix_dataflow.py), so a finding
        names the kernel's line."""
        param, passed = location
        lines = ["// Metal 2.0 bindings (tilecraft's ttnn.KernelBindings; the JIT's kernel_args_generated.h",
                 "// and kernel_bindings_generated.h)",
                 '#include "experimental/kernel_args.h"', '#include "api/dataflow/dfb_binding_token.h"',
                 '#include "api/tensor/tensor_binding_token.h"']
        # as the JIT's: a kernel with DFB bindings gets the DataflowBuffer class, one with semaphore
        # bindings the token type (0.81.1's genfiles)
        lines += ['#include "api/dataflow/dataflow_buffer.h"'] if self.dfbs else []
        lines += ['#include "api/dataflow/semaphore_binding_token.h"'] if self.semaphores else []
        lines += ['#include "api/scratchpad.h"'] if self.scratchpads else []
        lines += ['#include "api/dataflow/prefetcher_pipe_binding_token.h"'] if self.pipes else []
        lines += ['#include <tuple>'] if self.tensor_sequences else []
        lines += ['#include "internal/template_string.h"'] if self.token_lookup else []
        lines += ["namespace args {"]
        lines += [f"constexpr experimental::RtaArg<uint32_t> {n}{{{4 * i}u}};" for i, n in enumerate(self.runtime)]
        lines += [f"constexpr experimental::CrtaArg<uint32_t> {n}{{{4 * i}u}};" for i, n in enumerate(self.common)]
        lines += [f"constexpr experimental::CtaVal<uint32_t> {n}{{{int(v) & 0xFFFFFFFF}u}};"
                  for n, v in self.compile_time]
        lines += ["}  // namespace args",
                  f"FORCE_INLINE uint32_t get_vararg(uint32_t idx{param}) {{",
                  f"    return get_arg_val<uint32_t>(int({len(self.runtime)}u + idx){passed});", "}",
                  f"FORCE_INLINE uint32_t get_common_vararg(uint32_t idx{param}) {{",
                  f"    return get_common_arg_val<uint32_t>(int({len(self.common)}u + idx){passed});", "}",
                  *self._compile_time_varargs(),
                  "namespace dfb {"]
        lines += [f"constexpr DFBBindingToken<> {n}{{{index}}};" for n, index in self.dfbs]
        # the wheel has no null DFB token: an absent DFB's null pointer is of the plain token's type
        lines += _token_lookup([n for n, _ in self.dfbs], "DFBBindingToken<>") if self.token_lookup else []
        lines += ["}  // namespace dfb", "namespace tensor {"]
        for t in self.tensors:
            lines.append(f"using {t.name}_t = tensor_accessor::TensorBindingToken<{t.cta_offset}u, "
                         f"{t.addr_crta_offset}u>;")
            lines.append(f"constexpr {t.name}_t {t.name}{{binding_details::LLKMetadata{{}}}};")
        lines += [f"constexpr auto {name} = std::make_tuple({', '.join(tensors)});"
                  for name, tensors in self.tensor_sequences]
        lines += _token_lookup([t.name for t in self.tensors], "::tensor_accessor::NullTensorBindingToken") \
            if self.token_lookup else []
        lines.append("}  // namespace tensor")
        if self.scratchpads:
            lines += ["namespace scratch {", *(f"constexpr ScratchpadBindingToken {s.name}{{{s.crta_offset}u, "
                                               f"{s.size_in_bytes}u}};" for s in self.scratchpads),
                      "}  // namespace scratch"]
        if self.pipes:  # the host's unistd.h declares ::pipe(), the device's libc does not: renamed
            lines += ["#define pipe tc_pipe", "namespace pipe {", *(f"constexpr PrefetcherPipeBindingToken {n}{{{int(i)}u}};"
                                            for n, i in self.pipes), "}  // namespace pipe"]
        if self.semaphores:  # a Wormhole/Blackhole data-movement semaphore is always LOCAL_NONATOMIC
            lines += ["namespace sem {", *(f"constexpr ::SemaphoreBindingToken {n}{{{int(i)}u, "
                                           "::SemScope::LOCAL_NONATOMIC};" for n, i in self.semaphores),
                      "}  // namespace sem"]
        return "\n".join(lines) + "\n"

    def _compile_time_varargs(self) -> list[str]:
        """The generator's compile-time vararg readers (only when there are such args)."""
        if not self.compile_time_varargs:
            return []
        return ["FORCE_INLINE constexpr uint32_t get_num_compile_time_varargs() {",
                f"    return {self.compile_time_varargs}u;", "}", "template <uint32_t idx>",
                "FORCE_INLINE constexpr uint32_t get_compile_time_vararg() {",
                '    static_assert(idx < get_num_compile_time_varargs(), "Compile-time vararg index out of range");',
                "    return kernel_compile_time_args[idx];", "}",
                "inline void assert_compile_time_vararg_index_out_of_range() { ASSERT(false); }",
                "FORCE_INLINE constexpr uint32_t get_compile_time_vararg(uint32_t idx) {",
                "    if (idx >= get_num_compile_time_varargs()) {", "        assert_compile_time_vararg_index_out_of_range();",
                "    }", "    return kernel_compile_time_args[idx];", "}"]


def _token_lookup(names: list[str], null_type: str) -> list[str]:
    """``get_token_if_present<"name">()`` over a namespace's ``names``: the named token, else a null
    pointer of ``null_type`` (an optional binding's kernel compiles either way)."""
    lines = [f"using null_token_ptr_t = const {null_type}*;", "template <::internal::TemplateString name>",
             "constexpr auto get_token_if_present() {"]
    for i, name in enumerate(names):
        lines += [f'    {"if" if i == 0 else "} else if"} constexpr (name == "{name}") {{', f"        return &{name};"]
    return lines + ["    } else {" if names else "    {", "        return null_token_ptr_t{nullptr};", "    }", "}"]
