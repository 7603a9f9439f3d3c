from onecore import OneCoreOp, launch
from tilecraft.pykernel import *


@compute_thread()
def compute(cb_in: CircularBuffer, cb_out: CircularBuffer, num_tiles):
    compute_kernel_hw_startup(cb_in, cb_in, cb_out)
    add_init(cb_in, cb_in)
    tile_regs_acquire()
    add_tiles(cb_in, cb_in, 0, 0)  # ERROR-HERE


class Op(OneCoreOp):
    compute = compute


launch(Op)
