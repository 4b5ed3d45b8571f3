"""``human``: a person plays a seat in the terminal.

The position is rendered and the legal actions are offered with numbers; the player types a
number. When the game's observation offers a ``menu()`` (a tree of choices, e.g. Sentient's
card, then slot, then blocks, then influence), the choice is made step by step and ``b`` goes
back a step; ``human(menu=0)`` lists every legal action at once instead. Anything else is
asked again: ``/text`` filters the list to the entries containing the text, ``?`` shows the
position again, ``h`` the legend of the notation (shown by itself at the first decision when
the game's renderer has a ``legend(rules)``), ``q`` stops the game.

Where the observation has ``score_change(a)`` (Sentient), the flat list shows what each
action changes in the seat's VP if the round ended now (the menu's labels carry it already).

A choice that throws something away (Smartphone's "stop researching" with markers left) is
never the first entry of a menu and leads to a one-entry sub-menu: typing its number again
confirms it, ``b`` goes back.

Typed-ahead input never picks an option the player has not seen: when standard input is a
terminal, whatever was typed before a prompt appears is discarded (``termios.tcflush``).

Stopping: ``q`` (or the end of input) ends the game with a :class:`HumanQuitError` whose
exit status is 0 ("game stopped by the human player"); Ctrl-C gives status 130.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from typing import Any

from simlab.core.errors import RunInterruptedError
from simlab.core.player import Player

# A menu is a list of (label, choice): a choice is an action code or a further menu.
Menu = list[tuple[str, Any]]

QUIT_MESSAGE = "game stopped by the human player"


class HumanQuitError(RunInterruptedError):
    """The person chose to stop the game: one line without the word "error"; ``exit_code`` 0 for ``q`` and the
    end of input, 130 for Ctrl-C (the command line exits with it)."""

    prefix = ""  # "game stopped by the human player", not "interrupted: ..."

    def __init__(self, message: str = QUIT_MESSAGE, exit_code: int = 0) -> None:
        super().__init__(message, exit_code)


def flush_typed_ahead(stream: Any = None) -> bool:
    """Discard input typed before now when ``stream`` (default: standard input) is a terminal; True if flushed."""
    stream = sys.stdin if stream is None else stream
    try:
        if not stream.isatty():
            return False
        import termios

        termios.tcflush(stream, termios.TCIFLUSH)
        return True
    except (AttributeError, ValueError, OSError, ImportError):  # closed, replaced or not a real terminal
        return False


def terminal_input(prompt: str = "") -> str:
    """``input()`` that Ctrl-C interrupts at once.

    numpy's BLAS starts native threads, and the kernel may deliver SIGINT to one of them: then
    a plain ``input()`` blocked in the main thread only sees it after Enter. Waiting for the
    line in short ``select`` slices lets Python run its signal handler between them.
    """
    stream = sys.stdin
    try:
        fileno = stream.fileno()
        if not stream.isatty():
            return input(prompt)
    except (AttributeError, ValueError, OSError):  # replaced or closed: no file to wait on
        return input(prompt)
    import select

    sys.stdout.write(prompt)
    sys.stdout.flush()
    while not select.select([fileno], [], [], 0.2)[0]:
        pass
    line = stream.readline()
    if not line:
        raise EOFError
    return line.rstrip("\n")


class HumanPlayer(Player):
    """A seat played by a person at the terminal (input and output can be replaced in tests)."""

    name = "human"
    interactive = True  # a person at the terminal: no decision time limit, the log streams as it happens
    spec_params = "menu=1"  # shown by `simlab players`: menu=0 lists every legal action at once

    def __init__(self, input_fn: Callable[[str], str] = terminal_input, print_fn: Callable[[str], None] = print,
                 menu: bool = True, flush: Callable[[], Any] | None = None) -> None:
        self._input = input_fn
        self._print = print_fn
        self._use_menu = bool(menu)
        # typed-ahead keys are dropped before each prompt; with a replaced input only when asked (``flush``)
        own_terminal = input_fn in (input, terminal_input)
        self._flush = flush if flush is not None else (flush_typed_ahead if own_terminal else None)
        self._legend_shown = False

    def choose(self, obs: Any, legal: Sequence[int]) -> int:
        """Show the position and the choices; return the action the person picks."""
        self._print("")
        self._print(obs.render())
        if not self._legend_shown:
            self._legend_shown = True
            legend = _legend(obs)
            if legend:
                self._print(legend)
        if self._use_menu and callable(getattr(obs, "menu", None)):
            return self._choose_in_menu(obs, obs.menu())
        score = getattr(obs, "score_change", None)
        entries = [(obs.describe(a) + (f"  ({_vp(score(a))} VP now)" if callable(score) else ""), a) for a in legal]
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

    def _ask(self, prompt: str) -> str:
        if self._flush is not None:
            self._flush()  # keys typed before the choices were on the screen pick nothing
        try:
            return self._input(prompt).strip()
        except EOFError:
            raise HumanQuitError(f"{QUIT_MESSAGE} (input closed)") from None
        except KeyboardInterrupt:
            raise HumanQuitError(f"{QUIT_MESSAGE} (Ctrl-C)", 130) from None

    def _pick(self, obs: Any, entries: Sequence[tuple[str, Any]], what: str, can_go_back: bool = False) -> Any:
        shown = list(range(len(entries)))
        self._list(entries, shown)
        back = ", b back" if can_go_back else ""
        legend = ", h legend" if _legend(obs) else ""
        while True:
            answer = self._ask(f"seat {obs.seat} - {what} (/filter, ? board{legend}{back}, q quit): ")
            if answer in ("q", "quit", "exit"):
                raise HumanQuitError()
            if answer == "?":
                self._print(obs.render())
                self._list(entries, shown)
                continue
            if answer == "h" and legend:
                self._print(_legend(obs))
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


def _vp(change: int) -> str:
    return f"{int(change):+d}"


def _legend(obs: Any) -> str:
    """The game's legend of its notation (its renderer's ``legend(rules)``), or ''."""
    renderer = getattr(getattr(obs, "_game", None), "renderer", None)
    legend = getattr(renderer, "legend", None)
    return legend(obs.rules) if callable(legend) else ""


class _Back:
    """Marker: the person asked to go back one step."""


_BACK = _Back()
