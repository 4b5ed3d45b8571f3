"""``human``: a person plays a seat in the terminal.

The position is rendered, the legal actions are listed with numbers, and the player types a
number. Anything else is asked again: ``/text`` filters the list to actions whose
description contains the text, ``?`` shows the position again, ``q`` stops the game.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from simlab.core.errors import SimlabError
from simlab.core.player import Player


class HumanQuitError(SimlabError):
    """The person chose to stop the game."""


class HumanPlayer(Player):
    """A seat played by a person at the terminal (input and output can be replaced in tests)."""

    name = "human"

    def __init__(self, input_fn: Callable[[str], str] = input, print_fn: Callable[[str], None] = print) -> None:
        self._input = input_fn
        self._print = print_fn

    def choose(self, obs: Any, legal: Sequence[int]) -> int:
        """Show the position and the numbered actions; return the one the person picks."""
        self._print("")
        self._print(obs.render())
        shown = list(range(len(legal)))
        self._list(obs, legal, shown)
        while True:
            try:
                answer = self._input(f"seat {obs.seat} - action number (/filter, ? board, q quit): ").strip()
            except EOFError:
                raise HumanQuitError("input closed: game stopped by the human player") from None
            except KeyboardInterrupt:
                raise HumanQuitError("game stopped by the human player") from None
            if answer in ("q", "quit", "exit"):
                raise HumanQuitError("game stopped by the human player")
            if answer == "?":
                self._print(obs.render())
                continue
            if answer.startswith("/"):
                needle = answer[1:].strip().lower()
                shown = [i for i in range(len(legal)) if needle in obs.describe(legal[i]).lower()]
                if not shown:
                    self._print(f"no action matches '{needle}'")
                    shown = list(range(len(legal)))
                self._list(obs, legal, shown)
                continue
            if answer.isascii() and answer.isdecimal() and 1 <= int(answer) <= len(legal):
                return legal[int(answer) - 1]
            self._print(f"please type a number from 1 to {len(legal)}, /text to filter, ? or q")

    def _list(self, obs: Any, legal: Sequence[int], shown: list[int]) -> None:
        for i in shown:
            self._print(f"  {i + 1:>3}. {obs.describe(legal[i])}")
