"""What ttnn 0.81.1's program factories pass particular data-movement kernels beyond the census's generic build.

The data-movement census (wheel_kernels_compile.py, ``--dataflow real``) builds every kernel with
generic inputs: compile-time args of 2, bfloat16 CBs, the defines of DM_FACTORY_DEFINES, and on a
static assertion a few uniform fallbacks (args of 1, of 32, ...). Some kernels assert a combination
no uniform value meets: a flag that must be 0 while a size must be a multiple of 16, an exact arg
count ending in a protocol tag, the multicast control word of kernel_lib's mcast protocol.
``FACTORIES`` gives those kernels (by path under ``ttnn/operations``) the args their factory
passes, each entry saying where its values come from: the factory's source where the wheel ships
it, else the kernel's own arg enums, comments and assertions and the host/device headers the
factory compiles too (read for the values only). Positions the entry does not name keep the
generic 2. An entry is the compute census's ``Factory``, of which a data-movement build takes the
args, named args, CB format, arg count and one define combination
(wheel_kernels_compile.with_kernel_factory); the compute config, architecture and include
directories stay the census's.
"""

from __future__ import annotations

from benchmarks.wheel_compute_factories import FLOAT32, Factory, tile_bytes

#: the NoC the census builds a data-movement kernel for (wheel_kernels_compile.kernel_build: NOC 1)
NOC = 1

# kernel_lib/mcast/mcast_protocol.inl's compile-time control word (namespace ct_control), the fields
# a multicast factory sets through kernel_lib/mcast/host/mcast.hpp's Mcast (McastConfig)
_PRE_HANDSHAKE, _NOC1 = 1 << 0, 1 << 2   # flags, bits 0..4 (transfer mode Multicast = 0, ready signal Flag = 0)
_HAS_RECEIVERS = 1 << 5
_MODE_SHIFT, _MULTICAST_INCLUDE_SOURCE = 6, 3  # SenderMcastMode: the sender is one of its group's receivers
_CAPACITY_SHIFT = 9                      # rectangles per sender: 1..3
_DYNAMIC_ROLES = 1 << 13                 # one binary for senders and receivers (KernelMetadata's default)
_CAPABILITIES_SHIFT, _CAN_SEND_AND_RECEIVE = 14, 3
_ACK_SHIFT, _ACK_RUNTIME = 20, 3         # ack count = each rectangle's fan-out, a runtime word


def mcast_control(noc: int) -> int:
    """The control word (the first of a channel's compile-time words, at its ``*_mcast_ct_offset``)
    of a fixed-sender multicast as McastConfig's defaults make it on ``noc``: the receivers'
    handshake (``handshake = true``), a flag ready signal, plain multicast, every receiver sending
    the ready signal (its ack count the fan-out), one rectangle, the sender inside its group
    (McastFixedSenderConfig's in-group sender: MulticastIncludeSource, the kernel's static
    assertion wants a concrete mode), roles decided at run time, explicit sender coordinates."""
    flags = _PRE_HANDSHAKE | (_NOC1 if noc else 0)
    return (flags | _HAS_RECEIVERS | _MULTICAST_INCLUDE_SOURCE << _MODE_SHIFT | 1 << _CAPACITY_SHIFT
            | _DYNAMIC_ROLES | _CAN_SEND_AND_RECEIVE << _CAPABILITIES_SHIFT | _ACK_RUNTIME << _ACK_SHIFT)


#: where the multicast channel's compile-time words start: past every positional arg these kernels
#: read (a factory appends a channel's words to the kernel's args, mcast.hpp's append_compile_time_args_to)
MCAST_CT_OFFSET = 100


def _mcast(channel: str, kernel_args: tuple[tuple[int, int], ...] = ()) -> Factory:
    """A conv kernel with one multicast channel named ``channel`` (its ``<channel>_mcast_ct_offset``
    and ``_rt_offset`` named args) whose control word is ``mcast_control``."""
    return Factory(f"the {channel} multicast's control word as kernel_lib/mcast/mcast_protocol.inl encodes it "
                   f"(mcast_control: McastConfig's defaults, the in-group sender, NOC {NOC}) at compile-time arg "
                   f"{MCAST_CT_OFFSET}, its runtime words from 0",
                   args=((MCAST_CT_OFFSET, mcast_control(NOC)), *kernel_args),
                   named=((f"{channel}_mcast_ct_offset", MCAST_CT_OFFSET), (f"{channel}_mcast_rt_offset", 0)))


