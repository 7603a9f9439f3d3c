"""ttnn.Tensor: from_torch/to_torch round trips, tile padding, storage, placement and printing."""

from __future__ import annotations

import pytest
import torch

import tilecraft.ttnn as ttnn
from tilecraft.numerics import quantize


def test_bfloat16_round_trip_is_exact(device):
    data = torch.randn(64, 96, dtype=torch.bfloat16)
    t = ttnn.from_torch(data, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device,
                        memory_config=ttnn.DRAM_MEMORY_CONFIG)
    back = ttnn.to_torch(t)
    assert back.dtype == torch.bfloat16
    assert torch.equal(back, data)


def test_float32_round_trip_is_exact(device):
    data = torch.randn(3, 40, 50)
    back = ttnn.to_torch(ttnn.from_torch(data, layout=ttnn.TILE_LAYOUT, device=device))
    assert back.dtype == torch.float32
    assert torch.equal(back, data)


def test_float32_data_rounds_into_bfloat16():
    data = torch.tensor([[1.0 + 2**-10, 3.0]])
    back = ttnn.to_torch(ttnn.from_torch(data, dtype=ttnn.bfloat16))
    assert back.dtype == torch.bfloat16
    assert back.tolist() == [[1.0, 3.0]]  # 1 + 2**-10 is below bf16's resolution at 1


def test_bfloat8_b_values_are_quantized_with_shared_exponents():
    data = torch.randn(64, 64) * torch.logspace(-3, 3, 64)  # spread magnitudes within groups
    t = ttnn.from_torch(data, dtype=ttnn.bfloat8_b, layout=ttnn.TILE_LAYOUT)
    back = ttnn.to_torch(t)
    assert back.dtype == torch.bfloat16
    assert torch.equal(back, quantize(data, ttnn.bfloat8_b))
    assert not torch.equal(back.float(), data)  # quantisation did change values


def test_bfloat8_b_exponent_groups_include_the_tile_padding():
    data = torch.randn(40, 20)
    padded = torch.zeros(64, 32)
    padded[:40, :20] = data
    t = ttnn.from_torch(data, dtype=ttnn.bfloat8_b, layout=ttnn.TILE_LAYOUT)
    assert torch.equal(t.storage, quantize(padded, ttnn.bfloat8_b))


