"""What ttnn 0.81.1's program factories pass particular compute kernels beyond the census's generic build.

The compute census (wheel_compute_compile.py) builds every kernel with generic inputs: bfloat16 CBs,
DEST in fp16_b, HiFi4, compile-time args of 2, and the defines its trigger words select
(wheel_compute_variants.FACTORY_DEFINES). Some kernels only compile with what their own factory
sets: a define whose value is a format or a rounding mode, a DEST in fp32 (an API that moves
32-bit DEST words asserts it), integer CBs (``mul_int`` asserts an integer format), a flag among
the compile-time args, an API that exists only on Blackhole. ``FACTORIES`` lists those per kernel
(its path under ``ttnn/operations``), with where the values come from: the factory's source where
the wheel or tt-metal's public tree has it (read for the values only), else the kernel's own
comments and assertions. A kernel with several define combinations in its factory gets each.
"""

from __future__ import annotations

from dataclasses import dataclass

from benchmarks.wheel_compute_variants import Defines

#: tt-metal's DataFormat values the entries use (tilecraft/emu/tensor_bytes.FORMAT_CODES)
FLOAT32, INT32 = 0, 8
#: 0xFF7F0000: the fp32 bits of the lowest finite bfloat16, which the topk route factory passes
LOWEST_BF16_BITS = 0xFF7F0000


@dataclass(frozen=True)
class Factory:
    """A kernel's factory inputs where they differ from the generic build, and their source."""

    source: str
    #: each define combination the factory passes (before the trigger defines, which fill the rest)
    combinations: tuple[tuple[str, Defines], ...] = ()
    fp32_dest_acc: bool = False
    #: the data format of every CB (None: the generic bfloat16)
    cb_format: int | None = None
    #: positional compile-time args that differ from the generic value: {index: value}
    args: tuple[tuple[int, int], ...] = ()
    #: named compile-time args (and Metal 2.0 ``args::`` bindings) that differ from the generic value
    named: tuple[tuple[str, int], ...] = ()
    #: the architecture whose compute API the kernel is written against
    arch: str = "wormhole"
    #: the factory's compiler_include_paths (under ``ttnn/operations``)
    include_dirs: tuple[str, ...] = ()
    #: how many positional compile-time args the factory passes (None: the census's generic count),
    #: for a kernel that asserts the count (wheel_dm_factories.py)
    arg_count: int | None = None


def tile_bytes(data_format: int) -> int:
    """A 32x32 tile's bytes in a 32-bit or a 16-bit format (the factories' CB formats here)."""
    return 4096 if data_format in (FLOAT32, INT32) else 2048


def enum_args(positions: str, values: dict[str, int]) -> tuple[tuple[int, int], ...]:
    """Positional args laid out by a kernel's enum of arg positions (``positions``, its enumerators
    in order): each ``CB_*`` a CB index of its own (from 0, as a factory allocates them), the
    others 1 (one tile, one head: a consistent smallest geometry) unless ``values`` says."""
    names = positions.split()
    cbs = [name for name in names if name.startswith("CB_")]
    return tuple((i, cbs.index(name) if name in cbs else values.get(name, 1)) for i, name in enumerate(names))


#: sparse_sdpa_msa_common.hpp's compute_ct enum (the arg positions of sparse_sdpa_msa_compute.cpp)
_MSA_COMPUTE_CT = ("H DHT VDHT SKT SCALE_FP32 CB_Q_RM CB_Q_IN CB_K_IN CB_V_IN CB_SCALE CB_QK_IM CB_MAX_A CB_MAX_B "
                   "CB_SUM_A CB_SUM_B CB_OUT_A CB_OUT_B CB_CORR CB_OUT_IM CB_OUT_RM CB_CTRL CB_COL_IDENTITY "
                   "CB_RECIP_SCRATCH QSB CAUSAL_MASK_ENABLED CB_NEGINF CB_VMASK KV_CACHE_SLOTS CB_K_CACHE CB_V_CACHE "
                   "CB_SLOT")

#: sparse_sdpa_common.hpp's compute_ct_arg enum (the arg positions of sparse_sdpa_compute.cpp)
_SPARSE_COMPUTE_CT = ("H DHT V_DHT SKT SCALE CB_Q_RM CB_Q_IN CB_K_RM CB_K_IN CB_NEGINF CB_MASK_PART CB_SCALE CB_QK_IM "
                      "CB_MAX_A CB_MAX_B CB_SUM_A CB_SUM_B CB_OUT_A CB_OUT_B CB_CORR CB_OUT_IM CB_OUT_RM CB_CTRL "
                      "CB_COL_IDENTITY CB_RECIP_SCRATCH SCALED_KV CB_K_ROPE_RM CB_K_SCALE_BCAST CB_K_LATENT_TILE "
                      "CB_K_ROPE_TILE MATH_APPROX_MODE QUERY_SUBBLOCK PACKED_ROW_BYTES USE_ATTENTION_SINK "
                      "CB_ATTENTION_SINK")

