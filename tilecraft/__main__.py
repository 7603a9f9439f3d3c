"""``python -m tilecraft`` is the ``tilecraft`` command."""

import sys

from .cli import main

sys.exit(main())
