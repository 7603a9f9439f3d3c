from onecore import OneCoreOp, launch
from tilecraft.pykernel import *


@compute_thread()
def compute(cb_in: CircularBuffer, cb_out: CircularBuffer, num_tiles):
    init_sfpu(cb_in, cb_out)
    copy_init(cb_in)
    for i in range(num_tiles):
        cb_wait_front(cb_in, 1)
        tile_regs_acquire()
        copy_tile(cb_in, 0, 8)  # ERROR-HERE
        tile_regs_commit()
        cb_reserve_back(cb_out, 1)
        tile_regs_wait()
        pack_tile(0, cb_out, 0)
        tile_regs_release()
        cb_push_back(cb_out, 1)
        cb_pop_front(cb_in, 1)


class Op(OneCoreOp):
    compute = compute


launch(Op)
