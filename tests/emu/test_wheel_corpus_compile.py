"""ttnn 0.81.1's own kernel sources compile as the emulator builds them: its data-movement kernels
against the real 0.81.1 dataflow API (benchmarks/wheel_kernels_compile.py: syntax-only, generic
arguments, Metal 2.0 accessors generated from the names each kernel uses, the factory's inputs
where the generic ones fail), its compute kernels on the Tensix machine, three TRISC compiles each
against the real compute API and LLK (benchmarks/wheel_compute_compile.py). A fixed sample of
kernels that compile must keep compiling (the default suite); the whole corpus must not fall below
the counts measured when this test was written (slow). The wheel is downloaded at test time by the
``ops`` fixture (tests/emu/conftest.py)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from benchmarks import wheel_compute_compile as compute_census
from benchmarks import wheel_compute_factories as factories
from benchmarks import wheel_dm_factories as dm
from benchmarks import wheel_kernels_compile as corpus
from tilecraft.emu import tensix_compute, wheel_kernels
from tilecraft.emu.toolchain import clang, compiler

#: data-movement kernels (under ttnn/operations) that compile, across ops, the Metal 2.0 named-args ones included
SAMPLE = (
    "eltwise/unary/device/kernels/dataflow/reader_unary_sharded_metal2.cpp",
    "eltwise/unary/device/kernels/dataflow/reader_unary_interleaved_start_id.cpp",
    "data_movement/sharded/device/kernels/dataflow/writer_unary_sharded_metal2.cpp",
    "data_movement/indexed_fill/device/kernels/dataflow/indexed_fill_writer.cpp",
    "data_movement/copy/device/kernels/reader_unary_stick_start_id.cpp",
    "data_movement/bcast/device/kernels/dataflow/reader_bcast_w_interleaved.cpp",
    "data_movement/bcast/device/kernels/dataflow/reader_bcast_h_interleaved.cpp",
    "eltwise/ternary/device/kernels/dataflow/tts_tst_reader_row_col_bcast.cpp",
    "eltwise/ternary/device/kernels/dataflow/ternary_writer_nobcast.cpp",
    "eltwise/binary_backward/device/kernels/dataflow/writer_binary_backward_dual_nobcast.cpp",
    "experimental/quasar/transpose/device/kernels/dataflow/reader_unary_sharded.cpp",
    "experimental/quasar/binary_ng/device/kernels_ng/dataflow/reader_interleaved_no_bcast.cpp",
    "experimental/transformer/nlp_concat_heads/device/kernels/dataflow/reader_tm_tile_layout_nlp_concat_heads_sharded.cpp",
    "experimental/deepseek_prefill/update_padded_kv_cache/device/kernels/dataflow/writer_update_padded_kv_cache.cpp",
)

#: data-movement kernels that compile on the real dataflow API, of 1091 (benchmarks/README.md: 850
#: before the census derived the factories' inputs and the generator's bindings, 977 before the
#: kernels' own factories' args, wheel_dm_factories.py); 17 of them have a dependent
#: "#pragma GCC unroll" count, which only clang takes (980 without clang)
REAL_DATAFLOW_FLOOR = 997


@pytest.fixture(scope="module")
def root(ops: Path) -> Path:
    """The unpacked wheel (``ops``, tests/emu/conftest.py, fetches it or skips)."""
    return wheel_kernels.ensure_kernels()


def test_a_sample_of_the_wheels_kernels_compiles(root: Path) -> None:
    paths = [wheel_kernels.operations(root) / name for name in SAMPLE]
    failed = [f"{p}: {r}" for p, r in zip(SAMPLE, corpus.measure(paths)) if r is not None]
    assert not failed, failed


@pytest.mark.slow
def test_the_real_dataflow_corpus_compile_count_does_not_regress(root: Path) -> None:
    reasons = corpus.measure(corpus.data_movement_kernels(root))
    assert sum(r is None for r in reasons) >= (REAL_DATAFLOW_FLOOR if clang() is not None else 980), \
        [r for r in reasons if r]


#: compute kernels that compile on the Tensix machine, each standing for a census fix: every unary
#: SFPU op the factory's SFPU_OP_CHAIN_0 selects (default: the whole SFPU layer, our SFPI under the
#: real ckernel_sfpu_*), named compile-time args, the distinct-args retry (kernels whose CBs come
#: from their args), the JIT's ``ttnn/`` include root with sdpa's granularity defines, and a
#: factory's REDUCE_OP/REDUCE_DIM, a factory's own inputs, the JIT's TT_KERNEL shim
COMPUTE_SAMPLE = (
    "eltwise/unary/device/kernels/compute/eltwise_sfpu.cpp",
    pytest.param("experimental/topk_router_gpt/device/kernels/compute.cpp", marks=pytest.mark.slow),
    pytest.param("experimental/transformer/rotary_embedding/device/kernels/compute/rotary_embedding.cpp",
                 marks=pytest.mark.slow),
    pytest.param("transformer/sdpa/device/kernels/compute/joint_sdpa.cpp", marks=pytest.mark.slow),
    pytest.param("reduction/generic/device/kernels/compute/reduce_rm.cpp", marks=pytest.mark.slow),
    # a factory's define combinations and fp32 DEST (wheel_compute_factories.py), a TT_KERNEL entry
    pytest.param("reduction/accumulation/device/kernels/compute/accumulation_compute.cpp", marks=pytest.mark.slow),
    pytest.param("experimental/kda/sigmoid_gated_rms_norm/device/kernels/compute/sigmoid_gated_rms_norm.cpp",
                 marks=pytest.mark.slow),
)
#: compute kernels that compile on the machine, of 382 (benchmarks/README.md: 299 before clang
#: compiled the 38 g++ 12 crashes on, 338 before each kernel got its factory's inputs)
COMPUTE_FLOOR = 381 if clang() is not None else 343


@pytest.mark.parametrize("kernel", COMPUTE_SAMPLE)
def test_a_compute_kernel_compiles_on_the_tensix_machine(root: Path, kernel: str) -> None:
    results = compute_census.measure([wheel_kernels.operations(root) / kernel])
    assert results and all(r.ok for r in results), [(r.variant, r.error) for r in results]


@pytest.mark.slow
def test_the_compute_census_on_the_machine_does_not_regress(root: Path) -> None:
    compiled, total, clusters = compute_census.summary(compute_census.measure(compute_census.compute_kernels(root)))
    assert compiled >= COMPUTE_FLOOR, (compiled, total, clusters.most_common(10))


def test_the_census_clusters_a_first_error_by_where_it_is_and_what_it_is(tmp_path: Path) -> None:
    kernel = tmp_path / "k.cpp"
    kernel.write_text("")
    cluster = compute_census.cluster
    assert cluster(f"{kernel}:3:5: error: 'REDUCE_OP' was not declared in this scope", kernel) == \
        "the kernel: undeclared REDUCE_OP"
    assert cluster("/w/ttnn/cpp/ttnn/kernel_lib/eltwise/api/chain.hpp:522:5: internal compiler error: "
                   "Segmentation fault", kernel) == f"g++ {compute_census._GXX_MAJOR} internal compiler error " \
                                                   "(Segmentation fault)"
    assert cluster("/x/k.cpp:54:10: fatal error: eltwise_utils_common.hpp: No such file or directory", kernel) == \
        "missing header eltwise_utils_common.hpp"
    assert cluster("/t/tensix/sfpi/sfpi_library.h:9:1: error: 'vFoo' does not name a type", kernel) == \
        "our SFPI: undeclared vFoo"
    assert cluster(f"{kernel}:7:1: error: 'in' is not a member of 'dfb'", kernel) == \
        "the kernel: generated binding dfb:: missing"


def test_the_census_passes_the_factory_defines_of_the_macros_a_kernel_uses() -> None:
    from benchmarks import wheel_compute_variants as variants

    text = ("#define HAS_ACTIVATIONS(op) P(PROCESS_ACTIVATIONS(op, 0))\n#define WHERE_DATA_FORMAT Float32\n"
            "void kernel_main() { BINARY_SFPU_INIT WHERE_TTS; reduce<REDUCE_OP, REDUCE_DIM>(); }\n")
    defines = dict(variants.factory_defines(text))
    # where's BINARY_SFPU_* win over the plain binary's; a define the kernel makes itself is not passed
    assert defines["BINARY_SFPU_INIT"] == "where_tile_init();" and "WHERE_DATA_FORMAT" not in defines
    assert defines["PROCESS_LHS_ACTIVATIONS(i)"] == "" and defines["REDUCE_DIM"] == "ReduceDim::REDUCE_ROW"
    assert variants.factory_defines("void kernel_main() {}") == ()
    assert compute_census.named_args('get_named_compile_time_arg_val("b"); get_named_compile_time_arg_val( "a")') == \
        (("a", 2), ("b", 2))
    assert compute_census.arg_value("tile_width") == 32 and compute_census.arg_value("num_tiles") == 2


def test_the_unary_chain_is_written_as_the_factory_writes_it() -> None:
    from benchmarks import wheel_compute_variants as variants

    defines = dict(variants.chain_defines(("EXP", "RECIP"), (("exp_tile_init();", "exp_tile(0);"),
                                                            ("recip_tile_init();", "recip_tile(0);"))))
    assert defines["SFPU_OP_CHAIN_0"] == "SFPU_OP_CHAIN_0_INIT_0 SFPU_OP_CHAIN_0_FUNC_0 " \
                                        "SFPU_OP_CHAIN_0_INIT_1 SFPU_OP_CHAIN_0_FUNC_1"
    assert defines["SFPU_OP_CHAIN_0_FUNC_1"] == "recip_tile(0);"
    assert defines["SFPU_OP_EXP_INCLUDE"] == defines["SFPU_OP_RECIP_INCLUDE"] == "1"


def test_a_compute_kernel_that_does_not_compile_is_reported_with_its_first_error(root: Path) -> None:
    """The census's failures are check_kernel's E5872 with the first compiler error (here in the
    UNPACK TRISC, the first compiled): a factory define naming a function the API lacks."""
    from tilecraft.emu import tensix_compute
    from tilecraft.emu.tensix_build import CODE_BUILD, TensixBuildError

    kernel = wheel_kernels.operations(root) / "eltwise/unary/device/kernels/compute/eltwise_sfpu.cpp"
    with pytest.raises(TensixBuildError) as failure:
        tensix_compute.check_kernel(compute_census.kernel_build(kernel, (("SFPU_OP_CHAIN_0", "no_such_tile(0);"),)))
    assert failure.value.diagnostic.code == CODE_BUILD
    assert "(TRISC UNPACK)" in failure.value.diagnostic.message
    assert "'no_such_tile' was not declared" in failure.value.diagnostic.message


def test_a_compute_kernel_written_only_against_kernel_lib_is_counted_as_compute(root: Path) -> None:
    """untilize's kernel includes no ``api/compute/`` header itself, only kernel_lib's untilize
    helpers: the compute census builds it, so the data-movement count does not hold it."""
    ops = wheel_kernels.operations(root)
    assert corpus.is_compute_kernel(ops / "data_movement/untilize/device/kernels/compute/untilize_variable_num_blocks.cpp")
    assert not corpus.is_compute_kernel(ops / "eltwise/unary/device/kernels/dataflow/reader_unary_interleaved_start_id.cpp")


def test_the_census_derives_a_data_movement_kernels_factory_inputs_and_skips_what_the_wheel_lacks(root: Path) -> None:
    """On the real dataflow API: ``prepare_reduce_scaler`` asserts its CB is bfloat16 or float32 (the
    factory's CBs, which the generic build leaves unset); a fabric kernel includes headers the
    wheel does not ship, a skip with the reason, not a failure."""
    ops = wheel_kernels.operations(root)
    reader = ops / "experimental/deepseek_prefill/attn_res_gather_softmax/device/kernels/dataflow/" \
                   "reader_attn_res_gather_softmax.cpp"
    assert corpus.compile_one(reader) is None
    fabric = corpus.compile_one(ops / "point_to_point/device/kernels/dataflow/reader_receive.cpp")
    assert fabric == f"{corpus.SKIPPED}tt_metal/fabric/hw/inc/edm_fabric/fabric_connection_manager.hpp " \
                     "is not in the wheel"


def test_a_kernel_gets_what_its_factory_passes_where_the_generic_build_differs(root: Path) -> None:
    """wheel_compute_factories.py: the factory's compute config, CB format, args, architecture and
    include path reach the kernel's build; its define combinations are completed by the trigger
    defines of the macros they leave out (accumulation's BINARY_OP over the binary factory's)."""
    from benchmarks import wheel_compute_variants as variants

    ops = wheel_kernels.operations(root)

    def build(kernel: str, args: tuple[int, ...] = compute_census.ARGS):
        return compute_census.kernel_build(ops / kernel, (), args, factories.factory(kernel))

    addcmul = build("eltwise/ternary/device/kernels/compute/ternary_addcmul_int_sfpu.cpp")
    assert addcmul.fp32_dest_acc and {cb.format for _, cb in addcmul.cbs} == {factories.INT32}
    assert {cb.tile_bytes for _, cb in addcmul.cbs} == {4096}
    topk = build("experimental/topk_large_indices/device/kernels/compute.cpp", compute_census.FALLBACK_ARGS[0][1])
    assert topk.compile_args[2] == 512 and topk.compile_args[3] == 4  # K overridden on any args, the rest kept
    assert ("ARCH_BLACKHOLE", "1") in topk.arch_defines and ("ARCH_WORMHOLE", "1") not in topk.arch_defines
    dfb = build("experimental/quasar/binary_ng/device/kernels_dfb/compute/eltwise_binary_no_bcast_dfb.cpp")
    assert [(p / "eltwise_utils_common.hpp").is_file() for p in dfb.include_paths] == [True]
    pow_int = build("eltwise/unary/device/kernels/compute/eltwise_pow_int.cpp")
    assert dict(pow_int.bindings.compile_time)["data_format"] == factories.INT32
    accumulation = ops / "reduction/accumulation/device/kernels/compute/accumulation_compute.cpp"
    combinations = dict(compute_census.kernel_variants(accumulation, compute_census.compute_api()))
    assert dict(combinations["factory: cumprod"])["BINARY_OP"] == "mul_binary_tile"
    # a kernel without factory combinations keeps the trigger defines' one build
    reduce = ops / "reduction/generic/device/kernels/compute/reduce_rm.cpp"
    assert compute_census.kernel_variants(reduce, compute_census.compute_api()) == \
        (("factory defines", variants.factory_defines(corpus.kernel_text(reduce))),)


def test_the_census_gives_named_cb_ids_distinct_indices_and_skips_a_define_the_kernel_declares() -> None:
    text = ('get_named_compile_time_arg_val("cb_in0_x"); get_named_compile_time_arg_val("out_cb");'
            'get_named_compile_time_arg_val("num_tiles"); get_named_compile_time_arg_val("dfb_out")')
    assert compute_census.distinct_cb_ids(text) == (("cb_in0_x", 0), ("dfb_out", 1), ("out_cb", 2))
    from benchmarks import wheel_compute_variants as variants
    declared = "constexpr bool EXP_APPROX_MODE = get_compile_time_arg_val(3) != 0;"
    assert "EXP_APPROX_MODE" not in dict(variants.factory_defines(declared))
    assert dict(variants.factory_defines("exp_tile<EXP_APPROX_MODE>(0);"))["EXP_APPROX_MODE"] == "0"
    positions = dict(factories.enum_args("H CB_A SCALE CB_B", {"SCALE": 7}))
    assert positions == {0: 1, 1: 0, 2: 7, 3: 1}


def test_a_rerun_takes_the_failures_of_an_earlier_run(tmp_path: Path) -> None:
    rows = [{"kernel": "a.cpp", "ok": True}, {"kernel": "b.cpp", "ok": False}, {"kernel": "a.cpp", "ok": False}]
    log = tmp_path / "results.jsonl"
    log.write_text("".join(json.dumps(row) + "\n" for row in rows))
    whole = tmp_path / "results.json"
    whole.write_text(json.dumps(rows[:2]))
    assert compute_census.failed_kernels(log) == {"a.cpp", "b.cpp"}
    assert compute_census.failed_kernels(whole) == {"b.cpp"}


def test_a_tt_kernel_entry_gets_the_kernel_main_the_jit_generates(root: Path, tmp_path: Path) -> None:
    """kernel_args.h: the JIT generates kernel_main() from a TT_KERNEL entry's signature, each
    parameter the named arg of its name, a template parameter a compile-time one; each TRISC's unit
    on the machine has the kernel followed by that shim, and the census binds the parameters."""
    kernel = wheel_kernels.operations(root) / \
        "experimental/kda/sigmoid_gated_rms_norm/device/kernels/compute/sigmoid_gated_rms_norm.cpp"
    build = compute_census.kernel_build(kernel, ())
    assert build.source == kernel and {"Vt", "wi_count"} <= dict(build.bindings.compile_time).keys()
    tensix_compute.write_units(build, tmp_path)
    for trisc in ("unpack", "math", "pack"):
        assert (tmp_path / f"chlkc_{trisc}.cpp").read_text().endswith(
            f'#include "{kernel}"\n// kernel_main() shim for the TT_KERNEL entry (the JIT\'s)\n'
            "void kernel_main() {\n    compute<get_arg(args::Vt)>(get_arg(args::wi_count));\n}\n")


@pytest.mark.slow
def test_a_quasar_dfb_kernel_compiles_with_its_factorys_include_path(root: Path) -> None:
    kernel = wheel_kernels.operations(root) / \
        "experimental/quasar/binary_ng/device/kernels_dfb/compute/eltwise_binary_no_bcast_dfb.cpp"
    (name, defines), = compute_census.kernel_variants(kernel, compute_census.compute_api())
    result = compute_census.build_one(kernel, name, defines)
    assert result.ok, result.error


@pytest.mark.slow
@pytest.mark.skipif(clang() is None, reason="no clang++ 19 or newer installed")
def test_a_conv_reader_g_plus_plus_12_rejects_compiles_with_clang(root: Path) -> None:
    """conv's ``#pragma GCC unroll(window_height)`` of a template parameter: g++ 12 rejects the
    count, clang takes it (tensix_build.compile_host), as the real dataflow path builds it."""
    kernel = wheel_kernels.operations(root) / "experimental/quasar/conv2d/device/kernels/" \
        "reader_writer_tiled_out_1d_mcast_receiver_conv_weights_tiled_col_to_rm_blocks_metal2.cpp"
    assert corpus.compile_one(kernel) is None


def test_the_dm_census_generates_the_bindings_the_0_81_1_generator_would() -> None:
    """From the names a kernel uses: a name the headers declare in a binding namespace
    (``dfb::AccessPattern Pap``, ``tensor::get_token_if_present<``) is not a binding; a tensor used
    as a sequence is a tuple of two tensors; a name asked of get_token_if_present is bound; a
    scratchpad is a ScratchpadBindingToken with api/scratchpad.h; a TT_KERNEL entry's parameters are
    named compile-time args; a kernel reading compile-time varargs gets their readers."""
    text = ("template <typename T, dfb::AccessPattern Pap> void f(DFBBindingToken<Pap> t);\n"
            "template <uint32_t Kt>\nTT_KERNEL void entry(uint32_t group) {\n"
            "  DataflowBuffer in(dfb::in0); auto all = make_tensor_accessors(tensor::inputs);\n"
            "  TensorAccessor(*tensor::get_token_if_present<\"maybe\">()); TensorAccessor(tensor::src);\n"
            "  Scratchpad<uint32_t> ids(scratch::ids); get_compile_time_vararg<0>(); }\n")
    bindings = corpus.generated_bindings(text)
    assert bindings.dfbs == (("in0", 0),)
    assert [t.name for t in bindings.tensors] == ["inputs_0", "inputs_1", "maybe", "src"]
    assert bindings.tensor_sequences == (("inputs", ("inputs_0", "inputs_1")),)
    assert dict(bindings.compile_time) == {"Kt": 2, "group": 2}
    header = bindings.header()
    assert '#include "api/scratchpad.h"' in header and "constexpr ScratchpadBindingToken ids{0u, 2048u};" in header
    assert "constexpr auto inputs = std::make_tuple(inputs_0, inputs_1);" in header
    assert 'if constexpr (name == "maybe") {' in header and "get_num_compile_time_varargs()" in header


def test_a_dm_kernels_factory_defines_name_the_llk_enums_qualified(root: Path) -> None:
    """A data-movement kernel has no ``using namespace ckernel``: its factory passes REDUCE_OP and
    REDUCE_DIM qualified; binary_ng's row-major readers get the bfloat16 fill functions."""
    ops = wheel_kernels.operations(root)
    reader = corpus.with_factory_inputs(corpus.kernel_build(
        ops / "reduction/generic/device/kernels/dataflow/reader_unary_reduce_universal_start_id.cpp"))
    defines = dict(reader.defines)
    assert defines["REDUCE_OP"] == "ckernel::PoolType::SUM" and defines["REDUCE_DIM"] == "ckernel::ReduceDim::REDUCE_ROW"
    assert defines["DST_SYNC_FULL"] == "0"
    fill = dict(corpus.with_factory_inputs(corpus.kernel_build(
        ops / "eltwise/binary_ng/device/kernels_ng/dataflow/reader_interleaved_rm_col_bcast.cpp")).defines)
    assert fill["FILL_TILE_WITH_FIRST_COLUMN_RM_B"] == "fill_tile_with_first_column_rm_bfloat16"


#: a kernel per fix of the data-movement census on the real dataflow API: scratchpad bindings,
#: a tensor sequence, a prefetcher pipe, get_token_if_present with a TT_KERNEL entry, a sharded
#: accessor's PageMapping, binary_ng's fill defines, a reduce reader's qualified REDUCE_OP, sdpa's
#: reader past 64 args, an MSDA reader's head dim of 32
REAL_DATAFLOW_FIXES = (
    "data_movement/fill_rm/device/kernels/dataflow/fill_rm_interleaved.cpp",
    "data_movement/concat/device/kernels/dataflow/reader_concat_interleaved_start_id.cpp",
    "prefetcher/prefetcher/device/kernels/writer_pipe_metal2.cpp",
    "experimental/kda/affine_exclusive_scan/device/kernels/dataflow/reader_writer_affine_exclusive_scan.cpp",
    "data_movement/sharded/device/kernels/dataflow/reader_unary_nd_sharded_blocks_metal2.cpp",
    "eltwise/binary_ng/device/kernels_ng/dataflow/reader_interleaved_rm_col_bcast.cpp",
    "reduction/generic/device/kernels/dataflow/reader_unary_reduce_universal_start_id.cpp",
    "transformer/sdpa/device/kernels/dataflow/reader_interleaved.cpp",
    "experimental/fused_msda/device/kernels/dataflow/writer_msda.cpp",
)


@pytest.mark.slow
@pytest.mark.parametrize("kernel", REAL_DATAFLOW_FIXES)
def test_a_data_movement_kernel_compiles_with_what_its_factory_passes(root: Path, kernel: str) -> None:
    assert corpus.compile_one(wheel_kernels.operations(root) / kernel) is None


def test_the_multicast_control_word_is_the_one_the_wheels_host_encoder_writes(root: Path, tmp_path: Path) -> None:
    """wheel_dm_factories.mcast_control is what kernel_lib's shared host/device encoder
    (mcast_protocol.inl: ``compile_time_control``) makes of McastConfig's defaults for an in-group
    sender on each NoC, and its decoder reads back a concrete sender mode (the conv kernels assert
    one)."""
    mcast = root / "ttnn/cpp/ttnn/kernel_lib/mcast"
    checks = "\n".join(
        f"static_assert(compile_time_control(ArgumentMetadata{{McastMetadata{{0, 1, ACK_EQUALS_FANOUT, 0, false, "
        f"SenderMcastMode::MulticastIncludeSource, true, PRE_HANDSHAKE{' | NOC1' if noc else ''}}}}}) "
        f"== {dm.mcast_control(noc)}u);\n"
        f"static_assert(concrete(compile_time_control_metadata({dm.mcast_control(noc)}u).mcast.sender_mcast_mode));"
        for noc in (0, 1))
    unit = tmp_path / "control.cpp"
    unit.write_text(f'#include "mcast_protocol.hpp"\nusing namespace dataflow_kernel_lib;\n'
                    f"using namespace dataflow_kernel_lib::mcast_wire;\n{checks}\n")
    result = subprocess.run([*compiler().command(), "-std=c++20", "-fsyntax-only", f"-I{mcast}", str(unit)],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


def test_a_data_movement_kernel_gets_the_args_its_own_factory_passes(root: Path) -> None:
    """A wheel_dm_factories.py entry replaces the generic args where its factory's differ: the GDN
    writer's exact 12 args ending in the hand-off tag, over fp32 CBs; a conv writer's multicast
    channel at its named offset; argmax's Metal 2.0 ``args::`` flags."""
    ops = wheel_kernels.operations(root)
    gdn = corpus.with_factory_inputs(corpus.kernel_build(
        ops / "transformer/chunk_gated_delta_rule/device/kernels/dataflow/writer_chunk_gdn_fused.cpp"))
    assert len(gdn.compile_args) == 12 and gdn.compile_args[-1] == dm.GDN_HANDOFF_TAG
    assert {cb.format for _, cb in gdn.cbs} == {factories.FLOAT32}
    conv = corpus.with_factory_inputs(corpus.kernel_build(
        ops / "conv/conv2d/device/kernels/writer_tiled_out_2d_mcast_sender_conv_weights_tiled_col_to_rm_blocks.cpp"))
    offset = dict(conv.named_args)["weights_mcast_ct_offset"]
    assert conv.compile_args[offset] == dm.mcast_control(conv.noc)
    argmax = corpus.with_factory_inputs(corpus.kernel_build(
        ops / "reduction/argmax/device/kernels/reader_argmax_interleaved_multicore.cpp"))
    assert argmax.bindings is not None
    flags = dict(argmax.bindings.compile_time)
    assert (flags["j_start"], flags["j_end"], flags["owns_reduction"], flags["has_secondary_dm"]) == (0, 1, 1, 0)
    generic = factories.Factory("")
    assert all(len(entry.combinations) <= 1 and (entry.fp32_dest_acc, entry.arch, entry.include_dirs)
               == (generic.fp32_dest_acc, generic.arch, generic.include_dirs) for entry in dm.FACTORIES.values())


#: the kernels whose own factory's args (wheel_dm_factories.py) make them compile: a multicast
#: control word, an exact arg count with a protocol tag, flags among the args and the named args
@pytest.mark.slow
@pytest.mark.parametrize("kernel", [
    "conv/conv2d/device/kernels/writer_tiled_out_2d_mcast_sender_conv_weights_tiled_col_to_rm_blocks.cpp",
    "experimental/conv3d/device/kernels/writer.cpp",
    "transformer/chunk_gated_delta_rule/device/kernels/dataflow/writer_chunk_gdn_fused.cpp",
    "transformer/sdpa/device/kernels/dataflow/ring_joint_reader.cpp",
    "reduction/argmax/device/kernels/reader_argmax_interleaved_multicore.cpp",
    "data_movement/scatter/device/kernels/dataflow/reader_scatter.cpp",
])
def test_a_data_movement_kernel_compiles_with_its_own_factorys_args(root: Path, kernel: str) -> None:
    assert corpus.compile_one(wheel_kernels.operations(root) / kernel) is None
