# The published PyKernel matmul demos pass matmul_tiles a transpose flag; 0.81.1 moved it to matmul_init.
from onecore import OneCoreOp, launch
from tilecraft.pykernel import *


@compute_thread()
def compute(cb_in: CircularBuffer, cb_out: CircularBuffer, num_tiles):
    compute_kernel_hw_startup[SrcOrder.Reverse](cb_in, cb_in, cb_out)
    matmul_init(cb_in, cb_in)
    tile_regs_acquire()
    matmul_tiles(cb_in, cb_in, 0, 0, 0, 0)  # ERROR-HERE


class Op(OneCoreOp):
    compute = compute


launch(Op)
