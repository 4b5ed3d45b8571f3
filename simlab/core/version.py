"""simlab's version, in the lowest layer so that any module (a run's manifest, a trace) can record it."""

__version__ = "0.1.0"
