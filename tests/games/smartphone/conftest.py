"""Shared set-up for the Smartphone Inc. tests: makes ``smartphone_helpers`` importable."""

from __future__ import annotations

import sys
from pathlib import Path

_HERE = str(Path(__file__).resolve().parent)
if _HERE not in sys.path:
    sys.path.insert(0, _HERE)
