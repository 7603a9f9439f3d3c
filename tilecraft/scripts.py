"""Running a user's script the way the published simulator does, for every tool that runs one.

The CLI, the language server's worker and the benchmarks all execute scripts written for the
published TT-Lang, which ``import ttl`` and ``import ttnn``; they also need to tell the script's
frames from tilecraft's own when reporting an error at the user's line.
"""

from __future__ import annotations

import os

from .published_modules import serve_published
from .tune.shipping import prepare_scripts_with

#: frames under this directory are tilecraft's; the others are the user's
PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))


def install_modules() -> None:
    """Serve ``import ttl`` and ``import ttnn`` from tilecraft, as the published simulator does, and
    the published PyKernel's ``pykernel.*`` modules (:mod:`tilecraft.published_modules`); and in every
    process that evaluates a tuning candidate from this script's text (a Dask worker), before it
    runs it."""
    serve_published()
    prepare_scripts_with(install_modules)