def test_tile_layout_pads_last_two_dims_with_zeros():
    data = torch.rand(100, 70, dtype=torch.bfloat16) + 1  # no zeros in the data itself
    t = ttnn.from_torch(data, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
    assert t.shape == (100, 70) and t.shape == [100, 70]
    assert t.padded_shape == (128, 96)
    assert t.storage.shape == (128, 96) and t.storage.dtype == torch.bfloat16 and t.storage.is_contiguous()
    assert torch.count_nonzero(t.storage[100:, :]) == 0
    assert torch.count_nonzero(t.storage[:, 70:]) == 0
    assert torch.equal(ttnn.to_torch(t), data)


def test_pad_value_fills_the_padding():
    t = ttnn.from_torch(torch.zeros(30, 30), layout=ttnn.TILE_LAYOUT, pad_value=-1.0)
    assert t.storage[31, 31].item() == -1.0 and t.storage[29, 29].item() == 0.0


@pytest.mark.parametrize(("shape", "padded"), [((5,), (32, 32)), ((), (32, 32)), ((2, 3, 33, 1), (2, 3, 64, 32))])
def test_padded_shape_of_other_ranks(shape, padded):
    data = torch.arange(torch.Size(shape).numel(), dtype=torch.float32).reshape(shape)
    t = ttnn.from_torch(data, layout=ttnn.TILE_LAYOUT)
    assert t.padded_shape == padded and t.storage.shape == padded
    assert torch.equal(ttnn.to_torch(t), data)


def test_tile_layout_is_the_default_as_in_the_published_simulator():
    t = ttnn.from_torch(torch.ones(3, 5))
    assert t.layout is ttnn.TILE_LAYOUT and t.padded_shape == (32, 32) and t.dtype is ttnn.float32
    assert t.layout_defaulted_at is not None and t.layout_defaulted_at.file == __file__  # this line, for W0501
    explicit = ttnn.from_torch(torch.ones(3, 5), layout=ttnn.ROW_MAJOR_LAYOUT)
    assert explicit.padded_shape == (3, 5) and explicit.layout_defaulted_at is None


def test_the_published_constructor_copies_a_torch_tensor_as_from_torch_does():
    """``ttnn.Tensor(t)``, as programs for the published simulator make tensors (issue 22, 5d)."""
    data = torch.arange(3 * 5, dtype=torch.float32).reshape(3, 5)
    t = ttnn.Tensor(data)
    assert t.layout is ttnn.TILE_LAYOUT and t.dtype is ttnn.float32 and t.padded_shape == (32, 32)
    assert t.layout_defaulted_at is not None and t.layout_defaulted_at.file == __file__  # this line, for W0501
    data.fill_(7.0)
    assert torch.equal(ttnn.to_torch(t), torch.arange(3 * 5, dtype=torch.float32).reshape(3, 5))
    rounded = ttnn.Tensor(torch.full((2, 4), 1.0 + 2 ** -10), dtype=ttnn.bfloat16, layout=ttnn.ROW_MAJOR_LAYOUT)
    assert rounded.padded_shape == (2, 4) and rounded.layout_defaulted_at is None
    assert torch.equal(ttnn.to_torch(rounded), torch.ones(2, 4, dtype=torch.bfloat16))
    with pytest.raises(TypeError, match="ttnn.Tensor takes a torch.Tensor, got list"):
        ttnn.Tensor([1.0, 2.0])


def test_default_dtype_follows_the_torch_dtype():
    assert ttnn.from_torch(torch.zeros(2, dtype=torch.float64)).dtype is ttnn.float32
    assert ttnn.from_torch(torch.zeros(2, dtype=torch.int64)).dtype is ttnn.int32
    assert ttnn.DataType.BFLOAT16 is ttnn.bfloat16 and isinstance(ttnn.bfloat8_b, ttnn.DataType)


def test_storage_is_a_copy_of_the_torch_data():
    data = torch.ones(32, 32)
    t = ttnn.from_torch(data, dtype=ttnn.float32, layout=ttnn.TILE_LAYOUT)
    t.storage.fill_(5.0)
    assert data.max().item() == 1.0
    out = ttnn.to_torch(t)
    out.fill_(7.0)
    assert t.storage.max().item() == 5.0


def test_simulator_writes_to_storage_show_in_to_torch(device):
    y = ttnn.from_torch(torch.zeros(64, 64), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device)
    y.storage[:32, :32] = 2.0
    assert ttnn.to_torch(y)[:32, :32].eq(2.0).all() and ttnn.to_torch(y)[32:].eq(0).all()


def test_errors_name_the_fix():
    with pytest.raises(TypeError, match="ttnn.bfloat16"):
        ttnn.from_torch(torch.zeros(2, 2), dtype=torch.int64)
    with pytest.raises(ValueError, match="TILE_LAYOUT"):
        ttnn.from_torch(torch.zeros(2, 32), dtype=ttnn.bfloat8_b, layout=ttnn.ROW_MAJOR_LAYOUT)
    with pytest.raises(TypeError, match="torch.Tensor"):
        ttnn.from_torch([1.0, 2.0])
    with pytest.raises(TypeError, match="ttnn.Tensor"):
        ttnn.to_torch(torch.zeros(2))
    with pytest.raises(TypeError, match="layout"):
        ttnn.from_torch(torch.zeros(2), layout="TILE")


def test_placement_shares_storage_and_keeps_a_stable_address(device):
    host = ttnn.from_torch(torch.ones(32, 32), layout=ttnn.TILE_LAYOUT)
    assert host.device() is None
    with pytest.raises(ValueError, match="host tensor"):
        host.buffer_address()
    on_device = host.to(device)
    assert on_device.device() is device and on_device.storage is host.storage
    assert on_device.buffer_address() == on_device.buffer_address()
    other = ttnn.to_device(host, device)
    assert other.buffer_address() != on_device.buffer_address()
    assert on_device.to(device) is on_device
    back = ttnn.from_device(on_device)
    assert back.device() is None and back.storage is host.storage
    assert on_device.cpu().device() is None


def test_closed_device_is_rejected():
    dev = ttnn.open_device(device_id=1)
    ttnn.close_device(dev)
    with pytest.raises(ValueError, match="closed"):
        ttnn.from_torch(torch.ones(2), device=dev)


def test_reported_attributes(device):
    t = ttnn.from_torch(torch.ones(2, 64), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device,
                        memory_config=ttnn.L1_MEMORY_CONFIG)
    assert t.get_dtype() is ttnn.bfloat16 and t.get_layout() is ttnn.TILE_LAYOUT
    assert t.memory_config() == ttnn.L1_MEMORY_CONFIG and t.volume() == 128
    assert not t.is_mesh and t.device_tensors() == [t]
    assert torch.equal(t.to_torch(), torch.ones(2, 64, dtype=torch.bfloat16))
    assert t.to_torch(dtype=torch.float32).dtype == torch.float32


def test_repr_looks_like_ttnn():
    text = repr(ttnn.from_torch(torch.tensor([[1.5, 2.0]]), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT))
    assert text.startswith("ttnn.Tensor([[1.5, 2. ]]")
    assert text.endswith("shape=Shape([1, 2]), dtype=DataType.BFLOAT16, layout=Layout.TILE)")


def test_shape_behaves_like_a_tuple():
    shape = ttnn.Shape([128, 64, 32])
    assert shape == (128, 64, 32) and shape == [128, 64, 32] and shape != [1]
    assert shape[0] == 128 and shape[-1] == 32 and shape[1:] == ttnn.Shape([64, 32])
    assert len(shape) == shape.rank == 3 and shape.volume() == 128 * 64 * 32
    assert shape == torch.Size([128, 64, 32]) and hash(shape) == hash((128, 64, 32))
    assert repr(shape) == "Shape([128, 64, 32])"
    with pytest.raises(ValueError):
        ttnn.Shape([-1])


def test_operators_and_reshape_method():
    a = ttnn.from_torch(torch.full((2, 6), 3.0))
    b = ttnn.from_torch(torch.full((2, 6), 2.0))
    assert ttnn.to_torch(a + b).eq(5).all() and ttnn.to_torch(a - b).eq(1).all()
    assert ttnn.to_torch(a * 2).eq(6).all() and ttnn.to_torch(1 - a).eq(-2).all()
    assert ttnn.to_torch(6 / b).eq(3).all() and ttnn.to_torch(-a).eq(-3).all()
    assert ttnn.to_torch(a @ ttnn.reshape(b, (6, 2))).eq(36).all()
    assert a.reshape(3, 4).shape == (3, 4) and a.reshape((12,)).shape == (12,)
    assert len({a, b}) == 2  # tensors hash by identity
