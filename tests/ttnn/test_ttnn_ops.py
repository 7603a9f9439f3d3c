"""ttnn ops against torch: values, result types, broadcasting, errors, and the primitive registry."""

from __future__ import annotations

import pytest
import torch
import torch.nn.functional as F

import tilecraft.ttnn as ttnn
from tilecraft.numerics import quantize
from tilecraft.ttnn import ops

# bf16 keeps 8 significant bits: one rounding of a result is within 2**-8 relative
BF16 = {"rtol": 1e-2, "atol": 1e-2}


def tile(data: torch.Tensor, dtype=ttnn.bfloat16) -> ttnn.Tensor:
    return ttnn.from_torch(data, dtype=dtype, layout=ttnn.TILE_LAYOUT)


def golden(data: torch.Tensor) -> torch.Tensor:
    """What the device computes from: the values as bf16 holds them, widened to fp32."""
    return data.to(torch.bfloat16).float()


def check(result: ttnn.Tensor, expected: torch.Tensor, rtol: float = BF16["rtol"], atol: float = BF16["atol"]) -> None:
    # torch.allclose rather than torch.testing.assert_close, whose first call takes over a second
    out = ttnn.to_torch(result).float()
    assert tuple(result.shape) == tuple(expected.shape)
    error = (out - expected.float()).abs().max().item() if out.numel() else 0.0
    assert torch.allclose(out, expected.float(), rtol=rtol, atol=atol), f"max abs error {error}"


POSITIVE = torch.rand(40, 70) + 0.5
SIGNED = torch.randn(40, 70)

UNARY = [
    (ttnn.relu, torch.relu, SIGNED), (ttnn.gelu, F.gelu, SIGNED), (ttnn.silu, F.silu, SIGNED),
    (ttnn.sigmoid, torch.sigmoid, SIGNED), (ttnn.tanh, torch.tanh, SIGNED), (ttnn.exp, torch.exp, SIGNED),
    (ttnn.log, torch.log, POSITIVE), (ttnn.sqrt, torch.sqrt, POSITIVE), (ttnn.rsqrt, torch.rsqrt, POSITIVE),
    (ttnn.reciprocal, torch.reciprocal, POSITIVE), (ttnn.abs, torch.abs, SIGNED), (ttnn.neg, torch.neg, SIGNED),
    (ttnn.square, torch.square, SIGNED), (ttnn.sin, torch.sin, SIGNED), (ttnn.cos, torch.cos, SIGNED),
]


@pytest.mark.parametrize(("op", "reference", "data"), UNARY, ids=[u[0].__name__ for u in UNARY])
def test_unary_ops_match_torch(op, reference, data):
    result = op(tile(data))
    assert result.dtype is ttnn.bfloat16 and result.layout is ttnn.TILE_LAYOUT
    check(result, reference(golden(data)))


def test_gelu_fast_mode_is_the_tanh_approximation():
    check(ttnn.gelu(tile(SIGNED), fast_and_approximate_mode=True), F.gelu(golden(SIGNED), approximate="tanh"))


BINARY = [(ttnn.add, torch.add), (ttnn.subtract, torch.sub), (ttnn.multiply, torch.mul), (ttnn.divide, torch.div),
          (ttnn.mul, torch.mul)]


@pytest.mark.parametrize(("op", "reference"), BINARY, ids=[b[0].__name__ for b in BINARY])
def test_binary_ops_match_torch_with_tensors_scalars_and_broadcasting(op, reference):
    a, b = torch.randn(64, 96), torch.rand(64, 96) + 0.5
    check(op(tile(a), tile(b)), reference(golden(a), golden(b)))
    check(op(tile(a), 3.0), reference(golden(a), 3.0))
    check(op(2.0, tile(b)), reference(2.0, golden(b)))
    column, row = torch.rand(64, 1) + 0.5, torch.rand(1, 96) + 0.5
    check(op(tile(column), tile(row)), reference(golden(column), golden(row)))


def test_sub_and_mul_are_aliases():
    assert ttnn.sub is ttnn.subtract and ttnn.mul is ttnn.multiply


def test_shape_mismatch_names_both_shapes():
    with pytest.raises(ValueError, match=r"ttnn.add: shapes Shape\(\[2, 3\]\) and Shape\(\[4, 3\]\)"):
        ttnn.add(tile(torch.ones(2, 3)), tile(torch.ones(4, 3)))


def test_operand_errors():
    with pytest.raises(TypeError, match="from_torch"):
        ttnn.add(tile(torch.ones(2, 3)), torch.ones(2, 3))
    with pytest.raises(TypeError, match="at least one ttnn.Tensor"):
        ttnn.add(1.0, 2.0)
    with pytest.raises(TypeError, match="ttnn.bfloat16"):
        ttnn.relu(tile(torch.ones(2, 3)), dtype=torch.float64)


