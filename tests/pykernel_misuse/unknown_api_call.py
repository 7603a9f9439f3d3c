from onecore import OneCoreOp, launch
from tilecraft.pykernel import *


@writer_thread()
def writer(cb_out: CircularBuffer, dst_addr, num_tiles):
    s = get_interleaved_addr_gen_fast(True, dst_addr, get_tile_size(cb_out), get_dataformat(cb_out))
    for i in range(num_tiles):
        cb_wiat_front(cb_out, 1)  # ERROR-HERE
        noc_async_write_page(i, s, get_read_ptr(cb_out))
        noc_async_write_barrier()
        cb_pop_front(cb_out, 1)


class Op(OneCoreOp):
    writer = writer


launch(Op)
