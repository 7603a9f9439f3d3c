from onecore import OneCoreOp, launch
from tilecraft.pykernel import *


@compute_thread()
def compute(cb_in: CircularBuffer, cb_out: CircularBuffer, num_tiles):
    compute_kernel_hw_startup[SrcOrder.Reversed](cb_in, cb_in, cb_out)  # ERROR-HERE


class Op(OneCoreOp):
    compute = compute


launch(Op)
