from onecore import OneCoreOp, launch
from tilecraft.pykernel import *


def tile_offset(i):
    return i * 2048


@reader_thread()
def reader(cb_in: CircularBuffer, src_addr, num_tiles):
    for i in range(num_tiles):
        cb_reserve_back(cb_in, 1)
        noc_async_read(get_noc_addr(0, 0, src_addr + tile_offset(i)), get_write_ptr(cb_in), 2048)  # ERROR-HERE
        noc_async_read_barrier()
        cb_push_back(cb_in, 1)


class Op(OneCoreOp):
    reader = reader


launch(Op)
