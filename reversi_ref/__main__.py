"""`python -m reversi_ref`: the command line."""

import sys

from .cli import main

sys.exit(main())
