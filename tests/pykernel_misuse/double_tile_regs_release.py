# Seed 000's VecAdd compute kernel, as the seed writes it: DST is released twice per tile.
from onecore import OneCoreOp, launch
from tilecraft.pykernel import *


@compute_thread()
def compute(cb_in: CircularBuffer, cb_out: CircularBuffer, num_tiles):
    compute_kernel_hw_startup(cb_in, cb_in, cb_out)
    add_init(cb_in, cb_in)
    dst_reg = 0
    for i in range(0, num_tiles, 1):
        cb_wait_front(cb_in, 1)
        tile_regs_acquire()
        add_tiles(cb_in, cb_in, 0, 0, dst_reg)
        tile_regs_commit()

        cb_reserve_back(cb_out, 1)
        tile_regs_wait()
        pack_tile(dst_reg, cb_out, 0)
        tile_regs_release()

        cb_push_back(cb_out, 1)
        cb_pop_front(cb_in, 1)
        tile_regs_release()  # ERROR-HERE


class Op(OneCoreOp):
    compute = compute


launch(Op)
