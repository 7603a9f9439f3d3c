"""ttnn ops on their real kernels: at ``--level cpp``, the ttnn calls whose 0.81.1 kernels the
emulator runs execute those kernels, taken unchanged from the ttnn wheel, through hosts written as
ttnn's program factories write them (``generic_op`` programs); the rest run as at the language
level, and the run says which (``registry.render``; docs/ttnn.md, "ttnn ops on the wheel's kernels").

Importing the package registers the hosts and installs :func:`registry.dispatch` into the
primitives' ``bind``.
"""

from .. import primitives
from . import eltwise, layout, matmul, norms, reduce  # noqa: F401  (each registers its hosts)
from .registry import HOSTS, KernelHost, Tally, dispatch, render, tallied

primitives.set_kernel_dispatch(dispatch)

__all__ = ["HOSTS", "KernelHost", "Tally", "dispatch", "render", "tallied"]