_BW_GELU = "eltwise/unary_backward/device/kernels/compute/"

FACTORIES: dict[str, Factory] = {
    "eltwise/ternary/device/kernels/compute/ternary_addcmul_int_sfpu.cpp": Factory(
        "the kernel's comment: 'all int32 (ADDCMUL_DATA_FORMAT)'; int32 needs a 32-bit DEST",
        (("int32", (("ADDCMUL_DATA_FORMAT", "DataFormat::Int32"),)),), fp32_dest_acc=True, cb_format=INT32),
    "eltwise/ternary/device/kernels/compute/ternary_addcmul_int_sfpu_bcast.cpp": Factory(
        "as ternary_addcmul_int_sfpu.cpp (the broadcast form of the same int32 addcmul)",
        (("int32", (("ADDCMUL_DATA_FORMAT", "DataFormat::Int32"),)),), fp32_dest_acc=True, cb_format=INT32),
    "reduction/accumulation/device/kernels/compute/accumulation_compute.cpp": Factory(
        "accumulation_program_factory.cpp (tt-metal): a float tensor's cumsum / cumprod, fp32 DEST, HiFi4",
        tuple((op, (("BINARY_OP_INIT", f"{op_tile}_init"), ("BINARY_OP", op_tile), ("FILL_TILE", "fill_tile_bitcast")))
              for op, op_tile in (("cumsum", "add_binary_tile"), ("cumprod", "mul_binary_tile"))),
        fp32_dest_acc=True),
    "experimental/transformer/rotary_embedding_llama/device/kernels/compute/rotary_embedding_llama.cpp": Factory(
        "rotary_embedding_llama program factory (tt-metal): RELOAD_IMPL is use_reload_impl ? 1 : 0",
        (("RELOAD_IMPL=0", (("RELOAD_IMPL", "0"),)), ("RELOAD_IMPL=1", (("RELOAD_IMPL", "1"),)))),
    _BW_GELU + "eltwise_bw_gelu_tanh.cpp": Factory(
        "the unary-backward factory (tt-metal): a bfloat16 output, DEST in fp16_b",
        (("bfloat16", (("COPY_DEST_DATA_FORMAT", "DataFormat::Float16_b"),
                       ("BF16_ROUNDING_MODE", "ckernel::DstRoundingMode::NearestEven"))),)),
    _BW_GELU + "eltwise_bw_gelu_tanh_fp32.cpp": Factory(
        "the unary-backward factory (tt-metal): float32 operands, so DEST accumulates in fp32",
        (("float32", (("COPY_DEST_DATA_FORMAT", "DataFormat::Float32"),
                      ("BF16_ROUNDING_MODE", "ckernel::DstRoundingMode::Default"))),),
        fp32_dest_acc=True, cb_format=FLOAT32),
    "reduction/topk/device/kernels/compute/topk_route_prep_untilize_clamp.cpp": Factory(
        "the topk route factory (tt-metal): CLAMP_BITS, the lowest finite bfloat16's fp32 bits (the kernel's comment)",
        (("CLAMP_BITS", (("CLAMP_BITS", f"{LOWEST_BF16_BITS}u"),)),)),
    "eltwise/unary/device/kernels/compute/eltwise_pow_int.cpp": Factory(
        "the unary factory's integer power: the input's format (Int32) as args::data_format, int32 CBs, fp32 DEST",
        named=(("data_format", INT32),), fp32_dest_acc=True, cb_format=INT32),
    "experimental/deepseek_prefill/moe_grouped_topk/device/kernels/compute/moe_grouped_topk.cpp": Factory(
        "topk_finalize_uint16_indices moves 32-bit DEST words and asserts fp32 DEST: the factory sets it",
        fp32_dest_acc=True),
    "experimental/indexer_score/device/kernels/compute_indexer_score.cpp": Factory(
        "a Blackhole op: indexer_mul_custom.h declares mul_tiles_bcast_cols_custom only under ARCH_BLACKHOLE; "
        "schedule_rotate is a flag (it initialises a bool)", named=(("schedule_rotate", 1),), arch="blackhole"),
    "experimental/topk_large_indices/device/kernels/compute.cpp": Factory(
        "a Blackhole op: llk_unpack_topk_xl_copy_init (topk_xl.h) is in Blackhole's LLK API only; K (arg 2) is one "
        "of 512, 1024, 2048 (the kernel's assertion)", args=((2, 512),), arch="blackhole"),
    **{f"normalization/batch_norm/device/kernels/compute/{name}.cpp": Factory(
        "the batch-norm factory: a *_has_value binding is a flag; both running statistics present",
        named=(("old_running_mean_has_value", 1), ("old_running_var_has_value", 1)))
       for name in ("running_statistics_kernel", "running_statistics_sfpu_kernel")},
    "experimental/ccl/dit_fused_distributed_rmsnorm/device/kernels/compute/dit_rmsnorm_fused_compute.cpp": Factory(
        "norm_type (arg 36) is 0, RMSNorm: the kernel asserts it (Welford LayerNorm is not implemented)",
        args=((36, 0),)),
    "experimental/deepseek_prefill/hybrid_routed_expert_ffn/device/kernels/hybrid_compute.cpp": Factory(
        "the union kernel with its unified half only (HYB_RUN_FUSED_PASS not defined): that half's args start at 0 "
        "(hybrid_merged_prologue.hpp: the bases are where each half's args begin)",
        (("unified pass", (("HYB_UNIFIED_CT_BASE", "0"), ("HYB_UNIFIED_RT_BASE", "0"))),)),
    "transformer/sdpa/device/kernels/compute/sparse_sdpa_msa_compute.cpp": Factory(
        "its compute_ct enum (sparse_sdpa_msa_common.hpp): one head of one tile, scale 1.0, no causal mask, the "
        "cache's minimum of 2 slots (KV_CACHE_SLOTS_MIN), a CB index per CB",
        args=enum_args(_MSA_COMPUTE_CT, {"SCALE_FP32": 0x3F800000, "CAUSAL_MASK_ENABLED": 0, "KV_CACHE_SLOTS": 2})),
    "transformer/sdpa/device/kernels/compute/ring_joint_sdpa.cpp": Factory(
        "the classic ring the kernel's assertions allow: one KV source (GROUPED_KV_SOURCE_COUNT 1, the kernel's "
        "comment), no K split (ksplit_count 1), no segmented accumulation, no rotated Q split (the last arg, "
        "rotated_max_slots, 0)",
        (("classic ring", (("GROUPED_KV_SOURCE_COUNT", "1"),)),),
        args=((127, 0),), named=(("ksplit_count", 1), ("seg_accum", 0))),
    "transformer/sdpa/device/kernels/compute/sparse_sdpa_compute.cpp": Factory(
        "its compute_ct_arg enum (sparse_sdpa_common.hpp): one head of one tile, scale 1.0, unscaled KV, exact "
        "exp, no attention sink, a KV row of 576 bfloat16 (1152 bytes, a whole number of tile rows as asserted), "
        "a CB index per CB",
        args=enum_args(_SPARSE_COMPUTE_CT, {"SCALE": 0x3F800000, "SCALED_KV": 0, "MATH_APPROX_MODE": 0,
                                            "PACKED_ROW_BYTES": 1152, "USE_ATTENTION_SINK": 0})),
    **{f"experimental/kda/{op}/device/kernels/compute/{op}.cpp": Factory(
        "Ct, the chunk's tile rows, is 1: KDA's chunk size is 32 (the kernel's assertion)", named=(("Ct", 1),))
       for op in ("prepare_chunk_recurrence", "recurrent_chunk_scan")},
}


#: Quasar's binary_ng DFB kernels include ``eltwise_utils_common.hpp`` by bare name from the
#: directory beside theirs, the only one of the op with that header: their factory's include path
_QUASAR_BINARY_NG = "experimental/quasar/binary_ng/device/"
QUASAR_BINARY_NG = Factory("Quasar binary_ng's DFB kernels: their factory puts binary_ng's kernels/compute (where "
                           "eltwise_utils_common.hpp is) on the include path",
                           include_dirs=(_QUASAR_BINARY_NG + "kernels/compute",))


def factory(kernel: str) -> Factory | None:
    """The factory inputs of ``kernel`` (its path under ``ttnn/operations``), None for the generic build."""
    if kernel.startswith(_QUASAR_BINARY_NG + "kernels_dfb/compute/"):
        return QUASAR_BINARY_NG
    return FACTORIES.get(kernel)
