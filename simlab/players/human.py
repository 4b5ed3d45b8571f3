"""``human``: a person plays a seat in the terminal.

The position is rendered and the legal actions are offered with numbers; the player types a
number. When the game's observation offers a ``menu()`` (a tree of choices, e.g. Sentient's
card, then slot, then blocks, then influence), the choice is made step by step and ``b`` goes
back a step; ``human(menu=0)`` lists every legal action at once instead. Anything else is
asked again: ``/text`` filters the list to the entries containing the text, ``?`` shows the
position again, ``q`` stops the game.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from simlab.core.errors import SimlabError
from simlab.core.player import Player

# A menu is a list of (label, choice): a choice is an action code or a further menu.
Menu = list[tuple[str, Any]]


class HumanQuitError(SimlabError):
    """The person chose to stop the game."""


class HumanPlayer(Player):
    """A seat played by a person at the terminal (input and output can be replaced in tests)."""

    name = "human"
    interactive = True  # a person at the terminal: no decision time limit, the log streams as it happens
    spec_params = "menu=1"  # shown by `simlab players`: menu=0 lists every legal action at once

    def __init__(self, input_fn: Callable[[str], str] = input, print_fn: Callable[[str], None] = print,
                 menu: bool = True) -> None:
        self._input = input_fn
        self._print = print_fn
        self._use_menu = bool(menu)

    def choose(self, obs: Any, legal: Sequence[int]) -> int:
        """Show the position and the choices; return the action the person picks."""
        self._print("")
        self._print(obs.render())
        if self._use_menu and callable(getattr(obs, "menu", None)):
            return self._choose_in_menu(obs, obs.menu())
        entries = [(obs.describe(a), a) for a in legal]
        return self._pick(obs, entries, "action number")

    def _choose_in_menu(self, obs: Any, menu: Menu) -> int:
        path: list[Menu] = []
        current = menu
        while True:
            if len(current) == 1 and isinstance(current[0][1], list):
                current = current[0][1]  # a single way on: no need to ask
                continue
            choice = self._pick(obs, current, "choice", can_go_back=bool(path))
            if choice is _BACK:
                current = path.pop()
            elif isinstance(choice, list):
                path.append(current)
                current = choice
            else:
                return int(choice)

    def _pick(self, obs: Any, entries: Sequence[tuple[str, Any]], what: str, can_go_back: bool = False) -> Any:
        shown = list(range(len(entries)))
        self._list(entries, shown)
        back = ", b back" if can_go_back else ""
        while True:
            try:
                answer = self._input(f"seat {obs.seat} - {what} (/filter, ? board{back}, q quit): ").strip()
            except EOFError:
                raise HumanQuitError("input closed: game stopped by the human player") from None
            except KeyboardInterrupt:
                raise HumanQuitError("game stopped by the human player") from None
            if answer in ("q", "quit", "exit"):
                raise HumanQuitError("game stopped by the human player")
            if answer == "?":
                self._print(obs.render())
                continue
            if answer == "b" and can_go_back:
                return _BACK
            if answer.startswith("/"):
                needle = answer[1:].strip().lower()
                shown = [i for i, (label, _) in enumerate(entries) if needle in label.lower()]
                if not shown:
                    self._print(f"nothing matches '{needle}'")
                    shown = list(range(len(entries)))
                self._list(entries, shown)
                continue
            if answer.isascii() and answer.isdecimal() and 1 <= int(answer) <= len(entries):
                return entries[int(answer) - 1][1]
            self._print(f"please type a number from 1 to {len(entries)}, /text to filter, ?{back} or q")

    def _list(self, entries: Sequence[tuple[str, Any]], shown: list[int]) -> None:
        for i in shown:
            self._print(f"  {i + 1:>3}. {entries[i][0]}")


class _Back:
    """Marker: the person asked to go back one step."""


_BACK = _Back()
