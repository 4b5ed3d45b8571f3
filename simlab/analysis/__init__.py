"""Statistics with uncertainty over stored results (intervals, sequential tests, ...)."""
