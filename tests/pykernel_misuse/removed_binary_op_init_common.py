from onecore import OneCoreOp, launch
from tilecraft.pykernel import *


@compute_thread()
def compute(cb_in: CircularBuffer, cb_out: CircularBuffer, num_tiles):
    binary_op_init_common(cb_in, cb_in, cb_out)  # ERROR-HERE
    for i in range(num_tiles):
        cb_wait_front(cb_in, 1)
        cb_pop_front(cb_in, 1)


class Op(OneCoreOp):
    compute = compute


launch(Op)
