from onecore import OneCoreOp, launch
from tilecraft.pykernel import *


class Op(OneCoreOp):
    def invoke(self, x, y):
        cb_in = self.create_cb(x, 0)
        cb_out = self.create_cb(y, 16)
        tiles = x.volume() // 1024
        kernels = [
            self.create_kernel(self.reader, cb_in, x.buffer_address(), tiles),
            self.create_kernel(self.compute, cb_in, cb_out, tiles),
            self.create_kernel(self.writer, cb_out, y.buffer_address()),  # ERROR-HERE
        ]
        return self.create_program(kernels, [cb_in, cb_out])


launch(Op)
