"""EmitMetal: lower the IR to TT-Metalium calls and print C++ kernels and hosts (tt-metal 0.81.1)."""
