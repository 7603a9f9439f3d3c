"""The op every PyKernel misuse case runs: one core, reader -> compute -> writer over bfloat16 tiles.

A case subclasses :class:`OneCoreOp` and replaces the kernel it breaks (``reader``, ``compute`` or
``writer``); the others are the correct kernels below, so the diagnostic the case expects is the
only one there is.
"""

import torch
import ttnn

from tilecraft.pykernel import *


@reader_thread()
def tile_reader(cb_in: CircularBuffer, src_addr, num_tiles):
    s = get_interleaved_addr_gen_fast(True, src_addr, get_tile_size(cb_in), get_dataformat(cb_in))
    for i in range(num_tiles):
        cb_reserve_back(cb_in, 1)
        noc_async_read_page(i, s, get_write_ptr(cb_in))
        noc_async_read_barrier()
        cb_push_back(cb_in, 1)


@compute_thread()
def tile_copy(cb_in: CircularBuffer, cb_out: CircularBuffer, num_tiles):
    init_sfpu(cb_in, cb_out)
    copy_init(cb_in)
    for i in range(num_tiles):
        cb_wait_front(cb_in, 1)
        tile_regs_acquire()
        copy_tile(cb_in, 0, 0)
        tile_regs_commit()
        cb_reserve_back(cb_out, 1)
        tile_regs_wait()
        pack_tile(0, cb_out, 0)
        tile_regs_release()
        cb_push_back(cb_out, 1)
        cb_pop_front(cb_in, 1)


@writer_thread()
def tile_writer(cb_out: CircularBuffer, dst_addr, num_tiles):
    s = get_interleaved_addr_gen_fast(True, dst_addr, get_tile_size(cb_out), get_dataformat(cb_out))
    for i in range(num_tiles):
        cb_wait_front(cb_out, 1)
        noc_async_write_page(i, s, get_read_ptr(cb_out))
        noc_async_write_barrier()
        cb_pop_front(cb_out, 1)


class OneCoreOp(PyKernelOp):
    reader = tile_reader
    compute = tile_copy
    writer = tile_writer

    def invoke(self, x, y):
        cb_in = self.create_cb(x, 0)
        cb_out = self.create_cb(y, 16)
        tiles = x.volume() // 1024
        kernels = [
            self.create_kernel(type(self).reader, cb_in, x.buffer_address(), tiles),
            self.create_kernel(type(self).compute, cb_in, cb_out, tiles),
            self.create_kernel(type(self).writer, cb_out, y.buffer_address(), tiles),
        ]
        return self.create_program(kernels, [cb_in, cb_out])


def launch(op_class, tiles=2):
    """Run ``op_class`` on a [32, 32 * tiles] bfloat16 tensor; returns (input, output) as torch."""
    device = ttnn.open_device(device_id=0)
    data = torch.rand(32, 32 * tiles).to(torch.bfloat16)
    x = ttnn.from_torch(data, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device,
                        memory_config=ttnn.DRAM_MEMORY_CONFIG)
    y = ttnn.allocate_tensor_on_device(ttnn.Shape([32, 32 * tiles]), ttnn.bfloat16, ttnn.TILE_LAYOUT, device,
                                       ttnn.DRAM_MEMORY_CONFIG)
    op_class()(x, y)
    return data, ttnn.to_torch(y)