_CONV2D = "conv/conv2d/device/kernels/"
_SDPA = "transformer/sdpa/device/kernels/dataflow/"
_INDEXER = "experimental/indexer_score/device/kernels/"
#: chunk_gdn_handoff.hpp's protocol tag (kHandoffTag: 'G' 'D' 'N' and version 1)
GDN_HANDOFF_TAG = 0x47444E00 | 1
#: ring_joint's classic ring (as the compute census's ring_joint_sdpa.cpp entry): one KV source, no
#: K split, no segmented accumulation, no rotated Q split (the last arg), no sliding window (arg 29,
#: sliding_window_size) -- whose sizing defines still have to be declared: a window plan of no halo
#: hops and one halo slot (sliding_window_work_plan.hpp: sliding_q_work_plan_source_ranges(0, 1) = 1)
_RING_JOINT = Factory(
    "the classic ring: GROUPED_KV_SOURCE_COUNT 1, ksplit_count 1, seg_accum 0, dense_causal_skip 0, the last arg "
    "rotated_max_slots 0, sliding_window_size (arg 29) 0 with SLIDING_HALO_SLOT_COUNT 1, SLIDING_MAX_SOURCE_RANGES 1 "
    "(sliding_q_work_plan_source_ranges(0 hops, 1 slot)), SLIDING_LOCAL_FIRST 0",
    (("classic ring", (("GROUPED_KV_SOURCE_COUNT", "1"), ("SLIDING_HALO_SLOT_COUNT", "1"),
                       ("SLIDING_MAX_SOURCE_RANGES", "1"), ("SLIDING_LOCAL_FIRST", "0"))),),
    args=((29, 0), (127, 0)), named=(("ksplit_count", 1), ("seg_accum", 0), ("dense_causal_skip", 0)))
#: indexer_score's regular factory (indexer_score_common.hpp / reader_indexer_score.cpp): no block
#: max-pool (arg 8, block_tiles, 0), the fused-ring flag after the 10 dim and 9 CB args (arg 19) 0,
#: the schedule's rotate flag 1 (a bool, as the compute census gives it)
_INDEXER_SCORE = Factory(
    "the regular (not fused-ring) factory: block_tiles (arg 8) 0, no pooling; fused_ring_enabled (arg 19, after "
    "num_dim_args 10 and num_cb_args 9) 0; schedule_rotate a flag, 1",
    args=((8, 0), (19, 0)), named=(("schedule_rotate", 1),))

