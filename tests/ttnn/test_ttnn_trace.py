"""Trace capture and replay: ttnn ops, in-place writes and TT-Lang kernels recorded between
begin_trace_capture and end_trace_capture run again, on the inputs' new values, into the same output
tensors, each time execute_trace is called."""

from __future__ import annotations

import pytest
import torch

import tilecraft as ttl
import tilecraft.ttnn as ttnn


def on(device, data: torch.Tensor) -> ttnn.Tensor:
    return ttnn.from_torch(data, dtype=ttnn.float32, layout=ttnn.TILE_LAYOUT, device=device)


@ttl.operation(grid=(1, 1))
def double(a, y):
    a_dfb = ttl.make_dataflow_buffer_like(a, shape=(1, 1), block_count=2)
    y_dfb = ttl.make_dataflow_buffer_like(y, shape=(1, 1), block_count=2)

    @ttl.datamovement()
    def reader():
        with a_dfb.reserve() as blk:
            ttl.copy(a[0, 0], blk).wait()

    @ttl.compute()
    def compute():
        with a_dfb.wait() as x, y_dfb.reserve() as out:
            out.store(x + x)

    @ttl.datamovement()
    def writer():
        with y_dfb.wait() as blk:
            ttl.copy(blk, y[0, 0]).wait()


def test_execute_trace_replays_ops_in_place_writes_and_kernels_on_new_inputs(device):
    x = on(device, torch.ones(32, 32))
    position = ttnn.from_torch(torch.tensor([[0]], dtype=torch.int32), dtype=ttnn.int32, device=device)
    doubled = on(device, torch.zeros(32, 32))
    trace_id = ttnn.begin_trace_capture(device, cq_id=0)
    y = ttnn.multiply(ttnn.add(x, 1.0), 3.0)
    ttnn.add_(y, 1.0)
    double(y, doubled)
    ttnn.plus_one(position)
    ttnn.end_trace_capture(device, trace_id, cq_id=0)
    assert torch.equal(ttnn.to_torch(y), torch.full((32, 32), 7.0))  # the capture ran the calls too
    ttnn.copy_host_to_device_tensor(ttnn.from_torch(torch.full((32, 32), 2.0), dtype=ttnn.float32,
                                                    layout=ttnn.TILE_LAYOUT), x)
    ttnn.execute_trace(device, trace_id, cq_id=0, blocking=True)
    assert torch.equal(ttnn.to_torch(y), torch.full((32, 32), 10.0))
    assert torch.equal(ttnn.to_torch(doubled), torch.full((32, 32), 20.0))
    assert ttnn.to_torch(position).item() == 2
    ttnn.release_trace(device, trace_id)
    with pytest.raises(ValueError, match="is not a trace of this device"):
        ttnn.execute_trace(device, trace_id)


def test_calls_outside_the_capture_or_on_other_devices_are_not_recorded(device):
    x = on(device, torch.ones(32, 32))
    host = ttnn.from_torch(torch.ones(32, 32), dtype=ttnn.float32, layout=ttnn.TILE_LAYOUT)
    trace_id = ttnn.begin_trace_capture(device)
    y = ttnn.neg(x)
    host_result = ttnn.neg(host)
    ttnn.end_trace_capture(device, trace_id)
    z = ttnn.neg(y)
    ttnn.copy_host_to_device_tensor(ttnn.from_torch(torch.full((32, 32), 5.0), dtype=ttnn.float32,
                                                    layout=ttnn.TILE_LAYOUT), x)
    host.overwrite(ttnn.from_torch(torch.full((32, 32), 5.0), dtype=ttnn.float32, layout=ttnn.TILE_LAYOUT))
    ttnn.execute_trace(device, trace_id)
    assert ttnn.to_torch(y)[0, 0] == -5.0 and ttnn.to_torch(z)[0, 0] == 1.0 and ttnn.to_torch(host_result)[0, 0] == -1.0


def test_capture_misuse_is_an_error(device):
    trace_id = ttnn.begin_trace_capture(device)
    with pytest.raises(ValueError, match="already open"):
        ttnn.begin_trace_capture(device)
    with pytest.raises(ValueError, match="still open"):
        ttnn.execute_trace(device, trace_id)
    ttnn.end_trace_capture(device, trace_id)
    with pytest.raises(ValueError, match="no capture is open"):
        ttnn.end_trace_capture(device, trace_id)
    with pytest.raises(TypeError, match="takes a device or mesh device"):
        ttnn.begin_trace_capture("device 0")
