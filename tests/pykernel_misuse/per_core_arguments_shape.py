import ttnn

from onecore import OneCoreOp, launch


class Op(OneCoreOp):
    def define_core_ranges(self, tensors, options):
        return ttnn.CoreRangeSet([ttnn.CoreRange(ttnn.CoreCoord(0, 0), ttnn.CoreCoord(1, 0))])

    def invoke(self, x, y):
        cb_in = self.create_cb(x, 0)
        cb_out = self.create_cb(y, 16)
        per_core_tiles = [[[1]], [[1]], [[1]]]  # three columns for a grid two cores wide
        kernels = [
            self.create_kernel(self.reader, cb_in, x.buffer_address(), per_core_tiles),  # ERROR-HERE
            self.create_kernel(self.compute, cb_in, cb_out, per_core_tiles),
            self.create_kernel(self.writer, cb_out, y.buffer_address(), per_core_tiles),
        ]
        return self.create_program(kernels, [cb_in, cb_out])


launch(Op)
