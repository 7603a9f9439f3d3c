from onecore import OneCoreOp, launch
from tilecraft.pykernel import *


@reader_thread()
def reader(cb_in: CircularBuffer, src_addr, num_tiles):
    s = get_interleaved_addr_gen_fast(True, src_addr, get_tile_size(cb_in), get_dataformat(cb_in))
    for i in range(num_tiles):
        cb_reserve_back(cb_in, 1)
        noc_async_read_page(i, s, get_write_ptr(cb_in))
        cb_push_back(cb_in, 1)  # ERROR-HERE
        noc_async_read_barrier()


class Op(OneCoreOp):
    reader = reader


launch(Op)
