"""Tensors made from shapes: defaults, values, placement and the *_like forms."""

from __future__ import annotations

import pytest
import torch

import tilecraft.ttnn as ttnn
from tilecraft.diagnostics import DiagnosticWarning
from tilecraft.ttnn.capacity import device_bytes


def test_rand_defaults_to_bfloat16_tiles_in_range():
    torch.manual_seed(0)
    t = ttnn.rand((40, 70))
    assert t.dtype is ttnn.bfloat16 and t.layout is ttnn.TILE_LAYOUT and t.padded_shape == (64, 96)
    values = ttnn.to_torch(t)
    assert values.min() >= 0 and values.max() <= 1 and values.unique().numel() > 100
    assert torch.count_nonzero(t.storage[40:]) == 0
    shifted = ttnn.to_torch(ttnn.rand([32, 32], low=-3.0, high=-2.0))
    assert shifted.min() >= -3 and shifted.max() <= -2


def test_rand_seed_and_torch_seed_repeat():
    assert torch.equal(ttnn.to_torch(ttnn.rand((32, 32), seed=7)), ttnn.to_torch(ttnn.rand((32, 32), seed=7)))
    torch.manual_seed(3)
    first = ttnn.to_torch(ttnn.rand((32, 32)))
    torch.manual_seed(3)
    assert torch.equal(first, ttnn.to_torch(ttnn.rand((32, 32))))


def test_filled_tensors_default_to_bfloat16_tile_layout():
    for t, value in [(ttnn.zeros((3, 5)), 0), (ttnn.ones([3, 5]), 1), (ttnn.full((3, 5), 2.5), 2.5),
                     (ttnn.empty((3, 5)), 0)]:
        assert t.dtype is ttnn.bfloat16 and t.layout is ttnn.TILE_LAYOUT and t.shape == (3, 5)
        assert t.layout_defaulted_at is not None
        assert ttnn.to_torch(t).eq(value).all()


def test_integer_fill_values_stay_exact():
    t = ttnn.full((2, 2), 2**31 - 1, dtype=ttnn.int32)
    assert ttnn.to_torch(t).eq(2**31 - 1).all()


def test_like_forms_copy_the_reference():
    device = ttnn.open_device(device_id=0)
    ref = ttnn.from_torch(torch.randn(40, 70), dtype=ttnn.bfloat8_b, layout=ttnn.TILE_LAYOUT, device=device,
                          memory_config=ttnn.L1_MEMORY_CONFIG)
    for t, value in [(ttnn.zeros_like(ref), 0), (ttnn.ones_like(ref), 1), (ttnn.full_like(ref, 4.0), 4),
                     (ttnn.empty_like(ref), 0)]:
        assert (t.shape, t.dtype, t.layout, t.device()) == (ref.shape, ttnn.bfloat8_b, ttnn.TILE_LAYOUT, device)
        assert t.memory_config() == ttnn.L1_MEMORY_CONFIG and ttnn.to_torch(t).eq(value).all()
    assert ttnn.zeros_like(ref, dtype=ttnn.float32).dtype is ttnn.float32


def test_allocate_tensor_on_device():
    device = ttnn.open_device(device_id=0)
    t = ttnn.allocate_tensor_on_device(ttnn.Shape([64, 64]), ttnn.bfloat16, ttnn.TILE_LAYOUT, device,
                                       ttnn.DRAM_MEMORY_CONFIG)
    assert t.device() is device and t.shape == (64, 64) and isinstance(t.buffer_address(), int)
    with pytest.raises(TypeError, match="needs a device"):
        ttnn.allocate_tensor_on_device((64, 64), ttnn.bfloat16, ttnn.TILE_LAYOUT, None)


def test_creation_on_a_mesh_gives_one_tensor_per_device():
    mesh = ttnn.open_mesh_device(ttnn.MeshShape(1, 4))
    t = ttnn.zeros((32, 32), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=mesh)
    assert t.is_mesh and len({id(d.storage) for d in t.device_tensors()}) == 4
    like = ttnn.ones_like(t)
    assert like.is_mesh and like.device() is mesh and ttnn.to_torch(like.device_tensors()[3]).eq(1).all()


def test_creation_errors():
    with pytest.raises(TypeError, match="ttnn.bfloat16"):
        ttnn.zeros((2, 2), dtype=torch.float64)
    with pytest.raises(TypeError, match="sequence of ints"):
        ttnn.zeros((2.5, 2))
    with pytest.raises(TypeError, match="reference"):
        ttnn.zeros_like(torch.zeros(2))


def test_torch_dtypes_are_taken_as_the_published_simulator_takes_them():
    """1.1.6's ttnn.float32 is torch.float32, so its programs pass torch dtypes; real ttnn does not
    take them, hence the warning at the call."""
    with pytest.warns(DiagnosticWarning, match=r"W0502.*dtype=torch.float32 is taken as ttnn.float32"):
        t = ttnn.empty((32, 64), dtype=torch.float32, layout=ttnn.TILE_LAYOUT)
    assert t.dtype is ttnn.float32 and t.shape == (32, 64)
    with pytest.warns(DiagnosticWarning, match="W0502"):
        u = ttnn.from_torch(torch.ones(32, 32), dtype=torch.bfloat16, layout=ttnn.TILE_LAYOUT)
    assert u.dtype is ttnn.bfloat16


def test_rand_never_reaches_high_in_the_target_format():
    """Uniform fp32 draws just below 1 round to 1.0 in bfloat16; ttnn.rand samples [low, high) in
    the tensor's format, so those become the largest value below ``high``."""
    torch.manual_seed(0)
    for dtype in (ttnn.bfloat16, ttnn.bfloat8_b, ttnn.float32):
        values = ttnn.to_torch(ttnn.rand((256, 256), dtype=dtype, layout=ttnn.TILE_LAYOUT)).float()
        assert values.min() >= 0 and values.max() < 1, dtype
    top = ttnn.to_torch(ttnn.rand((512, 512), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)).float().max()
    assert top == 1 - 2 ** -8  # the largest bfloat16 below 1 is drawn (2**18 draws, 1/256 of them round up)
    shifted = ttnn.to_torch(ttnn.rand((256, 256), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, low=-3.0, high=-2.0))
    assert shifted.min() >= -3 and shifted.max() < -2


@pytest.mark.parametrize("arch, dram", [("wormhole_b0", "12 GiB"), ("blackhole", "32 GiB")])
def test_a_tensor_beyond_a_chips_dram_is_refused_before_it_is_allocated(arch: str, dram: str) -> None:
    """The limit is the DRAM of one chip of the device's architecture (tilecraft/arch)."""
    from tilecraft import session
    with session.using(arch=arch):
        device = ttnn.open_device(0)
        try:
            for make in (lambda: ttnn.zeros((2**31, 2**31), device=device),
                         lambda: ttnn.rand((2**31, 2**31), device=device),
                         lambda: ttnn.from_torch(torch.zeros(1).expand(2**31, 2**31), ttnn.bfloat16, device=device)):
                with pytest.raises(ValueError, match=f"takes 8 EiB .* more than the {dram} of DRAM of a {arch} chip"):
                    make()
            # 1 GiB of tiles fits either chip: only its shape is checked, nothing else changes
            assert device_bytes(ttnn.Shape((2**14, 2**15)), ttnn.bfloat16, ttnn.TILE_LAYOUT) == 2**30
        finally:
            ttnn.close_device(device)