FACTORIES: dict[str, Factory] = {
    _CONV2D + "activation_reader_width_sharded.cpp": _mcast(
        "activation", ((7, 32),)),  # act_block_h_datums, divided by the tile height: one tile row
    **{_CONV2D + f"{name}_conv_weights_tiled_col_to_rm_blocks.cpp": _mcast("weights")
       for name in ("reader_writer_tiled_out_1d_mcast_receiver", "reader_writer_tiled_out_1d_mcast_sender",
                    "writer_tiled_out_2d_mcast_receiver", "writer_tiled_out_2d_mcast_sender")},
    "experimental/conv3d/device/kernels/writer.cpp": _mcast("weights"),
    "experimental/conv3d/device/kernels/reader_vol2col.cpp": Factory(
        "gather_trids (arg 36) 0: the host classifier's sentinel for the trid ring disabled, which the coalesced "
        "shard path asserts (the kernel's comments; kGatherTridDepthLow/High are the other values)",
        args=((36, 0),)),
    "data_movement/untilize/codegen/kernels/reader_tile_interleaved_unified.cpp": Factory(
        "untilize_codegen_program_factory.cpp (shipped), make_reader: seq_id kSeqIdentity (0), cb_id c_0, "
        "src_page_pitch 0", named=(("seq_id", 0), ("cb_id", 0), ("src_page_pitch", 0))),
    "experimental/isin/device/kernels/dataflow/isin_reader.cpp": Factory(
        "isin_common.hpp's IsInCTAs: elements_tensor_datum_size (arg 10) 2, a bfloat16 input; "
        "output_tensor_datum_size (arg 11) 4, the uint32 mask the kernel asserts", args=((10, 2), (11, 4))),
    "reduction/argmax/device/kernels/reader_argmax_interleaved_multicore.cpp": Factory(
        "the primary processor of a core with one unit of inner range: j_start 0, j_end 1, owns_reduction 1, "
        "has_secondary_dm 0, reduce_all 0 (the kernel's assertions on these args::)",
        named=(("j_start", 0), ("j_end", 1), ("owns_reduction", 1), ("has_secondary_dm", 0), ("reduce_all", 0))),
    "experimental/kda/recurrent_chunk_scan/device/kernels/dataflow/reader_recurrent_chunk_scan.cpp": Factory(
        "the TT_KERNEL template flags summary 0 and late_on_writer 0: the state update's inputs stay on the "
        "reader (the kernel's assertion forbids both set)", named=(("summary", 0), ("late_on_writer", 0))),
    "transformer/chunk_gated_delta_rule/device/kernels/dataflow/writer_chunk_gdn_fused.cpp": Factory(
        "its 12 compile-time args (the kernel asserts the count and the trailing tag): Ct, Kt, Vt 1; SEM_VALID "
        "kFusedSemValid 2, SEM_INIT kFusedSemInit 1, NBUF 2, NV 1, CB_CREDIT kCbU 17, CREDIT_OFF kMaskTiles (3) "
        "fp32 tiles, multicast (UNICAST 0, POSTED 0), kHandoffTag (chunk_gdn_handoff.hpp); fp32 hand-off CBs",
        args=((0, 1), (1, 1), (2, 1), (3, 2), (4, 1), (5, 2), (6, 1), (7, 17), (8, 3 * tile_bytes(FLOAT32)),
              (9, 0), (10, 0), (11, GDN_HANDOFF_TAG)), arg_count=12, cb_format=FLOAT32),
    "experimental/ccl/ring_attention_all_gather_async/device/kernels/ring_attention_all_gather_reader.cpp": Factory(
        "kPartialReadinessEnabled (arg 18) 0: partial readiness needs one gathered input (the kernel's assertion)",
        args=((18, 0),)),
    "experimental/fused_msda/device/kernels/dataflow/reader_msda_v1.cpp": Factory(
        "fused_msda_reader_common.hpp: D (arg 5) 32, a multiple of 16; FROM_OFFSETS (arg 21) 0, which V1 asserts",
        args=((5, 32), (21, 0))),
    "data_movement/scatter/device/kernels/dataflow/reader_scatter.cpp": Factory(
        "a bfloat16 input (input_element_size 2, input_is_fp32 0) and an int32 index (index_element_size 4): "
        "common.hpp's element_size_to_std maps only these sizes and flags to a type",
        named=(("input_element_size", 2), ("input_is_fp32", 0), ("index_element_size", 4))),
    _INDEXER + "reader_indexer_score.cpp": _INDEXER_SCORE,
    _INDEXER + "writer_indexer_score.cpp": _INDEXER_SCORE,
    _SDPA + "ring_joint_reader.cpp": _RING_JOINT,
    _SDPA + "ring_joint_writer.cpp": _RING_JOINT,
    _SDPA + "sparse_sdpa_writer.cpp": Factory(
        "sparse_sdpa_common.hpp's writer_ct_arg::H (arg 0) 32: the heads fill whole tile rows (the kernel's "
        "assertion) and the sink row is a whole number of DRAM read alignments", args=((0, 32),)),
}


def factory(kernel: str) -> Factory | None:
    """The factory inputs of data-movement ``kernel`` (its path under ``ttnn/operations``), None
    for the generic build."""
    return FACTORIES.get(kernel)