def test_result_dtype_memory_config_and_device():
    device = ttnn.open_device(device_id=0)
    a = ttnn.from_torch(torch.ones(32, 32), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device)
    b = ttnn.from_torch(torch.ones(32, 32), dtype=ttnn.float32, layout=ttnn.TILE_LAYOUT, device=device)
    assert ttnn.add(a, b).dtype is ttnn.bfloat16  # the first tensor's dtype
    assert ttnn.add(b, a).dtype is ttnn.float32
    assert ttnn.add(2, b).dtype is ttnn.float32  # the first *tensor* operand
    result = ttnn.add(a, b, dtype=ttnn.float32, memory_config=ttnn.L1_MEMORY_CONFIG)
    assert result.dtype is ttnn.float32 and result.memory_config() == ttnn.L1_MEMORY_CONFIG
    assert result.device() is device and result.storage is not a.storage
    ttnn.close_device(device)


def test_block_float_results_are_rounded_with_shared_exponents():
    a, b = torch.randn(32, 64), torch.randn(32, 64)
    ta, tb = tile(a, ttnn.bfloat8_b), tile(b, ttnn.bfloat8_b)
    result = ttnn.multiply(ta, tb)
    assert result.dtype is ttnn.bfloat8_b
    expected = quantize(ttnn.to_torch(ta).float() * ttnn.to_torch(tb).float(), ttnn.bfloat8_b)
    assert torch.equal(ttnn.to_torch(result), expected)


def test_integer_math_is_exact_beyond_float32():
    big = torch.tensor([[2**30 + 1, -(2**30) - 3]], dtype=torch.int32)
    result = ttnn.add(ttnn.from_torch(big), 2)
    assert result.dtype is ttnn.int32 and ttnn.to_torch(result).tolist() == [[2**30 + 3, -(2**30) - 1]]


def test_matmul_2d_batched_and_transposed():
    a, b = torch.randn(64, 96), torch.randn(96, 32)
    check(ttnn.matmul(tile(a), tile(b)), golden(a) @ golden(b), rtol=2e-2, atol=5e-2)
    batch_a = torch.randn(3, 64, 96)
    check(ttnn.matmul(tile(batch_a), tile(b)), golden(batch_a) @ golden(b), rtol=2e-2, atol=5e-2)
    check(ttnn.matmul(tile(a.T.contiguous()), tile(b.T.contiguous()), transpose_a=True, transpose_b=True),
          golden(a) @ golden(b), rtol=2e-2, atol=5e-2)
    check(tile(a) @ tile(b), golden(a) @ golden(b), rtol=2e-2, atol=5e-2)


def test_matmul_shape_errors():
    with pytest.raises(ValueError, match=r"Shape\(\[64, 96\]\) @ Shape\(\[32, 32\]\) contracts 96 with 32"):
        ttnn.matmul(tile(torch.ones(64, 96)), tile(torch.ones(32, 32)))
    with pytest.raises(ValueError, match="rank 2"):
        ttnn.matmul(tile(torch.ones(32)), tile(torch.ones(32, 32)))
    with pytest.raises(TypeError, match="two ttnn tensors"):
        ttnn.matmul(tile(torch.ones(32, 32)), 2.0)


def test_softmax():
    data = torch.randn(2, 40, 70)
    check(ttnn.softmax(tile(data), dim=-1), torch.softmax(golden(data), -1))
    check(ttnn.softmax(tile(data), 1), torch.softmax(golden(data), 1))
    with pytest.raises(ValueError, match="ttnn.softmax: dim 3 is out of range for a tensor of rank 3"):
        ttnn.softmax(tile(data), dim=3)


@pytest.mark.parametrize(("dim", "keepdim"), [(None, False), (1, True), (-1, False), ((0, 2), False), ((0, 2), True)])
def test_reductions_match_torch(dim, keepdim):
    data = torch.randn(3, 40, 70)
    dims = tuple(range(3)) if dim is None else dim
    t = tile(data)
    check(ttnn.sum(t, dim=dim, keepdim=keepdim), golden(data).sum(dims, keepdim=keepdim), rtol=2e-2, atol=0.5)
    check(ttnn.mean(t, dim, keepdim), golden(data).mean(dims, keepdim=keepdim))
    check(ttnn.max(t, dim=dim, keepdim=keepdim), torch.amax(golden(data), dims, keepdim=keepdim))


def test_reduction_dim_errors():
    with pytest.raises(ValueError, match="out of range"):
        ttnn.sum(tile(torch.ones(2, 3)), dim=2)
    with pytest.raises(ValueError, match="twice"):
        ttnn.sum(tile(torch.ones(2, 3)), dim=(1, -1))


def test_transpose_and_reshape():
    data = torch.randn(2, 40, 70)
    check(ttnn.transpose(tile(data), 0, -1), golden(data).transpose(0, -1))
    reshaped = ttnn.reshape(tile(data), (-1, 70))
    assert reshaped.shape == (80, 70) and reshaped.padded_shape == (96, 96)
    check(reshaped, golden(data).reshape(80, 70))
    with pytest.raises(ValueError, match=r"cannot reshape Shape\(\[2, 40, 70\]\) \(5600 elements\) to"):
        ttnn.reshape(tile(data), (3, 70))


