# reduce_init's PoolType and ReduceDim are template arguments in 0.81.1: reduce_init[PoolType.SUM, ...](...).
from onecore import OneCoreOp, launch
from tilecraft.pykernel import *


@compute_thread()
def compute(cb_in: CircularBuffer, cb_out: CircularBuffer, num_tiles):
    compute_kernel_hw_startup(cb_in, cb_in, cb_out)
    reduce_init(cb_in, cb_in, cb_out)  # ERROR-HERE


class Op(OneCoreOp):
    compute = compute


launch(Op)
