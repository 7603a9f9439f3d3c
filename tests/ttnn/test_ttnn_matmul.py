"""ttnn.matmul and ttnn.linear with 0.81.1's keyword arguments: bias, activation, compute kernel configs
(fidelity, fp32 accumulation), program configs (K blocking, checked against the shapes), core_grid."""

from __future__ import annotations

import pytest
import torch

from tests.ttnn.values import bf16, tile, values
import tilecraft.ttnn as ttnn

torch.manual_seed(0)
A, B, BIAS = torch.randn(2, 64, 96), torch.randn(96, 40), torch.randn(40)


def error_bound(a: torch.Tensor, b: torch.Tensor, relative: float) -> torch.Tensor:
    """|a| @ |b| times ``relative``: the error of products each off by at most that fraction."""
    return (a.abs() @ b.abs()) * relative


GOLDEN = bf16(A) @ bf16(B) + bf16(BIAS)
HIFI4_FP32 = ttnn.WormholeComputeKernelConfig(math_fidelity=ttnn.MathFidelity.HiFi4, fp32_dest_acc_en=True)


def test_linear_with_bias_and_activation_matches_torch_within_one_bfloat16_rounding():
    out = ttnn.linear(tile(A), tile(B), bias=tile(BIAS), activation="relu")
    assert tuple(out.shape) == (2, 64, 40) and out.dtype is ttnn.bfloat16
    assert torch.allclose(values(out), GOLDEN.relu(), rtol=2 ** -7, atol=1e-2)


@pytest.mark.parametrize("activation", ["gelu", ttnn.UnaryWithParam(ttnn.UnaryOpType.SILU)], ids=["gelu", "silu"])
def test_linear_fuses_named_and_parametrised_activations(activation):
    expected = torch.nn.functional.gelu(GOLDEN) if activation == "gelu" else torch.nn.functional.silu(GOLDEN)
    assert torch.allclose(values(ttnn.linear(tile(A), tile(B), bias=tile(BIAS), activation=activation)), expected,
                          rtol=2 ** -7, atol=2e-2)


def test_hifi4_with_fp32_accumulation_is_one_rounding_of_the_exact_product():
    out = ttnn.matmul(tile(A), tile(B), compute_kernel_config=HIFI4_FP32, core_grid=ttnn.CoreGrid(y=2, x=2))
    assert torch.allclose(values(out), bf16(A) @ bf16(B), rtol=2 ** -7, atol=1e-2)


def test_lofi_multiplies_fewer_mantissa_bits():
    """LoFi takes 4 of SrcA's and 6 of SrcB's mantissa bits: each product within 2**-3 of the exact one,
    and visibly less exact than HiFi4."""
    lofi = ttnn.init_device_compute_kernel_config(ttnn.Arch.WORMHOLE_B0, math_fidelity=ttnn.MathFidelity.LoFi,
                                                 fp32_dest_acc_en=True)
    exact = bf16(A) @ bf16(B)
    low = values(ttnn.matmul(tile(A), tile(B), compute_kernel_config=lofi))
    high = values(ttnn.matmul(tile(A), tile(B), compute_kernel_config=HIFI4_FP32))
    assert ((low - exact).abs() <= error_bound(bf16(A), bf16(B), 2 ** -3) + 1e-2).all()
    assert (low - exact).abs().mean() > 4 * (high - exact).abs().mean()


def test_k_blocks_round_partial_sums_to_bfloat16_only_without_fp32_accumulation():
    def blocked(fp32: bool) -> torch.Tensor:
        config = ttnn.WormholeComputeKernelConfig(math_fidelity=ttnn.MathFidelity.HiFi4, fp32_dest_acc_en=fp32)
        program = ttnn.MatmulMultiCoreReuseMultiCastProgramConfig(
            compute_with_storage_grid_size=ttnn.CoreCoord(8, 8), in0_block_w=1, per_core_M=2, per_core_N=1,
            out_subblock_h=1, out_subblock_w=1)
        return ttnn.to_torch(ttnn.matmul(tile(A), tile(B), compute_kernel_config=config, program_config=program,
                                         dtype=ttnn.float32))
    whole = ttnn.to_torch(ttnn.matmul(tile(A), tile(B), compute_kernel_config=HIFI4_FP32, dtype=ttnn.float32))
    assert torch.equal(blocked(True), whole)
    partial_rounding = (blocked(False) - whole).abs()
    # three K blocks: two partial sums rounded, each by at most 2**-8 of what it adds up
    assert partial_rounding.max() > 0 and (partial_rounding <= error_bound(bf16(A), bf16(B), 2 * 2 ** -8)).all()


def test_fused_activation_of_the_program_config_applies():
    program = ttnn.MatmulMultiCoreReuseMultiCast1DProgramConfig(
        compute_with_storage_grid_size=(8, 8), in0_block_w=3, per_core_M=2, per_core_N=2,
        fused_activation=ttnn.UnaryWithParam(ttnn.UnaryOpType.RELU))
    out = ttnn.linear(tile(A), tile(B), program_config=program, compute_kernel_config=HIFI4_FP32)
    assert (values(out) >= 0).all()


def test_output_dtype_is_rounded_as_the_packer_does():
    out = ttnn.linear(tile(A), tile(B), dtype=ttnn.bfloat8_b)
    assert out.dtype is ttnn.bfloat8_b
    assert torch.allclose(values(out), bf16(A) @ bf16(B), rtol=2 ** -5, atol=0.3)


@pytest.mark.parametrize(("call", "message"), [
    (lambda: ttnn.linear(tile(A), tile(A)), "contracts 96 with 64"),
    (lambda: ttnn.linear(tile(A), tile(B), bias=tile(torch.ones(7))), r"shapes Shape\(\[7\]\) and Shape\(\[2, 64, 40\]\) do not broadcast"),
    (lambda: ttnn.matmul(tile(A), tile(B), program_config=ttnn.MatmulMultiCoreReuseProgramConfig(
        in0_block_w=2, per_core_M=2, per_core_N=2)), "in0_block_w=2 must divide the 3 tiles of K"),
    (lambda: ttnn.matmul(tile(A), tile(B), compute_kernel_config=HIFI4_FP32,
                         program_config=ttnn.MatmulMultiCoreReuseProgramConfig(
                             in0_block_w=1, per_core_M=4, per_core_N=2, out_subblock_h=4, out_subblock_w=2)),
     "exceeds the 4 DST tiles fp32"),
    (lambda: ttnn.matmul(tile(A), tile(B), program_config=ttnn.MatmulMultiCoreReuseMultiCastProgramConfig(
        compute_with_storage_grid_size=(1, 1), in0_block_w=1, per_core_M=1, per_core_N=2)), "do not fit the 1x1 grid"),
    (lambda: ttnn.linear(tile(A), tile(B), activation="swish"), "unknown activation 'swish'"),
])
def test_bad_shapes_and_configs_are_value_errors_naming_the_problem(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_bad_argument_types_are_type_errors():
    with pytest.raises(TypeError, match="compute_kernel_config must be"):
        ttnn.matmul(tile(A), tile(B), compute_kernel_config={"math_fidelity": "HiFi4"})
    with pytest.raises(TypeError, match="core_grid must be a ttnn.CoreGrid"):
        ttnn.linear(tile(A), tile(B), core_grid=(8, 8))
    with pytest.raises(TypeError, match="ttnn.linear takes two ttnn tensors .and a ttnn bias., got torch.Tensor"):
        ttnn.linear(tile(A), B)
