from onecore import OneCoreOp, launch
from tilecraft.pykernel import *


@writer_thread()
def writer(cb_out: CircularBuffer, dst_addr, num_tiles, dst_is_dram: CompileTimeValue):
    s = get_interleaved_addr_gen_fast(dst_is_dram, dst_addr, get_tile_size(cb_out), get_dataformat(cb_out))
    for i in range(num_tiles):
        cb_wait_front(cb_out, 1)
        noc_async_write_page(i, s, get_read_ptr(cb_out))
        noc_async_write_barrier()
        cb_pop_front(cb_out, 1)


class Op(OneCoreOp):
    def invoke(self, x, y):
        cb_in = self.create_cb(x, 0)
        cb_out = self.create_cb(y, 16)
        tiles = x.volume() // 1024
        kernels = [
            self.create_kernel(self.reader, cb_in, x.buffer_address(), tiles),
            self.create_kernel(self.compute, cb_in, cb_out, tiles),
            self.create_kernel(writer, cb_out, y.buffer_address(), tiles),  # ERROR-HERE
        ]
        return self.create_program(kernels, [cb_in, cb_out])


launch(Op)
