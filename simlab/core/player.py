"""The player contract and player specs.

A **Python player** is any object with ``choose(obs, legal) -> action``; subclass
:class:`Player` to get a per-game random generator (``self.rng``, seeded from the seat's own
stream) and the optional ``start_game`` hook. ``obs`` is the game's observation of the
current position (``obs.describe(a)`` gives a readable line for any action); ``legal`` is
the list of legal action codes, and the player returns one of them.

A **compiled player** is one of a game's built-in ``@njit`` players, picked by a kind number
and a parameter vector; only those run in the compiled batch loop.

Players are named by spec strings: ``greedy``, ``greedy(pass_below=2)``,
``GAME:investor``, ``path/to/file.py:ClassName`` (optionally ``(...)`` keyword
arguments for the class), and the name of a Python player any game can use, registered in
the entry-point group ``simlab.players`` (simlab's own ``human``; a package of yours adds
``[project.entry-points."simlab.players"] mybot = "mypkg.bots:MyBot"``).

Any spec may start with a short label, ``LABEL=SPEC`` (``nw=my_player.py:Networker(risk=2)``):
the player is then called ``nw`` in every table, report and stored ``player`` column. Without a label,
a player from a file is called by its class name (``Networker(risk=2)``, :func:`file_label`), not its path. A label
is a name (letters, digits, ``_`` and ``-``, not starting with a digit); one label cannot name
two different specs in a line-up.
"""

from __future__ import annotations

import ast
import importlib.util
import re
import sys
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any

import numpy as np

from simlab.core.errors import PlayerError
from simlab.core.game import Game
from simlab.core.hints import did_you_mean


class Player:
    """Base class for Python players: override :meth:`choose`."""

    name = "python"
    rng: np.random.Generator

    def start_game(self, seat: int, n_players: int, seed: int) -> None:
        """Called before each game; ``seed`` comes from the seat's own random stream."""
        self.seat = seat
        self.n_players = n_players
        self.rng = np.random.default_rng(seed)

    def choose(self, obs: Any, legal: Sequence[int]) -> int:
        """Return one of ``legal``."""
        raise PlayerError(f"{type(self).__name__} does not define choose(obs, legal)")


@dataclass
class PlayerSpec:
    """A parsed player spec string."""

    text: str
    source: str  # "builtin" (a game's compiled player or a registered Python player), "file"
    name: str
    params: dict[str, Any] = field(default_factory=dict)
    path: str | None = None
    game: str | None = None
    label: str | None = None  # the short name of ``LABEL=SPEC`` (None: the spec names itself)


@dataclass
class ResolvedPlayer:
    """A player ready to play: compiled (kind + params) or a factory of Python players."""

    label: str
    compiled: bool
    kind: int = -1
    params: np.ndarray | None = None
    factory: Callable[[], Any] | None = None
    interactive: bool = False
    spec: str = ""  # the spec it was resolved from, without its label

    def __post_init__(self) -> None:
        if not self.spec:
            self.spec = self.label

    def make(self) -> Any:
        """A fresh Python player instance (Python players only)."""
        assert self.factory is not None
        return self.factory()


_LABEL_RE = re.compile(r"^\s*(?P<label>[A-Za-z_][\w-]*)\s*=(?!=)\s*(?P<rest>.*)$", re.S)
_SPEC_RE = re.compile(r"^\s*(?P<head>[^()]+?)\s*(?:\((?P<args>.*)\))?\s*$", re.S)


def _parse_args(text: str, spec: str) -> dict[str, Any]:
    if not text or not text.strip():
        return {}
    try:
        call = ast.parse(f"f({text})", mode="eval").body
    except SyntaxError:
        raise PlayerError(f"player '{spec}': cannot read the parameters '({text})'") from None
    if not isinstance(call, ast.Call) or not isinstance(call.func, ast.Name) or call.func.id != "f":
        raise PlayerError(f"player '{spec}': cannot read the parameters '({text})'")
    if call.args:
        raise PlayerError(f"player '{spec}': parameters must be given as name=value")
    out: dict[str, Any] = {}
    for kw in call.keywords:
        if kw.arg is None:
            raise PlayerError(f"player '{spec}': parameters must be given as name=value")
        if kw.arg in out:
            raise PlayerError(f"player '{spec}': parameter '{kw.arg}' is given twice")
        try:
            out[kw.arg] = ast.literal_eval(kw.value)
        except ValueError:
            raise PlayerError(f"player '{spec}': parameter '{kw.arg}' is not a literal value") from None
    return out


def split_label(text: str) -> tuple[str | None, str]:
    """``(label, spec)`` of ``LABEL=SPEC``; ``(None, text)`` when the spec has no label.

    The label is a name followed by ``=`` before anything else, so ``greedy(pass_below=2)`` and
    ``file.py:Class(k=v)``, whose ``=`` sit inside parentheses, have none.
    """
    m = _LABEL_RE.match(text)
    if not m:
        return None, text
    return m.group("label"), m.group("rest")


