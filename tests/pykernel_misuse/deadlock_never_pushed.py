from onecore import OneCoreOp, launch
from tilecraft.pykernel import *


@reader_thread()
def reader(cb_in: CircularBuffer, src_addr, num_tiles):
    s = get_interleaved_addr_gen_fast(True, src_addr, get_tile_size(cb_in), get_dataformat(cb_in))
    for i in range(num_tiles - 1):  # one tile short
        cb_reserve_back(cb_in, 1)
        noc_async_read_page(i, s, get_write_ptr(cb_in))
        noc_async_read_barrier()
        cb_push_back(cb_in, 1)


@compute_thread()
def compute(cb_in: CircularBuffer, cb_out: CircularBuffer, num_tiles):
    init_sfpu(cb_in, cb_out)
    copy_init(cb_in)
    for i in range(num_tiles):
        cb_wait_front(cb_in, 1)  # ERROR-HERE
        tile_regs_acquire()
        copy_tile(cb_in, 0, 0)
        tile_regs_commit()
        cb_reserve_back(cb_out, 1)
        tile_regs_wait()
        pack_tile(0, cb_out, 0)
        tile_regs_release()
        cb_push_back(cb_out, 1)
        cb_pop_front(cb_in, 1)


class Op(OneCoreOp):
    reader = reader
    compute = compute


launch(Op)
