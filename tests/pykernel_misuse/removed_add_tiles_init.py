from onecore import OneCoreOp, launch
from tilecraft.pykernel import *


@compute_thread()
def compute(cb_in: CircularBuffer, cb_out: CircularBuffer, num_tiles):
    compute_kernel_hw_startup(cb_in, cb_in, cb_out)
    add_tiles_init(cb_in, cb_in)  # ERROR-HERE


class Op(OneCoreOp):
    compute = compute


launch(Op)
