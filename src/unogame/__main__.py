"""``python -m unogame`` is the ``uno`` command."""

import sys

from .cli import main

sys.exit(main())
