"""``ttexalens.context.Context`` for the suite's type hints."""

from tilecraft.emu.llk_suite.device import Context

__all__ = ["Context"]