def parse_player_spec(text: str) -> PlayerSpec:
    """Parse ``name``, ``name(k=v)``, ``game:name`` or ``file.py:Class``, each optionally ``LABEL=``-prefixed."""
    label, body = split_label(text)
    if label is not None:
        if not body.strip():
            raise PlayerError(f"player '{text}': label '{label}' names no player (e.g. {label}=greedy)")
        parsed = parse_player_spec(body)
        if parsed.label is not None:
            raise PlayerError(f"player '{text}': give one label (LABEL=SPEC)")
        parsed.label = label
        return parsed
    m = _SPEC_RE.match(text)
    if not m or not m.group("head"):
        raise PlayerError(f"player '{text}': not a player spec (e.g. greedy, greedy(pass_below=2), my.py:MyPlayer)")
    head = m.group("head").strip()
    params = _parse_args(m.group("args") or "", text)
    if ":" in head:
        left, right = head.rsplit(":", 1)
        if left.endswith(".py") or "/" in left or "\\" in left:
            return PlayerSpec(text.strip(), "file", right, params, path=left)
        return PlayerSpec(text.strip(), "builtin", right, params, game=left)
    return PlayerSpec(text.strip(), "builtin", head, params)


def file_label(parsed: PlayerSpec) -> str:
    """The name an unlabelled player from a file goes by: its class name with the spec's parameters as written
    (``my_player.py:Networker(risk=2)`` is ``Networker(risk=2)``), as a built-in player is ``greedy(pass_below=2)``;
    never its path, which differs between machines and is cut short in tables."""
    args = parsed.text.partition("(")[2]
    return parsed.name.strip() + (f"({args.strip()}" if args.strip() else "")


def _load_class(path: str, class_name: str, spec_text: str) -> type:
    file = Path(path)
    if not file.is_file():
        raise PlayerError(f"player '{spec_text}': file {path} not found")
    module_name = f"simlab_user_{abs(hash(str(file.resolve())))}"
    if module_name in sys.modules:
        module = sys.modules[module_name]
    else:
        loader_spec = importlib.util.spec_from_file_location(module_name, file)
        if loader_spec is None or loader_spec.loader is None:
            raise PlayerError(f"player '{spec_text}': cannot load {path} as Python")
        module = importlib.util.module_from_spec(loader_spec)
        try:
            loader_spec.loader.exec_module(module)
        except SyntaxError as exc:
            raise PlayerError(f"player file {path}:{exc.lineno}: syntax error: {exc.msg}") from None
        except Exception as exc:
            raise PlayerError(f"player file {path}: failed to import: {type(exc).__name__}: {exc}") from None
        sys.modules[module_name] = module
    cls = getattr(module, class_name, None)
    if cls is None:
        classes = [k for k, v in vars(module).items() if isinstance(v, type) and callable(getattr(v, "choose", None))]
        raise PlayerError(f"player file {path}: no class '{class_name}'{did_you_mean(class_name, classes)}")
    if not isinstance(cls, type) or not callable(getattr(cls, "choose", None)):
        raise PlayerError(f"player file {path}: '{class_name}' is not a class with a choose(obs, legal) method")
    return cls


def _parameter_hint(cls: type, kwargs: dict[str, Any]) -> str:
    """"(parameters: ...); did you mean ..." for a keyword argument the class does not take."""
    import inspect

    try:
        params = [name for name, p in inspect.signature(cls).parameters.items()
                  if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)]
    except (TypeError, ValueError):
        return ""
    unknown = [k for k in kwargs if k not in params]
    if not unknown:
        return ""
    return f" (parameters: {', '.join(params) or 'none'}){did_you_mean(unknown[0], params)}"