def test_typecast_to_layout_and_clone():
    data = torch.randn(40, 70)
    t = tile(data, ttnn.float32)
    as_bf8 = ttnn.typecast(t, ttnn.bfloat8_b)
    assert as_bf8.dtype is ttnn.bfloat8_b
    assert torch.equal(as_bf8.storage, quantize(t.storage, ttnn.bfloat8_b))
    row_major = ttnn.to_layout(t, ttnn.ROW_MAJOR_LAYOUT)
    assert row_major.layout is ttnn.ROW_MAJOR_LAYOUT and row_major.padded_shape == (40, 70)
    assert torch.equal(ttnn.to_torch(row_major), data)
    with pytest.raises(ValueError, match="TILE_LAYOUT"):
        ttnn.to_layout(as_bf8, ttnn.ROW_MAJOR_LAYOUT)
    copy = ttnn.clone(t)
    copy.storage.zero_()
    assert torch.equal(ttnn.to_torch(t), data)


def test_shape_rules_need_no_values():
    bf16_tile = ttnn.TensorType(ttnn.Shape([3, 64, 96]), ttnn.bfloat16, ttnn.TILE_LAYOUT)
    b = ttnn.TensorType(ttnn.Shape([32, 96]), ttnn.bfloat16, ttnn.TILE_LAYOUT)
    result = ops.matmul_p.result_type(bf16_tile, b, transpose_a=False, transpose_b=True, dtype=ttnn.float32)
    assert result == ttnn.TensorType(ttnn.Shape([3, 64, 32]), ttnn.float32, ttnn.TILE_LAYOUT)


def test_every_op_is_a_registered_primitive():
    names = {"add", "subtract", "multiply", "divide", "matmul", "relu", "gelu", "silu", "sigmoid", "tanh", "exp",
             "log", "sqrt", "rsqrt", "reciprocal", "abs", "neg", "square", "sin", "cos", "softmax", "sum", "mean",
             "max", "transpose", "reshape", "typecast", "to_layout", "clone", "all_reduce", "all_gather",
             "pow", "floor_div", "remainder", "squeeze", "repeat", "to_memory_config", "linear",
             "maximum", "minimum", "gt", "lt", "ge", "le", "eq", "ne", "logical_and", "logical_or", "logical_not",
             "clamp", "where", "permute", "concat", "slice", "pad", "interleaved_to_sharded",
             "sharded_to_interleaved", "reshard", "tilize", "untilize", "embedding", "layer_norm", "rms_norm",
             "rms_norm_pre_all_gather", "rms_norm_post_all_gather", "split_heads", "join_heads",
             "scaled_dot_product_attention", "scaled_dot_product_attention_decode", "rotary_embedding",
             "rotary_embedding_llama", "argmax", "topk", "upsample", "fold", "avg_pool2d", "attn_matmul",
             "group_attn_matmul", "group_norm", "conv2d"}
    assert set(ttnn.PRIMITIVES) == names
    assert all(repr(p) == f"ttnn.{name}" for name, p in ttnn.PRIMITIVES.items())


def test_rule_table_for_other_layers():
    costs: ttnn.RuleTable = ttnn.RuleTable("cost rule")

    @costs.register(ops.add_p)
    def add_cost(a, b):
        return 1

    assert costs[ops.add_p] is add_cost and ops.add_p in costs and ops.matmul_p not in costs
    assert ops.matmul_p in costs.missing() and ops.add_p not in costs.missing()
    with pytest.raises(LookupError, match="no cost rule is registered for ttnn.matmul"):
        costs[ops.matmul_p]
    with pytest.raises(ValueError, match="already has a cost rule"):
        costs.register(ops.add_p)(add_cost)


def test_binary_ops_fuse_activations_on_their_operands_and_result():
    """The gated MLP's product: silu(gate) * up in one op, and a relu on a sum."""
    gate, up = torch.randn(32, 64), torch.randn(32, 64)
    fused = ttnn.mul(tile(gate), tile(up), input_tensor_a_activations=[ttnn.UnaryOpType.SILU])
    check(fused, F.silu(golden(gate)) * golden(up))
    check(ttnn.add(tile(gate), tile(up), activations=["relu"]), torch.relu(golden(gate) + golden(up)))
    check(ttnn.subtract(tile(gate), 1.0, input_tensor_b_activations=[ttnn.UnaryWithParam(ttnn.UnaryOpType.RELU)]),
          golden(gate) - 1.0)
    with pytest.raises(ValueError, match="unknown activation 'swish'"):
        ttnn.mul(tile(gate), tile(up), activations=["swish"])
    with pytest.raises(TypeError, match="an activation is a name"):
        ttnn.mul(tile(gate), tile(up), activations=[3])
