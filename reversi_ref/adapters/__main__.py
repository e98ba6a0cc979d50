"""`python -m reversi_ref.adapters` runs the reference adapter."""

from __future__ import annotations

import sys

from .reference import main

sys.exit(main())
