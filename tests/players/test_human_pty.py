"""Terminal play through a pseudo-terminal: ``simlab play`` with a human seat, its screen read and keys typed.

Standard input and output are a real terminal here (``pty.openpty``), so what is tested is what
a person sees: the legend once, the VP of each choice, the quit message and exit status, the
typed-ahead keys discarded (``termios.tcflush``), Smartphone's confirmation of a stop that loses
markers, and a whole seeded Sentient game finished by always choosing option 1.
"""

from __future__ import annotations

import os
import re
import select
import subprocess
import sys
import time

import pytest

pty = pytest.importorskip("pty")

PROMPT = re.compile(r"seat (\d) - (choice|action number) \([^)]*\): $")
STARTUP_S = 240.0  # the first run may compile the kernels
STEP_S = 60.0


def _own_terminal() -> None:
    """In the child: a new session whose controlling terminal is the pty (so Ctrl-C there sends SIGINT)."""
    import fcntl
    import termios

    os.setsid()
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)


class Terminal:
    """``simlab ARGS`` on a pseudo-terminal: read the screen, type keys."""

    def __init__(self, *args: str) -> None:
        master, slave = pty.openpty()
        env = dict(os.environ, COLUMNS="160", LINES="50", TERM="xterm", NO_COLOR="1", PYTHONUNBUFFERED="1")
        self.proc = subprocess.Popen([sys.executable, "-c", "from simlab.cli import main; main()", *args],
                                     stdin=slave, stdout=slave, stderr=slave, env=env, close_fds=True,
                                     preexec_fn=_own_terminal)
        os.close(slave)
        self.fd = master
        self.screen = ""  # everything shown so far, "\r" removed
        self.mark = 0  # where the next expect starts looking

    def _read(self, timeout: float) -> bool:
        ready, _, _ = select.select([self.fd], [], [], timeout)
        if not ready:
            return False
        try:
            data = os.read(self.fd, 65536)
        except OSError:  # the child closed the terminal
            return False
        if not data:
            return False
        self.screen += data.decode("utf-8", "replace").replace("\r", "")
        return True

    def expect(self, pattern: str | re.Pattern, timeout: float = STEP_S) -> re.Match:
        """Wait for ``pattern`` after the last match; returns the match."""
        rx = re.compile(pattern) if isinstance(pattern, str) else pattern
        deadline = time.monotonic() + timeout
        while True:
            m = rx.search(self.screen, self.mark)
            if m:
                self.mark = m.end()
                return m
            left = deadline - time.monotonic()
            if left <= 0 or (not self._read(min(left, 0.5)) and self.proc.poll() is not None
                             and not self._read(0.2)):
                tail = self.screen[-3000:]
                raise AssertionError(f"{rx.pattern!r} not shown within {timeout:.0f}s; the screen ends:\n{tail}")

    def prompt(self, timeout: float = STEP_S) -> str:
        """Wait for the next prompt (at the end of the screen); returns the screen since the last one."""
        start = self.mark
        deadline = time.monotonic() + timeout
        while True:
            m = PROMPT.search(self.screen, self.mark)
            if m and m.end() == len(self.screen):
                self.mark = m.end()
                return self.screen[start: m.end()]
            left = deadline - time.monotonic()
            if left <= 0 or (not self._read(min(left, 0.5)) and self.proc.poll() is not None
                             and not self._read(0.2)):
                raise AssertionError(f"no prompt within {timeout:.0f}s; the screen ends:\n{self.screen[-3000:]}")

    def prompt_or_end(self, timeout: float = STEP_S) -> bool:
        """Wait for the next prompt (True) or the end of the program (False)."""
        deadline = time.monotonic() + timeout
        while True:
            m = PROMPT.search(self.screen, self.mark)
            if m and m.end() == len(self.screen):
                self.mark = m.end()
                return True
            if self.proc.poll() is not None and not self._read(0.2):
                return False
            if time.monotonic() > deadline:
                raise AssertionError(f"no prompt within {timeout:.0f}s; the screen ends:\n{self.screen[-3000:]}")
            self._read(0.5)

    def quiet_for(self, seconds: float) -> str:
        """What the program shows in the next ``seconds`` (it should be waiting for input)."""
        start = len(self.screen)
        deadline = time.monotonic() + seconds
        while (left := deadline - time.monotonic()) > 0:
            self._read(left)
        return self.screen[start:]

    def type(self, keys: str) -> None:
        os.write(self.fd, keys.encode())

    def finish(self, timeout: float = STEP_S) -> int:
        """Read to the end; the exit status."""
        deadline = time.monotonic() + timeout
        while self.proc.poll() is None and time.monotonic() < deadline:
            self._read(0.2)
        while self._read(0.2):
            pass
        return self.proc.wait(timeout=5)

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=10)
        os.close(self.fd)


@pytest.fixture
def terminal():
    opened: list[Terminal] = []

    def start(*args: str) -> Terminal:
        t = Terminal(*args)
        opened.append(t)
        return t

    yield start
    for t in opened:
        t.close()


