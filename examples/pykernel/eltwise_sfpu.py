"""PyKernel: elementwise SFPU exp on one core (seed 000's EltwiseSFPU demo).

The seed's simplest PyKernelOp: it does not override ``define_core_ranges``, so it runs on core
(0, 0). The reader copies the input's tiles from DRAM into a circular buffer one at a time, the
compute kernel copies each tile into DST, applies ``exp`` on the SFPU and packs it out, and the
writer stores the results. The block count and size are ``CompileTimeValue`` parameters (folded
into the compute kernel); the tile count and first tile are ints (common runtime arguments).

0.81.1 spells the SFPU setup ``init_sfpu(cb_in, cb_out)`` and the copy setup ``copy_init(cb_in)``.

Run:  tilecraft run examples/pykernel/eltwise_sfpu.py
"""

import torch
import ttnn

from pykernel.kernel_ast import *
from pykernel.op import PyKernelOp
from pykernel.kernel_types import *

from tilecraft.testing import comp_pcc

# exp on the emulated SFPU is fp32 exp (within 4 ulp of it, docs/emulator.md) rounded once to
# bfloat16 by the packer, so it differs from torch's bfloat16 exp by at most one bfloat16 step.
PCC_THRESHOLD = 0.9999


class EltwiseSFPUPyKernelOp(PyKernelOp):
    @compute_thread()
    def eltwise_sfpu(
        cb_in: CircularBuffer,
        cb_out: CircularBuffer,
        per_core_block_cnt: CompileTimeValue,
        per_core_block_dim: CompileTimeValue,
    ):
        init_sfpu(cb_in, cb_out)
        copy_init(cb_in)
        for i in range(0, per_core_block_cnt, 1):
            cb_reserve_back(cb_out, per_core_block_dim)
            for j in range(0, per_core_block_dim, 1):
                tile_regs_acquire()
                cb_wait_front(cb_in, 1)

                copy_tile(cb_in, 0, 0)

                exp_tile_init()
                exp_tile(0)

                tile_regs_commit()
                tile_regs_wait()
                pack_tile(0, cb_out, j)

                cb_pop_front(cb_in, 1)
                tile_regs_release()

            cb_push_back(cb_out, per_core_block_dim)
        return

    @writer_thread()
    def writer_unary_interleaved(
        cb_in: CircularBuffer,
        cb_out: CircularBuffer,
        dst_addr,
        num_tiles,
        start_id,
        dst_is_dram: CompileTimeValue,
    ):
        onetile = 1
        tile_bytes = get_tile_size(cb_out)
        dataformat = get_dataformat(cb_out)

        s0 = get_interleaved_addr_gen_fast(dst_is_dram, dst_addr, tile_bytes, dataformat)

        end_id = start_id + num_tiles
        ii: int = start_id
        for i in range(start_id, end_id, onetile):
            cb_wait_front(cb_out, onetile)
            l1_read_addr = get_read_ptr(cb_out)
            noc_async_write_tile(ii, s0, l1_read_addr)
            noc_async_write_barrier()
            cb_pop_front(cb_out, onetile)
            ii += onetile
        return

    @reader_thread()
    def reader_unary_interleaved(
        cb_in: CircularBuffer,
        cb_out: CircularBuffer,
        src_addr,
        num_tiles,
        start_id,
        src_is_dram: CompileTimeValue,
    ):
        onetile = 1
        tile_bytes = get_tile_size(cb_in)
        dataformat = get_dataformat(cb_in)

        s0 = get_interleaved_addr_gen_fast(src_is_dram, src_addr, tile_bytes, dataformat)

        end_id = start_id + num_tiles
        ii: int = start_id
        for i in range(start_id, end_id, onetile):
            cb_reserve_back(cb_in, onetile)
            l1_write_addr = get_write_ptr(cb_in)
            noc_async_read_tile(ii, s0, l1_write_addr)
            noc_async_read_barrier()
            cb_push_back(cb_in, onetile)
            ii += onetile
        return

    def invoke(self, in_tensor, out_tensor, **options):
        cb_in = self.create_cb(in_tensor, 0)
        cb_out = self.create_cb(out_tensor, 1)
        start_id = 0
        is_dram_input = in_tensor.memory_config().buffer_type == ttnn.BufferType.DRAM
        num_tiles = options["num_tiles"]

        kernels = [
            self.create_kernel(
                EltwiseSFPUPyKernelOp.eltwise_sfpu,
                cb_in,
                cb_out,
                per_core_block_cnt=num_tiles,
                per_core_block_dim=1,
            ),
            self.create_kernel(
                EltwiseSFPUPyKernelOp.writer_unary_interleaved,
                cb_in,
                cb_out,
                out_tensor.buffer_address(),
                num_tiles,
                start_id,
                dst_is_dram=is_dram_input,
            ),
            self.create_kernel(
                EltwiseSFPUPyKernelOp.reader_unary_interleaved,
                cb_in,
                cb_out,
                in_tensor.buffer_address(),
                num_tiles,
                start_id,
                src_is_dram=is_dram_input,
            ),
        ]

        return self.create_program(kernels, [cb_in, cb_out])


def main():
    torch.manual_seed(0)
    device = ttnn.open_device(device_id=0)

    num_tiles = 4
    shape = [1, num_tiles, 32, 32]
    data = torch.rand(shape).to(torch.bfloat16) * 4 - 2

    input_tensor = ttnn.from_torch(data, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device,
                                   memory_config=ttnn.DRAM_MEMORY_CONFIG)
    output_tensor = ttnn.allocate_tensor_on_device(ttnn.Shape(shape), ttnn.bfloat16, ttnn.TILE_LAYOUT, device,
                                                   ttnn.DRAM_MEMORY_CONFIG)

    eltwise_exp_op = EltwiseSFPUPyKernelOp()
    output = eltwise_exp_op(input_tensor, output_tensor, num_tiles=num_tiles)

    golden = torch.exp(data.float()).to(torch.bfloat16)
    passed, message = comp_pcc(golden, ttnn.to_torch(output), PCC_THRESHOLD)
    print(f"exp: {message}")
    assert passed, message
    ttnn.close_device(device)


if __name__ == "__main__":
    main()
