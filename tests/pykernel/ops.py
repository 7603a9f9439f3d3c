"""PyKernelOps the PyKernel host tests run (a real file: kernels are read with inspect)."""

import tilecraft.ttnn as ttnn
from tilecraft.pykernel import *


@reader_thread()
def strided_reader(cb_in: CircularBuffer, src_addr, num_tiles, first):
    """Reads this core's tiles, the last one first: integer arithmetic and branches on the device."""
    s = get_interleaved_addr_gen_fast(True, src_addr, get_tile_size(cb_in), get_dataformat(cb_in))
    tile: int = first + num_tiles - 1
    for i in range(num_tiles):
        cb_reserve_back(cb_in, 1)
        noc_async_read_page(tile, s, get_write_ptr(cb_in))
        noc_async_read_barrier()
        cb_push_back(cb_in, 1)
        tile -= 1


@compute_thread()
def scale(cb_in: CircularBuffer, cb_out: CircularBuffer, num_tiles, negate: CompileTimeValue):
    init_sfpu(cb_in, cb_out)
    copy_init(cb_in)
    for i in range(num_tiles):
        cb_wait_front(cb_in, 1)
        tile_regs_acquire()
        copy_tile(cb_in, 0, 0)
        if negate:
            negative_tile_init()
            negative_tile(0)
        tile_regs_commit()
        cb_reserve_back(cb_out, 1)
        tile_regs_wait()
        pack_tile(0, cb_out, 0)
        tile_regs_release()
        cb_push_back(cb_out, 1)
        cb_pop_front(cb_in, 1)


@writer_thread()
def reversed_writer(cb_out: CircularBuffer, dst_addr, num_tiles, first):
    """Writes the tiles back in the order the reader read them (so the tensor comes out unchanged)."""
    args = TensorAccessorArgs(1)
    s = TensorAccessor(args, dst_addr, get_tile_size(cb_out))
    for i in range(num_tiles):
        cb_wait_front(cb_out, 1)
        noc_async_write_page(first + num_tiles - 1 - i, s, get_read_ptr(cb_out))
        noc_async_write_barrier()
        cb_pop_front(cb_out, 1)


class RowsOp(PyKernelOp):
    """-x (or x) over a [32, 32 * tiles] tensor, tiles split evenly over a row of cores."""

    def __init__(self, cores=2, negate=True):
        super().__init__()
        self.cores = cores
        self.negate = negate

    def define_core_ranges(self, tensors, options):
        return ttnn.CoreRangeSet([ttnn.CoreRange(ttnn.CoreCoord(0, 0), ttnn.CoreCoord(self.cores - 1, 0))])

    def invoke(self, x, y):
        cb_in = self.create_cb(x, 0)
        cb_out = self.create_cb(y, 1)
        per_core = x.volume() // 1024 // self.cores
        first = [[[core * per_core]] for core in range(self.cores)]
        kernels = [
            self.create_kernel(strided_reader, cb_in, x.buffer_address(), per_core, first),
            self.create_kernel(scale, cb_in, cb_out, per_core, negate=self.negate),
            self.create_kernel(reversed_writer, cb_out, y.buffer_address(), per_core, first,
                               tensor_accessor_configs=[y]),
        ]
        return self.create_program(kernels, [cb_in, cb_out])