def resolve_player(game: Game, spec: str | PlayerSpec | ResolvedPlayer) -> ResolvedPlayer:
    """Turn a spec into a player of ``game``; raises PlayerError naming what is wrong."""
    if isinstance(spec, ResolvedPlayer):
        return spec
    parsed = spec if isinstance(spec, PlayerSpec) else parse_player_spec(spec)
    if parsed.source == "file":
        assert parsed.path is not None
        cls = _load_class(parsed.path, parsed.name, parsed.text)
        kwargs = parsed.params

        def factory() -> Any:
            try:
                return cls(**kwargs)
            except TypeError as exc:
                raise PlayerError(f"player '{parsed.text}': cannot create {parsed.name}: {exc}"
                                  f"{_parameter_hint(cls, kwargs)}") from None

        factory()  # fail now, not in the middle of a run
        return ResolvedPlayer(parsed.label or file_label(parsed), False, factory=factory, spec=parsed.text)
    if parsed.game and parsed.game != game.name:
        raise PlayerError(f"player '{parsed.text}' belongs to game '{parsed.game}', not '{game.name}'")
    builtins = game.builtin_players()
    if parsed.name not in builtins and parsed.game is None and parsed.name in python_players():
        return _registered(parsed, python_players()[parsed.name])
    if parsed.name not in builtins:
        retired = getattr(game, "retired_players", {}).get(parsed.name)
        if retired is not None:
            since = f" ({retired.since})" if retired.since else ""
            raise PlayerError(f"unknown player '{parsed.name}' for {game.name}: '{parsed.name}' was retired{since}: "
                              f"use '{retired.replacement}', {retired.reason}")
        names = sorted([*builtins, *python_players()])
        raise PlayerError(f"unknown player '{parsed.name}' for {game.name} (known: {', '.join(names)}; or "
                          f"file.py:Class){did_you_mean(parsed.name, names)}")
    info = builtins[parsed.name]
    for key, value in parsed.params.items():
        if key not in info.params:
            known = ", ".join(info.params) or "none"
            raise PlayerError(f"player '{parsed.text}': unknown parameter '{key}' (parameters: {known})"
                              f"{did_you_mean(key, info.params)}")
        if not isinstance(value, int | float) or isinstance(value, bool):
            raise PlayerError(f"player '{parsed.text}': parameter '{key}' must be a number")
    values = {**info.params, **parsed.params}
    vec = np.zeros(8, dtype=np.float64)
    for i, name in enumerate(info.params):
        vec[i] = float(values[name])
    label = info.name
    if parsed.params:
        label += "(" + ", ".join(f"{k}={v}" for k, v in parsed.params.items()) + ")"
    return ResolvedPlayer(parsed.label or label, True, kind=info.kind, params=vec, spec=label)


ENTRY_POINT_GROUP = "simlab.players"
_PYTHON_PLAYERS: dict[str, type] = {}
_DISCOVERED = False


def python_players() -> dict[str, type]:
    """Python players any game can use, by name: the entry-point group ``simlab.players``.

    Each entry point names a :class:`Player` class; one that fails to load is skipped with a
    warning. A class with ``interactive = True`` (``human``) is a person at the terminal.
    """
    global _DISCOVERED
    if not _DISCOVERED:
        _DISCOVERED = True
        for ep in sorted(entry_points(group=ENTRY_POINT_GROUP), key=lambda e: e.name):
            try:
                cls = ep.load()
            except Exception as exc:  # a third-party package's import error must not stop the others
                warnings.warn(f"player entry point '{ep.name}' ({ep.value}) failed to load: {exc}", stacklevel=2)
                continue
            if not isinstance(cls, type) or not callable(getattr(cls, "choose", None)):
                warnings.warn(f"player entry point '{ep.name}' ({ep.value}) is not a class with choose(obs, legal)",
                              stacklevel=2)
                continue
            _PYTHON_PLAYERS[ep.name] = cls
    return dict(_PYTHON_PLAYERS)


def _registered(parsed: PlayerSpec, cls: type) -> ResolvedPlayer:
    """A registered Python player, created with the spec's keyword arguments."""

    def factory() -> Any:
        try:
            return cls(**parsed.params)
        except TypeError as exc:
            raise PlayerError(f"player '{parsed.text}': cannot create {parsed.name}: {exc}"
                              f"{_parameter_hint(cls, parsed.params)}") from None

    factory()  # fail now, not in the middle of a run
    name = parsed.name if not parsed.params else parsed.text
    return ResolvedPlayer(parsed.label or name, False, factory=factory,
                          interactive=bool(getattr(cls, "interactive", False)), spec=name)


def resolve_players(game: Game, specs: Sequence[str | PlayerSpec | ResolvedPlayer]) -> list[ResolvedPlayer]:
    """Resolve one spec per seat, checking the player count against the game's."""
    if not game.min_players <= len(specs) <= game.max_players:
        raise PlayerError(
            f"{game.name} takes {game.min_players}-{game.max_players} players; {len(specs)} were given"
        )
    resolved = [resolve_player(game, s) for s in specs]
    check_labels(resolved)
    return resolved


def stored_name(text: str) -> str:
    """The name a spec's player gets in the stored ``player`` column: its label; a player from a file its class
    name (:func:`file_label`); else the spec as written."""
    label, _ = split_label(text)
    if label is not None:
        return label
    try:
        parsed = parse_player_spec(text)
    except PlayerError:
        return text
    return file_label(parsed) if parsed.source == "file" else text


def check_labels(players: Sequence[ResolvedPlayer]) -> None:
    """One label, one spec: raises PlayerError when a label names two different specs."""
    seen: dict[str, str] = {}
    for p in players:
        other = seen.setdefault(p.label, p.spec)
        if other != p.spec:
            raise PlayerError(f"label '{p.label}' names two different players: '{other}' and '{p.spec}' "
                              "(give each its own label, LABEL=SPEC)")
