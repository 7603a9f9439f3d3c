"""tilecraft's stand-in for ``ttexalens`` inside the LLK harness (see ../README.md)."""

from . import tt_exalens_init
from .tt_exalens_lib import check_context


class Verbosity:
    """ttexalens' log verbosity switch; the harness has nothing to log, so it only records the level."""

    ERROR = "ERROR"
    WARN = "WARN"
    INFO = "INFO"
    DEBUG = "DEBUG"
    level = ERROR

    @classmethod
    def set(cls, level) -> None:
        cls.level = level


__all__ = ["Verbosity", "check_context", "tt_exalens_init"]
