# TensorAccessorArgs(1) reads compile-time args 1 and 2, but create_kernel was given no tensor for them.
from onecore import OneCoreOp, launch
from tilecraft.pykernel import *


@writer_thread()
def writer(cb_out: CircularBuffer, dst_addr, num_tiles):
    args = TensorAccessorArgs(1)  # ERROR-HERE
    s = TensorAccessor(args, dst_addr, get_tile_size(cb_out))
    for i in range(num_tiles):
        cb_wait_front(cb_out, 1)
        noc_async_write_page(i, s, get_read_ptr(cb_out))
        noc_async_write_barrier()
        cb_pop_front(cb_out, 1)


class Op(OneCoreOp):
    writer = writer


launch(Op)
