"""The Metalium-level interpreter (``--level metal``): the lowered kernels' calls, simulated in Python."""
