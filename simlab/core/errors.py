"""Errors that carry one clear line for the user."""

from __future__ import annotations


class SimlabError(Exception):
    """Base class: a user-facing error whose message is one line naming what is wrong."""


class DataError(SimlabError):
    """A data file is malformed: the message reads ``file:row: column: what is wrong``."""

    def __init__(self, file: str, row: int | None, column: str | None, what: str) -> None:
        self.file, self.row, self.column, self.what = file, row, column, what
        where = file if row is None else f"{file}:{row}"
        if column:
            where += f": {column}"
        super().__init__(f"{where}: {what}")


class OptionError(SimlabError):
    """An unknown rule option, or a value the option does not allow."""


class PlayerError(SimlabError):
    """A player spec that cannot be resolved, or a player that misbehaved during a game."""


class IllegalActionError(PlayerError):
    """A Python player returned an action that is not legal in the current position."""


class DecisionTimeoutError(PlayerError):
    """A Python player took longer than the per-decision time limit (``decision_timeout``)."""


class Terminated(KeyboardInterrupt):
    """SIGTERM arrived during a run: handled like Ctrl-C (the run is marked ``interrupted``).

    A subclass of KeyboardInterrupt so that every ``except KeyboardInterrupt`` cleanup path
    treats it as an interruption; the CLI exits 143 (128 + SIGTERM) instead of 130.
    """


class RunInterruptedError(SimlabError):
    """A run stopped by Ctrl-C (exit status 130) or SIGTERM (143); the message says how to resume."""

    prefix = "interrupted: "  # how the command line starts the line (a person quitting a game needs none)

    def __init__(self, message: str, exit_code: int = 130) -> None:
        super().__init__(message)
        self.exit_code = exit_code