def _menu(screen: str) -> list[tuple[int, str]]:
    """The numbered entries of the last menu on ``screen``."""
    items = [(int(m.group(1)), m.group(2)) for m in re.finditer(r"^\s+(\d+)\. (.*)$", screen, re.M)]
    last: list[tuple[int, str]] = []
    for k, text in items:
        if k == 1:
            last = []
        last.append((k, text))
    return last


SENTIENT = ("play", "sentient", "--players", "human,greedy", "--seed", "5")


def test_sentient_legend_once_vp_per_choice_and_quit(terminal):
    t = terminal(*SENTIENT)
    first = t.prompt(STARTUP_S)
    assert "How to read the board and the choices" in first
    top = _menu(first)
    assert top and all(re.search(r"\((?:[+-]\d+|[+-]\d+ to [+-]\d+) VP now\)$", text) for _, text in top), top
    buy = next(k for k, text in top if text.startswith("take column"))
    t.type(f"{buy}\n")
    slots = _menu(t.prompt())
    assert all("VP now" in text for _, text in slots)
    t.type("1\n")
    blocks = _menu(t.prompt())
    assert blocks and all(re.search(r"\([+-]\d+ VP now\)$", text) for _, text in blocks), blocks
    t.type("b\n")
    t.prompt()
    t.type("h\n")  # the legend again, on request
    t.expect("How to read the board and the choices")
    t.prompt()
    t.type("q\n")
    status = t.finish()
    tail = t.screen[t.mark:]
    assert "game stopped" in tail
    assert "error" not in tail.lower() and "Traceback" not in t.screen
    assert status == 0
    assert t.screen.count("How to read the board and the choices") == 2  # at the first decision, and on 'h'


def test_ctrl_c_stops_with_status_130(terminal):
    t = terminal(*SENTIENT)
    t.prompt(STARTUP_S)
    t.type("\x03")  # the terminal turns it into SIGINT; no Enter: it must stop the game at once
    status = t.finish()
    assert status == 130
    assert "game stopped" in t.screen[t.mark:] and "Traceback" not in t.screen
    assert "error" not in t.screen[t.mark:].lower()


def test_typed_ahead_keys_are_discarded(terminal):
    """'2' then '1' typed at once: the '1' was typed before the slot menu was shown, so it picks nothing."""
    t = terminal(*SENTIENT)
    top = _menu(t.prompt(STARTUP_S))
    buy = next(k for k, text in top if text.startswith("take column"))
    t.type(f"{buy}\n1\n")
    slots = t.prompt()
    assert "into slot 0" in slots
    later = t.quiet_for(2.0)
    assert "no block" not in later and "into slot" not in later, later  # still waiting: the '1' was dropped
    t.type("2\n")  # typed after the menu was on the screen: it counts
    blocks = t.prompt()
    assert "no block" in blocks and re.search(r"between dice|dice \d,\d ->", blocks)
    t.type("q\n")
    assert t.finish() == 0


def test_whole_sentient_game_choosing_option_1(terminal):
    t = terminal(*SENTIENT)
    assert t.prompt_or_end(STARTUP_S)
    prompts = 0
    while True:
        t.type("1\n")
        prompts += 1
        assert prompts < 200, "the game should end within 200 prompts"
        if not t.prompt_or_end():
            break
    assert t.finish() == 0
    assert "=== Final ===" in t.screen and re.search(r"winners?: seat", t.screen)
    assert t.screen.count("How to read the board and the choices") == 1
    assert "Traceback" not in t.screen and "error" not in t.screen.lower()
    assert prompts >= 15  # 15 decisions for the human seat, 1-3 prompts each


def test_smartphone_stop_research_asks_to_confirm(terminal):
    """The stop that loses research markers comes last and needs its number typed again; 'b' goes back."""
    t = terminal("play", "smartphone", "--players", "human,greedy", "--seed", "2")
    screen = t.prompt(STARTUP_S)
    assert "How to read the board and the choices" in screen
    assert re.search(r"buyers 0:(red<=\d|purple \w+) \[(--|s\d)\]", screen), "map: buyers from position 0"
    for _ in range(150):
        menu = _menu(screen)
        if any("stop researching" in x and "asks to confirm" in x for _, x in menu):
            break
        assert not menu or "lose" not in menu[0][1], f"a losing choice comes first: {menu[0]}"
        t.type("1\n")
        screen = t.prompt()
    else:
        pytest.fail("no research decision with markers to lose within 150 prompts")
    assert re.search(r"row\\col +0 +1", t.screen), "the tablet grids are labelled"
    stop = next(k for k, x in menu if "asks to confirm" in x)
    assert stop == len(menu) and stop > 1
    t.type(f"{stop}\n")
    confirm = t.prompt()
    assert re.search(r"1\. yes, stop researching and lose \d+ unplaced research marker", confirm)
    assert "b back" in confirm
    t.type("b\n")
    again = t.prompt()
    assert any("asks to confirm" in x for _, x in _menu(again))
    t.type(f"{stop}\n")
    t.prompt()
    t.type("1\n")  # confirmed: the markers are lost and the game goes on
    t.prompt()
    assert re.search(r"loses \d+ unplaced research marker", t.screen)
    t.type("q\n")
    assert t.finish() == 0
    assert "game stopped" in t.screen[t.mark:] and "Traceback" not in t.screen
