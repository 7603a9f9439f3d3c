"""The compute API calls a kernel on the Tensix machine reports to the kernel emulator's trace and
sanitizer.

Why: the trace (``TC_TRACE``, tilecraft/emu/trace.py) records one event per compute API call with the
kernel's file:line; the profile, the kernel replay and the cost of each call (tilecraft/perf) read
them, and the sanitizer's checks of the API's protocol run on them. On the Tensix machine the API
is Tenstorrent's, so the machine include tree (tensix_tree.py) rewrites the calls listed here: each
gets a trailing default parameter that captures its caller's place
(``std::source_location::current()``, ``TC_CALL_SITE_PARAMS``), and its body starts with
``TC_COMPUTE_EVENT`` (tc_tensix_kernel.h), a call of the bridge's hook from each TRISC. Every TRISC
runs every API call in the kernel's order, so the MATH TRISC's calls are the kernel's sequence, once
each: they become the trace events and run the sanitizer's checks (runtime/machine_calls.cpp); the
other TRISCs' calls only say which call each TRISC is in (the deadlock report's line). An event
carries up to eight of the call's values: first the four the trace records (``args``: CB indices
and page counts; the runtime turns CB indices into page bytes as ``trace_page_bytes`` does), then
what the checks need (``operands``: tile and DST indices).

The SFPU calls (over 200 ``*_tile`` functions of ``eltwise_unary/`` and the compute API's other
headers) are found by name (sfpu_rewrites): each reports an SFPU event of one, two or three DST
tiles (by its ``idst1``/``idst2`` parameters) with the operation code of the same name
(``exp_tile`` -> ``SfpuUnary.Exp``; ``NAMED_OPERATIONS`` where the name does not say it), or a code
past the last when there is none (the cost model's default SFPU body); each ``*_tile_init`` an SFPU
init event with the unary operation's code (0 for an operation of two or three tiles). The inits of
the FPU, copy, matmul, reduce, transpose, tilize and broadcast configurations, the
reconfigurations and the broadcast forms report what the trace and the checks need
(``CALL_EVENTS``). An API call made inside another reports as part of it (only the outermost call
reports: ``ComputeCall`` in tc_tensix_kernel.h). Not reported: the Metal 2.0 ``experimental/2_0``
forms.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum
from pathlib import Path

from .codes import Bcast, Ev, Mode, SfpuBinary, SfpuTernary, SfpuUnary


@dataclass(frozen=True)
class CallEvent:
    """``function`` in ``header`` (under ``hw/inc/api``; ``LLK_CALL_EVENTS``: ``hw/ckernels/<arch>/metal``) reports ``kind`` with the C++ expressions
    ``args`` (up to four, over the function's parameters: the trace's values) and ``operands`` (up
    to four more: what the sanitizer checks, in the layout runtime/machine_calls.cpp reads per
    kind). ``params``: a regular expression the parameter list must match (to pick one overload),
    None for any; ``head``: what precedes the name (a free API function's ``ALWI void``, a member
    function's indented ``void``)."""

    header: str
    function: str
    kind: Ev
    args: tuple[str, ...] = ()
    params: str | None = None
    head: str = "ALWI void "
    operands: tuple[str, ...] = ()
    #: a second event of the same call: (kind, args, operands)
    then: tuple[Ev, tuple[str, ...], tuple[str, ...]] | None = None


#: a binary call's operands as the sanitizer reads them: the two tiles and the DST tile
_BINARY_OPERANDS = ("itile0", "itile1", "idst")
#: Fpu codes of tc_emu/runtime.h (Add, Sub, Mul) as Binary events carry them
_ADD, _SUB, _MUL = "0", "1", "2"
_FPU = {"add": _ADD, "sub": _SUB, "mul": _MUL}
#: Bcast codes (ROW, COL, SCALAR) by the API's spelling of the broadcast
_BCAST = {"rows": str(int(Bcast.ROW)), "cols": str(int(Bcast.COL)), "scalar": str(int(Bcast.SCALAR))}
#: the codes of a template's EltwiseBinaryType / BroadcastType, as C++ expressions
_FPU_OF = "({0} == EltwiseBinaryType::ELWADD ? 0 : {0} == EltwiseBinaryType::ELWSUB ? 1 : 2)"
_BCAST_OF = ("({0} == BroadcastType::ROW ? 1 : {0} == BroadcastType::COL ? 2 : "
             "{0} == BroadcastType::SCALAR ? 3 : 0)")
#: which CB a two-operand reconfig gives SrcA and SrcB (SrcOrder::Reverse swaps them)
_SRCA_OF, _SRCB_OF = ("(src_order == SrcOrder::Reverse ? {1} : {0})", "(src_order == SrcOrder::Reverse ? {0} : {1})")
#: an FPU binary init's parameter as the checks read it: (acc_to_dest << 8) | (Fpu << 4) | Bcast
_BINARY_PARAM = "((std::uint32_t({acc}) << 8) | ({op} << 4) | {bcast})"
#: a reduce's parameter: (tc::Pool << 4) | RDim (PoolType::MIN counts as a sum)
_REDUCE_PARAM = ("(((reduce_type == PoolType::MAX ? 2u : reduce_type == PoolType::AVG ? 1u : 0u) << 4) | "
                 "static_cast<std::uint32_t>(reduce_dim))")
#: pack_untilize's block as the checks follow it: (full_ct_dim << 16) | block_ct_dim
_UNTILIZE_BLOCK = "((full_ct_dim << 16) | block_ct_dim)"
#: what an INIT event does (runtime/machine_calls.cpp: InitKind): set what the unpacker and math
#: are initialised for; reduce_init (that and the packer's reduce mask); reduce_uninit
_SET_MODE, _REDUCE_INIT, _REDUCE_UNINIT = "0", "1", "2"
#: a packer RECONFIG's untilize operand that keeps the packer's untilize block (machine_calls.cpp: kKeepUntilize)
KEEP_UNTILIZE = "0xFFFFFFFFu"


def _init(header: str, function: str, mode: Mode | str, *cbs: str, param: str = "0", what: str = _SET_MODE,
          params: str | None = None) -> CallEvent:
    """An init (or uninit: ``Mode.NONE``) reporting what it sets up (the mode, a C++
    expression where a parameter selects it, and its CBs), then the configuration it sets: the
    mode's parameter (the op, broadcast, reduce type...) and what the init does."""
    code = mode if isinstance(mode, str) else str(int(mode))
    return CallEvent(header, function, Ev.INIT, (code, *cbs), params=params, operands=(param, what))


def _source(old: str | None, source: int) -> tuple[str, ...]:
    """An unpacker reconfig's operands: the source register, the old CB and whether there is one."""
    return (str(source), old or "0", "0" if old is None else "1")


def _reconfig(function: str, params: str, *cbs: str, olds: tuple[str, ...] = (), source: int = 0) -> CallEvent:
    """An unpacker's reconfiguration reporting the new CB and register 0 (an unpacker's),
    then which source register (``source``: 0 SrcA, 1 SrcB) and the old CB of the (old, new) form
    (``olds``); a two-operand one reports SrcA's, then SrcB's."""
    old = (*olds, None, None)
    srcb = (Ev.RECONFIG, (cbs[1], "0"), _source(old[1], 1)) if len(cbs) == 2 else None
    return CallEvent("compute/reconfig_data_format.h", function, Ev.RECONFIG, (cbs[0], "0"),
                     params=params, operands=_source(old[0], source), then=srcb)


def _pack_reconfig(header: str, function: str, params: str | None, cb: str, old: str | None = None,
                   untilize: str = KEEP_UNTILIZE, then: tuple[Ev, tuple[str, ...], tuple[str, ...]] | None = None
                   ) -> CallEvent:
    """The packer's reconfiguration (register 1) for CB ``cb``, from ``old`` in the (old, new) form,
    with the packer's untilize block (``KEEP_UNTILIZE``: as it is)."""
    return CallEvent(header, function, Ev.RECONFIG, (cb, "1"), params=params,
                     operands=("0", old or "0", "0" if old is None else "1", untilize), then=then)

#: the CB calls of the object API a compute kernel makes (DataflowBuffer, CircularBuffer): the
#: member, its parameter and the member holding the CB index
_OBJECT_CB_CALLS = (("dataflow/dataflow_buffer.h", "uint16_t num_entries", "logical_dfb_id_"),
                    ("dataflow/circular_buffer.h", "int32_t num_pages", "cb_id_"))
_CB_KINDS = {"wait_front": Ev.CB_WAIT, "pop_front": Ev.CB_POP, "reserve_back": Ev.CB_RESERVE, "push_back": Ev.CB_PUSH}

CALL_EVENTS: tuple[CallEvent, ...] = (
    *(CallEvent("compute/cb_api.h", f"cb_{name}", kind, ("cbid", "ntiles")) for name, kind in _CB_KINDS.items()),
    *(CallEvent(header, name, kind, (cb, param.split()[-1]), params=param, head="    void ")
      for header, param, cb in _OBJECT_CB_CALLS for name, kind in _CB_KINDS.items()),
    CallEvent("compute/reg_api.h", "tile_regs_acquire", params="", kind=Ev.ACQUIRE),
    CallEvent("compute/reg_api.h", "tile_regs_commit", params="", kind=Ev.COMMIT),
    CallEvent("compute/reg_api.h", "tile_regs_wait", params="", kind=Ev.REGS_WAIT),
    CallEvent("compute/reg_api.h", "tile_regs_release", params="", kind=Ev.RELEASE),
    CallEvent("compute/compute_kernel_hw_startup.h", "compute_kernel_hw_startup", Ev.HW_STARTUP,
              (_SRCA_OF.format("icb0", "icb1"), _SRCB_OF.format("icb0", "icb1"), "ocb"),
              params=r"uint32_t icb0, uint32_t icb1, uint32_t ocb"),
    CallEvent("compute/tile_move_copy.h", "copy_tile", Ev.COPY, ("in_cb_id",),
              operands=("in_tile_index", "dst_tile_index")),
    CallEvent("compute/transpose.h", "transpose_tile", Ev.TRANSPOSE, ("icb",), operands=("itile", "idst")),
    *(CallEvent("compute/eltwise_binary.h", f"{name}_tiles", Ev.BINARY, ("icb0", "icb1", code, "0"),
                operands=_BINARY_OPERANDS) for name, code in (("add", _ADD), ("sub", _SUB), ("mul", _MUL))),
    CallEvent("compute/matmul.h", "matmul_tiles", Ev.MATMUL, ("in0_cb_id", "in1_cb_id", "1", "1"),
              operands=("in0_tile_index", "in1_tile_index", "idst", "1")),
    CallEvent("compute/matmul.h", "matmul_block", Ev.MATMUL, ("in0_cb_id", "in1_cb_id", "ct_dim", "rt_dim"),
              operands=("in0_tile_index", "in1_tile_index", "idst", "kt_dim")),
    CallEvent("compute/reduce.h", "reduce_tile", Ev.REDUCE, ("icb", "icb_scaler", "static_cast<std::uint32_t>(reduce_type)"),
              operands=("itile", "itile_scaler", "idst", _REDUCE_PARAM)),
    CallEvent("compute/pack.h", "pack_tile", Ev.PACK, ("icb",),
              operands=("ifrom_dst", "output_tile_index", "out_of_order_output")),
    CallEvent("compute/tilize.h", "tilize_block", Ev.TILIZE, ("icb", "block", "ocb")),
    CallEvent("compute/untilize.h", "untilize_block", Ev.UNTILIZE, ("icb", "full_ct_dim", "ocb", "0")),
    CallEvent("compute/pack_untilize.h", "pack_untilize_block", Ev.UNTILIZE, ("icb", "block_rt_dim", "ocb", "1"),
              operands=(_UNTILIZE_BLOCK,)),
    # broadcasts
    CallEvent("compute/bcast.h", "unary_bcast", Ev.UNARY_BCAST, ("icb",),
              operands=("in_tile_index", "dst_tile_index", _BCAST_OF.format("bcast_type"))),
    *(CallEvent("compute/bcast.h", f"{op}_tiles_bcast_{form}", Ev.BINARY, ("icb0", "icb1", _FPU[op], _BCAST[form]),
                operands=_BINARY_OPERANDS) for op in _FPU for form in _BCAST),
    CallEvent("compute/bcast.h", "any_tiles_bcast", Ev.BINARY,
              ("icb0", "icb1", _FPU_OF.format("tBcastOp"), _BCAST_OF.format("tBcastDim")), operands=_BINARY_OPERANDS),
    *(CallEvent("compute/bcast.h", f"{op}_tiles_bcast", Ev.BINARY, ("icb0", "icb1", _FPU[op], _BCAST_OF.format("tBcastDim")),
                operands=_BINARY_OPERANDS) for op in _FPU),
    # inits (an init another one calls reports as the outer one: add_init -> binary_tiles_init)
    _init("compute/tile_move_copy.h", "copy_init", f"(transpose ? {int(Mode.TRANSPOSE)} : {int(Mode.COPY)})", "cbid"),
    _init("compute/eltwise_binary.h", "binary_tiles_init", Mode.BINARY, "icb0", "icb1",
          param=_BINARY_PARAM.format(acc="acc_to_dest", op=_FPU_OF.format("eltwise_binary_type"), bcast=0)),
    *(_init("compute/eltwise_binary.h", f"{op}_init", Mode.BINARY, "icb0", "icb1",
            param=_BINARY_PARAM.format(acc="acc_to_dest", op=code, bcast=0)) for op, code in _FPU.items()),
    _init("compute/eltwise_binary.h", "binary_reuse_dest_init", Mode.REUSE_DEST, "icb0",
          param=f"({_FPU_OF.format('eltwise_binary_type')} << 4) | static_cast<std::uint32_t>(reuse_dest)"),
    *(_init("compute/eltwise_binary.h", f"{op}_reuse_dest_init", Mode.REUSE_DEST, "icb",
            param=f"({code} << 4) | static_cast<std::uint32_t>(reuse_dest)") for op, code in _FPU.items()),
    _init("compute/bcast.h", "unary_bcast_init", Mode.UNARY_BCAST, "icb", param=_BCAST_OF.format("bcast_type")),
    _init("compute/bcast.h", "unary_bcast_uninit", Mode.NONE),
    _init("compute/bcast.h", "bcast_init", Mode.BINARY_BCAST, "icb0", "icb1",
          param=_BINARY_PARAM.format(acc=0, op=_FPU_OF.format("tBcastOp"), bcast=_BCAST_OF.format("tBcastDim"))),
    *(_init("compute/bcast.h", f"{op}_bcast_{form}_init", Mode.BINARY_BCAST, "icb0", "icb1",
            param=_BINARY_PARAM.format(acc=0, op=_FPU[op], bcast=_BCAST[form])) for op in _FPU for form in _BCAST),
    _init("compute/matmul.h", "matmul_init", Mode.MATMUL, "in0_cb_id", "in1_cb_id"),
    _init("compute/matmul.h", "matmul_block_init", Mode.MATMUL, "in0_cb_id", "in1_cb_id"),
    _init("compute/transpose.h", "transpose_init", Mode.TRANSPOSE, "icb"),
    _init("compute/tilize.h", "tilize_init", Mode.TILIZE, "icb", "ocb"),
    # SrcA from old_icb's format to new_icb's (only where they differ), then the tilize init
    CallEvent("compute/tilize.h", "tilize_init_short_with_dt", Ev.RECONFIG, ("new_icb", "0"),
              operands=_source("old_icb", 0),
              then=(Ev.INIT, (str(int(Mode.TILIZE)), "new_icb", "ocb"), ("0", _SET_MODE))),
    _init("compute/tilize.h", "tilize_uninit", Mode.NONE),
    _init("compute/untilize.h", "untilize_init", Mode.UNTILIZE, "icb"),
    _init("compute/untilize.h", "untilize_uninit", Mode.NONE),
    # reduce_init reports its init twice (its own event, then the mode's), as the cost model counts it
    CallEvent("compute/reduce.h", "reduce_init", Ev.INIT, (str(int(Mode.REDUCE)), "icb", "icb_scaler"),
              operands=(_REDUCE_PARAM, _REDUCE_INIT),
              then=(Ev.INIT, (str(int(Mode.REDUCE)), "icb", "icb_scaler"), (_REDUCE_PARAM, _REDUCE_INIT))),
    _init("compute/reduce.h", "reduce_uninit", Mode.NONE, what=_REDUCE_UNINIT),
    # pack_untilize: the packer's format for the output CB and its untilize block; the full init
    # also sets up the unpacker and math (a datacopy)
    _pack_reconfig("compute/pack_untilize.h", "pack_untilize_init", None, "ocb", untilize=_UNTILIZE_BLOCK,
                   then=(Ev.INIT, (str(int(Mode.PACK_UNTILIZE)), "icb", "ocb"), (_UNTILIZE_BLOCK, _SET_MODE))),
    _pack_reconfig("compute/pack_untilize.h", "pack_untilize_dest_init", None, "ocb", untilize=_UNTILIZE_BLOCK),
    _pack_reconfig("compute/pack_untilize.h", "pack_untilize_uninit", None, "ocb", untilize="0"),
    # reconfigurations
    _reconfig("reconfig_data_format", r"const uint32_t icb0_new_operand, const uint32_t icb1_new_operand",
              _SRCA_OF.format("icb0_new_operand", "icb1_new_operand"),
              _SRCB_OF.format("icb0_new_operand", "icb1_new_operand")),
    _reconfig("reconfig_data_format", r"\s*const uint32_t icb0_old_operand,\s*const uint32_t icb0_new_operand,"
              r"\s*const uint32_t icb1_old_operand,\s*const uint32_t icb1_new_operand",
              _SRCA_OF.format("icb0_new_operand", "icb1_new_operand"),
              _SRCB_OF.format("icb0_new_operand", "icb1_new_operand"),
              olds=(_SRCA_OF.format("icb0_old_operand", "icb1_old_operand"),
                    _SRCB_OF.format("icb0_old_operand", "icb1_old_operand"))),
    *(_reconfig(f"reconfig_data_format_{src}", rf"const uint32_t {src}_new_operand", f"{src}_new_operand",
                source=source) for source, src in enumerate(("srca", "srcb"))),
    *(_reconfig(f"reconfig_data_format_{src}", rf"const uint32_t {src}_old_operand, const uint32_t {src}_new_operand",
                f"{src}_new_operand", olds=(f"{src}_old_operand",), source=source)
      for source, src in enumerate(("srca", "srcb"))),
    _pack_reconfig("compute/reconfig_data_format.h", "pack_reconfig_data_format", r"const uint32_t new_cb_id",
                   "new_cb_id"),
    _pack_reconfig("compute/reconfig_data_format.h", "pack_reconfig_data_format",
                   r"const uint32_t old_cb_id, const uint32_t new_cb_id", "new_cb_id", old="old_cb_id"),
)


#: the LLK's own inits a kernel may call directly (kernel_lib's eltwise chain initialises a
#: broadcast binary with ``llk_math_eltwise_binary_init`` and then calls ``add_tiles_bcast``), under
#: ``hw/ckernels/<arch>/metal``: each reports the init it makes. Inside an API init they are not
#: the outermost call.
LLK_CALL_EVENTS: tuple[CallEvent, ...] = (
    CallEvent("llk_api/llk_math_binary_api.h", "llk_math_eltwise_binary_init", Ev.INIT,
              (f"(src_b_bcast_type == BroadcastType::NONE ? {int(Mode.BINARY)} : {int(Mode.BINARY_BCAST)})",
               "operand_A", "operand_B"),
              params=r"\s*const std::uint32_t operand_A,\s*\[\[maybe_unused\]\] const std::uint32_t operand_B,"
                     r"\s*const std::uint32_t acc_to_dest = 0",
              head="inline void ",
              operands=(_BINARY_PARAM.format(acc="acc_to_dest != 0", op=_FPU_OF.format("eltwise_binary_type"),
                                             bcast=_BCAST_OF.format("src_b_bcast_type")), _SET_MODE)),
)


def pattern(event: CallEvent) -> str:
    """The definition's head: ``ALWI void NAME(PARAMS) {`` (groups: the head up to the parameters,
    the parameters), the parameters without parentheses of their own."""
    params = event.params if event.params is not None else r"[^()]*(?:\(\)[^()]*)?"
    return rf"^({event.head}{event.function}\()\s*({params})\s*\)\s*\{{"


def _event(kind: Ev, function: str, values: tuple[str, ...], then: bool = False) -> str:
    """The ``TC_COMPUTE_EVENT`` statement of a call (``TC_COMPUTE_EVENT_THEN``: a second event of
    the same call): its kind, name and values (each a uint32_t)."""
    macro = "TC_COMPUTE_EVENT_THEN" if then else "TC_COMPUTE_EVENT"
    return (f"\n    {macro}({int(kind)}, \"{function}\""
            + "".join(f", std::uint32_t({value})" for value in values) + ");")


def replacement(event: CallEvent) -> str:
    """A ``str.format`` template over pattern()'s groups: the call-site parameter appended, the
    event first in the body."""
    head = "{0}TC_CALL_SITE_PARAMS) {{" if event.params == "" else "{0}{1}, TC_CALL_SITE_PARAMS) {{"
    body = _event(event.kind, event.function, (*_traced(event.args), *event.operands))
    if event.then is not None:
        kind, args, operands = event.then
        body += _event(kind, event.function, (*_traced(args), *operands), then=True)
    return head + body.replace("{", "{{").replace("}", "}}")


def _traced(args: tuple[str, ...]) -> tuple[str, ...]:
    """An event's four trace values: ``args``, then zeros."""
    return (*args, *("0",) * (4 - len(args)))


#: calls that forward to a reported one: (header, pattern, str.format template of its groups). The
#: two-CB ``compute_kernel_hw_startup`` calls the three-CB one, which reports; it passes its own
#: caller's place on, so the event names the kernel's line.
FORWARDS = (("compute/compute_kernel_hw_startup.h",
             r"^(ALWI void compute_kernel_hw_startup\(uint32_t icb0, uint32_t ocb)\) \{"
             r"(\s*LLK_SAN_FUNCTION\(\);\s*compute_kernel_hw_startup\(icb0, icb0, ocb)\);",
             "{0}, TC_CALL_SITE_PARAMS) {{{1}, tc_call_site);"),)

#: an absent DST operand of an SFPU event (runtime/machine_calls.cpp: kNoDst)
NO_DST = "0xFFFFFFFFu"

#: an SFPU call's definition head: ``ALWI void NAME_tile(PARAMS) {`` (parameters with at most one
#: level of parentheses of their own: ``= (int)VectorMode::RC``)
_SFPU_HEAD = re.compile(r"^(ALWI void (\w+_tile)\()([^()]*(?:\([^()]*\)[^()]*)*)\)\s*\{", re.M)
#: the compute API's headers whose ``*_tile`` functions are not SFPU calls (CALL_EVENTS reports them)
_NOT_SFPU = frozenset(event.function for event in CALL_EVENTS)


#: the SFPU calls (and inits) whose operation their name does not say: the operation's code they
#: report (``negative_tile`` is Neg, ``mul_unary_tile`` MulScalar, ``rounding_op_tile_init`` Floor's init)
NAMED_OPERATIONS: dict[str, SfpuUnary | SfpuBinary] = {
    "add_unary_tile": SfpuUnary.AddScalar, "sub_unary_tile": SfpuUnary.SubScalar,
    "mul_unary_tile": SfpuUnary.MulScalar, "div_unary_tile": SfpuUnary.DivScalar,
    "rsub_unary_tile": SfpuUnary.RsubScalar, "rsub_tile": SfpuUnary.RsubScalar, "rsub_tile_init": SfpuUnary.RsubScalar,
    "binop_with_scalar_tile_init": SfpuUnary.AddScalar, "fill_tile_bitcast": SfpuUnary.FillBits,
    "negative_tile": SfpuUnary.Neg, "negative_tile_init": SfpuUnary.Neg, "rounding_op_tile_init": SfpuUnary.Floor,
    "power_binary_tile": SfpuBinary.Pow,
}


def operation_code(function: str, ops: type[Enum]) -> int:
    """The code of the SFPU operation ``function`` names in ``ops``: NAMED_OPERATIONS', else by name
    (``log_with_base_tile`` -> ``LogWithBase``, ``div_binary_tile`` -> ``Div``), or ``len(ops)``: none."""
    named = NAMED_OPERATIONS.get(function)
    if isinstance(named, ops):
        return named.value
    codes = {op.name.lower(): op.value for op in ops}
    key = re.sub(r"(^binary_|_binary$)", "", function.removesuffix("_init").removesuffix("_tile")).replace("_", "")
    return codes.get(key, len(codes))


#: an SFPU call's DST operands: its integer parameters named for DST (``idst``, ``idst0``, ``odst``, ...)
_DST_PARAM = re.compile(r"\b(?:std::)?u?int32_t\s+(\w*dst\w*)\b")


#: the template parameter list right before a definition's head (one level of nested ``<>``)
_TEMPLATE_BEFORE = re.compile(r"template\s*<((?:[^<>]|<[^<>]*>)*)>\s*$")
#: an SFPU event's format operand where the call names none (tc_emu/sfpu_ops.h: kNoFormat)
NO_FORMAT = "255u"


def _dst_format(match: re.Match[str]) -> str:
    """The DataFormat an SFPU call is told DST holds (its ``DataFormat`` template parameter), as a
    C++ expression, or ``NO_FORMAT``."""
    template = _TEMPLATE_BEFORE.search(match.string, 0, match.start())
    name = re.search(r"\bDataFormat\s+(\w+)", template.group(1)) if template else None
    return f"static_cast<std::uint32_t>({name.group(1)})" if name else NO_FORMAT


def _sfpu_head(match: re.Match[str]) -> str:
    """The SFPU call's head with the call-site parameter, and its event: the operation's code, then
    up to three DST tile indices (``NO_DST`` where it has fewer) for math's DST checks (none for a
    call on the packer's thread: ``exp_packthread_tile`` runs while the packer owns DST), then the
    data format it is told DST holds (E5413)."""
    head, function, params = match.groups()
    kind, ops = ((Ev.SFPU_TERNARY, SfpuTernary) if re.search(r"\bidst2\b", params)
                 else (Ev.SFPU_BINARY, SfpuBinary) if re.search(r"\bidst1\b", params) else (Ev.SFPU_UNARY, SfpuUnary))
    dsts = [] if "packthread" in function else _DST_PARAM.findall(params)[:3]
    values = (*_traced((str(operation_code(function, ops)),)), *dsts, *(NO_DST,) * (3 - len(dsts)), _dst_format(match))
    return _with_site(head, params) + _event(kind, function, values)


def _with_site(head: str, params: str) -> str:
    """A definition's head (up to its parameters) with the call-site parameter appended."""
    params = params.rstrip()
    return f"{head}{params}{', ' if params else ''}TC_CALL_SITE_PARAMS) {{"


#: an SFPU init's definition head: ``ALWI void NAME_tile_init(PARAMS) {``
_SFPU_INIT_HEAD = re.compile(r"^(ALWI void (\w+)_tile_init\()([^()]*(?:\([^()]*\)[^()]*)*)\)\s*\{", re.M)


def _sfpu_init_head(match: re.Match[str], multi_tile: set[str]) -> str:
    """An SFPU init reports its unary operation's code, 0 for an operation of two or three DST
    tiles (``multi_tile``: the stems whose ``*_tile`` has ``idst1``)."""
    head, stem, params = match.groups()
    code = 0 if stem in multi_tile else operation_code(f"{stem}_tile_init", SfpuUnary)
    return _with_site(head, params) + _event(Ev.SFPU_INIT, f"{stem}_tile_init", _traced((str(code),)))


def sfpu_rewrites(compute: Path) -> list[str]:
    """Makes every SFPU ``*_tile`` call and ``*_tile_init`` of the compute API under ``compute``
    (``hw/inc/api/compute``) report itself; the PATCHES lines."""
    log = []
    for path in sorted([*compute.glob("*.h"), *compute.glob("eltwise_unary/*.h")]):
        text = path.read_text(errors="surrogateescape")
        count = 0
        multi_tile = {m.group(2).removesuffix("_tile") for m in _SFPU_HEAD.finditer(text)
                      if re.search(r"\bidst1\b", m.group(3))}

        def one(match: re.Match[str]) -> str:
            nonlocal count
            if match.group(2) in _NOT_SFPU:
                return match.group(0)
            count += 1
            return _sfpu_head(match)

        def init(match: re.Match[str]) -> str:
            nonlocal count
            count += 1
            return _sfpu_init_head(match, multi_tile)

        new = _SFPU_INIT_HEAD.sub(init, _SFPU_HEAD.sub(one, text))
        if count:
            path.write_text(new, errors="surrogateescape")
            log.append(f"{path.relative_to(compute.parent.parent.parent.parent)}: {count} SFPU call(s) and init(s) "
                       "report a trace event with their caller's file:line")
    return log
