from onecore import OneCoreOp, launch
from tilecraft.pykernel import *


@compute_thread()
def compute(cb_in: CircularBuffer, cb_out: CircularBuffer, num_tiles):
    init_sfpu(cb_in, cb_out)
    try:  # ERROR-HERE
        tile_regs_acquire()
    finally:
        tile_regs_release()


class Op(OneCoreOp):
    compute = compute


launch(Op)
