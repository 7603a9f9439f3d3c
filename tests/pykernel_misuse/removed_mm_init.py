from onecore import OneCoreOp, launch
from tilecraft.pykernel import *


@compute_thread()
def compute(cb_in: CircularBuffer, cb_out: CircularBuffer, num_tiles):
    mm_init(cb_in, cb_in, cb_out, 0)  # ERROR-HERE


class Op(OneCoreOp):
    compute = compute


launch(Op)
