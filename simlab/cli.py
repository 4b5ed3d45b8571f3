"""The ``simlab`` command line."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from simlab.core.errors import PlayerError, SimlabError

# Help is plain text (rich_markup_mode=None): with Rich markup, "[tune]" in a help text is read as a
# style tag and vanishes, and typer 0.29's Rich help panel prints a flag's Python type ("<bool>")
# because TyperOption.display_type_rich, unlike the plain get_help_record, does not skip flags.
HELP_MARKUP: Any = None


def _version(value: bool) -> None:
    """``--version``: print ``simlab X.Y.Z`` from the installed package's metadata and exit."""
    if value:
        from importlib.metadata import version

        typer.echo(f"simlab {version('simlab')}")
        raise typer.Exit()


app = typer.Typer(
    add_completion=True,
    no_args_is_help=True,
    rich_markup_mode=HELP_MARKUP,
    help="simlab: seeded Monte Carlo simulation and balance analysis for board games.",
)


@app.callback()
def _main(
    version: Annotated[bool, typer.Option(
        "--version", callback=_version, is_eager=True, help="print the simlab version and exit")] = False,
) -> None:
    """simlab: seeded Monte Carlo simulation and balance analysis for board games."""

console = Console(width=None if sys.stdout.isatty() else 140)
err_console = Console(stderr=True, width=None if sys.stderr.isatty() else 200)


def split_specs(text: str) -> list[str]:
    """Split ``a,b(x=1,y=2),c`` on the commas outside parentheses."""
    out: list[str] = []
    depth = 0
    current = ""
    for ch in text:
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(current.strip())
            current = ""
        else:
            current += ch
    if current.strip():
        out.append(current.strip())
    return out


def parse_option_pairs(pairs: list[str] | None) -> dict[str, Any]:
    """``name=value`` pairs from the command line, values read as TOML literals when possible."""
    import tomllib

    options: dict[str, Any] = {}
    for pair in pairs or []:
        if "=" not in pair:
            raise SimlabError(f"--option {pair}: expected name=value")
        name, value = pair.split("=", 1)
        try:
            options[name.strip()] = tomllib.loads(f"v = {value.strip()}")["v"]
        except tomllib.TOMLDecodeError:
            options[name.strip()] = value.strip()
    return options


def game_options(game_name: str, pairs: list[str] | None, automa: str | None = None) -> dict[str, Any]:
    """Rule options from ``--option`` pairs, plus ``--automa LEVEL`` for a game that declares an Automa option."""
    options = parse_option_pairs(pairs)
    if automa is not None:
        from simlab.core.game import get_game

        name = get_game(game_name).automa_option
        if name is None:
            raise SimlabError(f"--automa: {game_name} has no Automa")
        options[name] = automa
    return options


def _data(game_name: str, pairs: list[str] | None) -> Any:
    """The data set with the files ``--data STEM=PATH`` replaces (None: the bundled data)."""
    if not pairs:
        return None
    from simlab.core.datavariants import variant_data
    from simlab.core.game import get_game
    from simlab.core.hints import did_you_mean

    files = get_game(game_name).data_files()
    if files is None:
        raise SimlabError(f"--data: {game_name} has no replaceable data files")
    replaced = {}
    for pair in pairs:
        stem, sep, path = pair.partition("=")
        if not sep or not stem.strip() or not path.strip():
            raise SimlabError(f"--data {pair}: expected FILE=PATH (files: {', '.join(files.stems)})")
        if stem.strip() not in files.names:  # the file name first: a typo there is the likelier error
            raise SimlabError(f"--data {pair}: {game_name} has no data file '{stem.strip()}' "
                              f"(files: {', '.join(files.stems)}){did_you_mean(stem.strip(), files.stems)}")
        if not Path(path.strip()).is_file():
            raise SimlabError(f"--data {pair}: {path.strip()}: file not found")
        replaced[stem.strip()] = path.strip()
    return variant_data(files, replaced)


GameArg = Annotated[str, typer.Argument(help="game name (see `simlab games`)")]
PlayersOpt = Annotated[str, typer.Option("--players", "-p", help="comma-separated player specs, one per seat")]
SeedOpt = Annotated[int, typer.Option("--seed", "-s", help="experiment seed")]
OptionOpt = Annotated[list[str] | None, typer.Option("--option", "-o", help="rule option name=value (repeatable)")]
AutomaOpt = Annotated[str | None, typer.Option(
    "--automa", help="solo games: the Automa's level, for games that have one (e.g. B; sets the game's level option)")]
DataOpt = Annotated[list[str] | None, typer.Option(
    "--data", help="play with another data file: FILE=PATH, e.g. cards=my_cards.csv (repeatable)")]
TimeoutOpt = Annotated[float | None, typer.Option(
    "--decision-timeout", help="seconds a Python player may take per decision (0: no limit; default 60; "
    "never applies to human)")]
MAX_SEED = 2**63 - 1  # as in specs: the experiment_seed column is a signed 64-bit integer
MAX_BATCH_GAMES = 100_000_000


def _check_seed(seed: int | None, option: str = "--seed") -> None:
    """Seeds lie in 0..2**63-1."""
    if seed is not None and not 0 <= seed <= MAX_SEED:
        raise SimlabError(f"{option}: {seed} is outside 0..2**63-1 (the seed range of a 64-bit table column)")


def _timeout(value: float | None) -> float | None:
    """The decision time limit of --decision-timeout (default 60 s; 0: none)."""
    from simlab.runner.spec import DEFAULT_DECISION_TIMEOUT

    if value is None:
        return DEFAULT_DECISION_TIMEOUT
    if not 0 <= value < float("inf"):
        raise SimlabError(f"--decision-timeout: {value} must be 0 (no limit) or a positive number of seconds")
    return value or None


def _announce(line: str) -> None:
    """A line about what the command is doing (compiling, ...), on stderr so tables stay clean."""
    err_console.print(line, markup=False, highlight=False, soft_wrap=True)


def _progress(quiet: bool, unit: str | None = "games") -> Any:
    """A progress bar with rate and ETA: on the terminal when stdout is one (tables printed meanwhile go
    above it), else on stderr (a terminal there shows it live; a file gets its final line); none with --quiet."""
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    rate = [TextColumn(f"{{task.fields[rate]:>9}} {unit}/s")] if unit else []
    return Progress(
        TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(), *rate, TimeElapsedColumn(),
        TextColumn("ETA"), TimeRemainingColumn(), console=console if console.is_terminal else err_console,
        disable=quiet, transient=False, redirect_stdout=False, redirect_stderr=False,
    )


def _rate_callback(progress: Any, task: Any, done: int = 0) -> Any:
    """``progress(n)`` for ``play_batch``: n games of this call done, on top of ``done`` before it."""
    import time

    start = time.perf_counter()

    def update(n: int) -> None:
        rate = n / max(time.perf_counter() - start, 1e-9)
        progress.update(task, completed=done + n, rate=f"{rate:,.0f}")

    return update


def _name_column(table: Table, header: str, names: list[str], **kwargs: Any) -> None:
    """A column of player names that is never cut off or wrapped."""
    width = max([len(header), *(len(n) for n in names)])
    table.add_column(header, no_wrap=True, overflow="fold", min_width=width, **kwargs)


def _replay_hint(exc: SimlabError, game: str, players: str, seed: int, first: int = 0,
                 replace_index: bool = False) -> SimlabError:
    """A player error of ``simlab play``/``batch`` with the command that replays the game (``first``:
    the game index, unless the message names one; ``replace_index``: always ``first``)."""
    import shlex

    head = str(exc).split(":", 1)[0]
    named = head.startswith("game ") and head.split()[-1].isdigit() and not replace_index
    index = int(head.split()[-1]) if named else first
    return type(exc)(f"{exc}; replay: simlab play {game} --players {shlex.quote(players)} --seed {seed} "
                     f"--game {index}")


@contextmanager
def _on_interrupt(message: Callable[[], str]) -> Iterator[None]:
    """Ctrl-C or SIGTERM inside: a RunInterruptedError (exit status 130, or 143 for SIGTERM) whose one line is
    ``message()`` (what is stored and the command that resumes)."""
    from simlab.core.errors import RunInterruptedError, Terminated
    from simlab.runner.processes import interrupt_on_sigterm

    try:
        with interrupt_on_sigterm():
            yield
    except KeyboardInterrupt as exc:
        code = 143 if isinstance(exc, Terminated) else 130
        raise RunInterruptedError(message(), code) from None


def _interruptible(command: str, spec_path: Path | str, experiment: Any, out: Path | None,
                   extra: list[str]) -> Any:
    """Ctrl-C or SIGTERM during a run: one line with the games stored and the command that resumes."""
    return _on_interrupt(lambda: _interrupted_line(command, spec_path, experiment, out, extra))


def _interruptible_tune(command: str, spec_path: Path | str, experiment: Any, out: Path | None,
                        extra: list[str]) -> Any:
    """Ctrl-C or SIGTERM during a tune (``simlab tune``, or ``simlab report`` tuning a spec): one line with
    the command that resumes it."""
    return _on_interrupt(lambda: _tune_interrupted_line(command, spec_path, experiment, out, extra))


def _tune_interrupted_line(command: str, spec_path: Path | str, experiment: Any, out: Path | None,
                           extra: list[str]) -> str:
    import shlex

    from simlab.tune.run import latest_tune_dir

    where = out or latest_tune_dir(experiment)
    again = ["simlab", command, shlex.quote(str(spec_path)), *extra]
    if where is None:  # nothing to resume
        return "interrupted before any trial was stored; rerun: " + " ".join(a for a in again if a != "--resume")
    again += ["--out", shlex.quote(str(where))]
    return f"the finished trials are stored; resume: {' '.join(again)}"


def _interrupted_line(command: str, spec_path: Path | str, experiment: Any, out: Path | None,
                      extra: list[str]) -> str:
    import json
    import shlex

    from simlab.runner.plan import Plan
    from simlab.runner.run import latest_run_dir

    run_dir = out if out is not None else latest_run_dir(experiment)
    again = " ".join(["simlab", command, shlex.quote(str(spec_path)), *extra])
    manifest_path = Path(run_dir) / "manifest.json" if run_dir is not None else None
    if manifest_path is None or not manifest_path.is_file():
        return f"interrupted before any game was stored; rerun: {again}"
    try:
        man = json.loads(manifest_path.read_text(encoding="utf-8"))
        shards = Plan(experiment).shards()
        stored = sum(shards[i][1] - shards[i][0] for done in man.get("shards_done", {}).values() for i in done)
    except (OSError, ValueError, IndexError, TypeError):
        stored = None
    total = Plan(experiment).total_games * len(experiment.variants)
    resume = " --resume" if command == "run" else ""
    count = f"{stored:,} of {total:,} games stored" if stored is not None else "the finished shards are stored"
    return f"{count}; resume: {again}{resume} --out {shlex.quote(str(run_dir))}"


@app.command()
def games() -> None:
    """List the games."""
    from simlab.core.game import all_games

    table = Table("game", "players", "what makes it interesting")
    for g in all_games():
        table.add_row(g.name, f"{g.min_players}-{g.max_players}", g.summary)
    console.print(table)


@app.command()
def players(game: GameArg) -> None:
    """List a game's built-in players, their parameters and what they do."""
    from simlab.core.game import get_game

    g = get_game(game)
    table = Table("player", "parameters (default)", "description")
    for info in g.builtin_players().values():
        params = "\n".join(f"{k}={v:g}: {info.param_help.get(k, '')}" for k, v in info.params.items()) or "-"
        table.add_row(info.name, params, info.description)
    from simlab.core.player import python_players

    for name, cls in python_players().items():  # Python players any game can use (entry points)
        doc = (cls.__doc__ or "").strip().splitlines()
        table.add_row(name, getattr(cls, "spec_params", "keyword arguments"), doc[0] if doc else "")
    table.add_row("FILE.py:Class", "keyword arguments", "your own Python player class (see the README)")
    console.print(table)


@app.command()
def play(
    game: GameArg,
    players: PlayersOpt,
    seed: SeedOpt = 0,
    game_index: Annotated[int, typer.Option("--game", help="game index within the seed")] = 0,
    trace: Annotated[Path | None, typer.Option("--trace", help="write the game as JSON lines")] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="no log, only the final table")] = False,
    option: OptionOpt = None,
    automa: AutomaOpt = None,
    data: DataOpt = None,
    decision_timeout: TimeoutOpt = None,
) -> None:
    """Play one game and print its log (game 0 of --seed is game 0 of a batch with that seed)."""
    from simlab.core.driver import play_game
    from simlab.core.game import get_game
    from simlab.core.player import resolve_players
    from simlab.core.rng import game_seed
    from simlab.core.trace import game_trace, write_trace

    _check_seed(seed)
    if not 0 <= game_index < 2**62:
        raise SimlabError(f"--game: {game_index} is outside 0..2**62-1")
    from simlab.play import compile_notice, needs_compiling

    g = get_game(game)
    resolved = resolve_players(g, split_specs(players))
    rules = g.ruleset(len(resolved), game_options(game, option, automa), _data(game, data))
    labels = [p.label for p in resolved]
    live = any(p.interactive for p in resolved) and not quiet
    if needs_compiling(g, driver=True):
        _announce(compile_notice(g))
    on_events = None
    if live:  # a person is playing: show what happens as it happens
        start: list[dict] = []

        def on_events(new: list[dict]) -> None:
            if not start:
                return
            for line in g.log_lines(start + new)[len(g.log_lines(start)) :]:
                typer.echo(line)

        state, _ = g.new_game(rules, int(game_seed(seed, game_index)), g.new_log(0))
        start.append(g.start_event(rules, state, labels, game_index))
        for line in g.log_lines(start):
            typer.echo(line)
    try:
        record = play_game(g, rules, resolved, int(game_seed(seed, game_index)), record_events=True,
                           on_events=on_events, decision_timeout=_timeout(decision_timeout) or 0)
    except PlayerError as exc:
        raise _replay_hint(exc, game, players, seed, game_index) from None
    events = game_trace(g, rules, record, labels, game_index)
    lines = g.log_lines(events)
    if quiet or live:
        lines = lines[lines.index("=== Final ===") :] if "=== Final ===" in lines else lines
    for line in lines:
        typer.echo(line)
    if trace:
        write_trace(trace, events)
        console.print(f"trace written to {trace} ({len(events)} events)")


@app.command()
def batch(
    game: GameArg,
    players: PlayersOpt,
    games: Annotated[int, typer.Option("--games", "-n", help="number of games")] = 10_000,
    seed: SeedOpt = 0,
    option: OptionOpt = None,
    automa: AutomaOpt = None,
    data: DataOpt = None,
    out: Annotated[Path | None, typer.Option("--out", help="write games and seats tables as parquet here")] = None,
    decision_timeout: TimeoutOpt = None,
    rotate: Annotated[bool, typer.Option(
        "--rotate", help="play every deal once per cyclic rotation of the seats (as specs do): -n is rounded up "
        "to whole deals, intervals are clustered by deal")] = False,
    by: Annotated[list[str] | None, typer.Option(
        "--by", help="also a win-rate table per value of this seat column, e.g. colour (repeatable; default: "
        "the game's start-position columns)")] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="no progress bar")] = False,
) -> None:
    """Play a batch of games (compiled when every player is built in) and print the results.

    Player specs may carry a short label, LABEL=SPEC (nw=my_player.py:Networker(risk=2)), used in
    every table and in the stored player column."""
    from simlab.core.driver import decision_timeout as time_limit
    from simlab.core.game import get_game
    from simlab.core.player import resolve_players
    from simlab.play import play_batch, warm_up

    _check_seed(seed)
    if not 1 <= games <= MAX_BATCH_GAMES:
        raise SimlabError(f"--games: {games:,} is outside 1..{MAX_BATCH_GAMES:,} (a batch is held in memory; "
                          "simlab run streams more to disk)")
    specs = split_specs(players)
    g = get_game(game)
    resolved = resolve_players(g, specs)
    options, dataset = game_options(game, option, automa), _data(game, data)
    n_seatings = len({tuple(p.label for p in resolved[r:] + resolved[:r]) for r in range(len(resolved))})
    total = -(-games // n_seatings) * n_seatings if rotate else games
    try:
        with time_limit(_timeout(decision_timeout)):
            if not any(p.interactive for p in resolved):  # compile (or load) before the clock starts
                warm_up(g, resolved, options=options, data=dataset, announce=_announce)
            with _progress(quiet) as progress:
                task = progress.add_task(escape(game), total=total, rate="-")
                result = play_batch(g, resolved, games, seed, options=options, data=dataset, rotate=rotate,
                                    progress=_rate_callback(progress, task))
    except PlayerError as exc:
        raise _batch_replay_hint(exc, game, resolved, seed, rotate, n_seatings) from None
    mode = "compiled loop" if result.compiled else "Python driver"
    played = result.games.height
    deals = f" ({played // n_seatings:,} deals x {n_seatings} rotations)" if rotate else ""
    title = (f"{game}: {played:,} games{deals}, seed {seed} ({mode}, {result.seconds:.2f} s, "
             f"{played / max(result.seconds, 1e-9):,.0f} games/s)")
    intervals = "95% interval (by deal)" if rotate else "95% interval"
    if rotate:
        _batch_table(result.summary(("player",)), ["player"], intervals, title + ": per player, every seat")
        _batch_table(result.summary(("seat",)), ["seat"], intervals, "per seat (each seat played by every player)")
    else:
        _batch_table(result.summary(), ["seat", "player"], intervals, title)
    import polars as pl

    from simlab.analysis.summary import summary_table
    from simlab.core.hints import did_you_mean
    from simlab.results import position_columns

    columns = list(by) if by else position_columns(g.name, result.seats.columns)
    for col in columns:
        if col not in result.seats.columns:
            raise SimlabError(f"--by {col}: not a seat column of {game} (columns: "
                              f"{', '.join(result.seats.columns)}){did_you_mean(col, result.seats.columns)}")
        seats = (result.seats_with_deals() if rotate else result.seats).with_columns(pl.col(col).cast(pl.Utf8))
        _batch_table(summary_table(seats, (col,)), [col], intervals, f"per {col}")
    console.print("win rate counts a shared win as 1/k for each of the k winners; intervals are Wilson 95%"
                  + (", clustered by deal (the rotations of a deal share its seed)." if rotate else "."))
    if out:
        out.mkdir(parents=True, exist_ok=True)
        result.games.write_parquet(out / "games.parquet")
        result.seats.write_parquet(out / "seats.parquet")
        console.print(f"tables written to {out}/games.parquet and {out}/seats.parquet")


def _batch_table(summary: Any, keys: list[str], interval: str, title: str) -> None:
    """One win-rate table of ``simlab batch``: a row per group of ``keys``."""
    table = Table(title=title)
    for key in keys:
        if key == "seat":
            table.add_column("seat", justify="right")
        else:
            _name_column(table, key, [str(v) for v in summary[key]])
    for header in ("games", "win rate", interval, "mean score", "sd"):
        table.add_column(header, justify="right", no_wrap=True)
    def num(value: Any, digits: int) -> str:
        return "-" if value is None or value != value else f"{value:.{digits}f}"  # None/NaN: one game

    for row in summary.iter_rows(named=True):
        table.add_row(*(escape(str(row[k])) for k in keys), f"{row['games']:,}", num(row["win_rate"], 3),
                      f"[{num(row['win_lo'], 3)}, {num(row['win_hi'], 3)}]", num(row["mean_score"], 2),
                      num(row["sd_score"], 2))
    console.print(table)


def _batch_replay_hint(exc: SimlabError, game: str, resolved: list[Any], seed: int, rotate: bool,
                       n_seatings: int) -> SimlabError:
    """The replay command of a failed batch game: with --rotate, game g is rotation g % T of deal g // T."""
    specs = [f"{p.label}={p.spec}" if p.label != p.spec else p.spec for p in resolved]
    head = str(exc).split(":", 1)[0]
    index = int(head.split()[-1]) if head.startswith("game ") and head.split()[-1].isdigit() else 0
    if rotate:
        seatings = []
        for r in range(len(specs)):
            seating = specs[r:] + specs[:r]
            if seating not in seatings:
                seatings.append(seating)
        specs = seatings[index % n_seatings]
        index //= n_seatings
    return _replay_hint(exc, game, ",".join(specs), seed, index, replace_index=True)


@app.command()
def ladder(
    game: GameArg,
    players: Annotated[str | None, typer.Option(
        "--players", "-p", help="comma-separated player specs (default: the game's ladder)")] = None,
    games: Annotated[int, typer.Option("--games", "-n", help="seeds per pair (each played both ways)")] = 2000,
    slow_games: Annotated[int, typer.Option("--slow-games", help="seeds per pair with a search player")] = 150,
    seed: SeedOpt = 0,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="no progress bar")] = False,
) -> None:
    """Two-player head-to-head win rates, duplicate format (every seed played with seats swapped);
    each pair's row is printed as soon as it is played."""
    from simlab.core.game import get_game
    from simlab.core.player import check_labels, parse_player_spec, resolve_player
    from simlab.ladder import head_to_head
    from simlab.play import warm_up

    g = get_game(game)
    specs = split_specs(players) if players else list(g.ladder_players or g.builtin_players())
    resolved = [resolve_player(g, s) for s in specs]
    check_labels(resolved)
    pairs = [(a, b) for i, a in enumerate(resolved) for b in resolved[:i]]

    builtin = g.builtin_players()

    def seeds(a: Any, b: Any) -> int:
        slow = any(getattr(builtin.get(parse_player_spec(x.spec).name), "slow", False) for x in (a, b))
        return slow_games if slow else games

    if pairs:
        warm_up(g, list(pairs[0]), announce=_announce)
    width = max([8, *(len(p.label) for p in resolved)])
    columns = [("player", width, "<"), ("opponent", width, "<"), ("games", 9, ">"), ("win rate", 8, ">"),
               ("95% interval (paired)", 21, ">"), ("mean score difference", 21, ">")]

    def line(cells: list[str]) -> str:
        return "  ".join(f"{c:{align}{w}}" for c, (_, w, align) in zip(cells, columns, strict=True)).rstrip()

    console.print(f"{game}: head-to-head, duplicate format, seed {seed}", markup=False, highlight=False)
    console.print(line([c[0] for c in columns]), markup=False, highlight=False, soft_wrap=True)
    console.print(line(["-" * w for _, w, _ in columns]), markup=False, highlight=False, soft_wrap=True)
    with _progress(quiet) as progress:
        task = progress.add_task(escape(f"{game} ladder"), total=sum(2 * seeds(a, b) for a, b in pairs), rate="-")
        done = 0
        for a, b in pairs:
            n = seeds(a, b)
            r = head_to_head(g, a, b, n, seed, progress=_rate_callback(progress, task, done))
            done += 2 * n
            progress.update(task, completed=done)
            console.print(line([a.label, b.label, f"{r.games:,}", f"{r.win_rate:.3f}", f"[{r.lo:.3f}, {r.hi:.3f}]",
                                f"{r.score_diff:+.2f}"]), markup=False, highlight=False, soft_wrap=True)


@app.command()
def bench(
    game: Annotated[str, typer.Argument(help="game to benchmark (`simlab games` lists them)")],
    games: Annotated[int, typer.Option("--games", "-n", help="games per compiled mix")] = 100_000,
    driver_games: Annotated[int, typer.Option("--driver-games",
                                              help="games per mix through the driver (0: skip it)")] = 300,
    mc_games: Annotated[int, typer.Option("--mc-games", help="games for mixes with a search player")] = 200,
    runner: Annotated[bool, typer.Option("--runner", help="benchmark the experiment runner instead")] = False,
    runner_games: Annotated[int, typer.Option("--runner-games", help="games per runner measurement")] = 1_000_000,
    memory_games: Annotated[int, typer.Option("--memory-games", help="games for the peak-memory run (0: skip)")] = 0,
    search_decisions: Annotated[int, typer.Option(
        "--search-decisions", help="decisions timed for the shared search at its default budget (0: skip)")] = 30,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="no progress bar")] = False,
) -> None:
    """Games per second per core for each built-in player mix, compiled and through the driver, and
    the shared search's iterations/s, time per decision and memory; with --runner, the runner's wall
    time, scaling over workers and backends, and peak memory."""
    from simlab.bench import run_bench, run_runner_bench

    with _progress(quiet, unit=None) as progress:
        def step(description: str, total: int) -> Any:
            task = progress.add_task(escape(description), total=total, rate="-")
            return lambda: progress.advance(task)

        if runner:
            run_runner_bench(game, runner_games, memory_games, console, progress=step, announce=_announce)
        else:
            run_bench(game, games, driver_games, mc_games, console, progress=step, announce=_announce,
                      search_decisions=search_decisions)


def print_summary(path: Path) -> None:
    """The per-player, per-seat and per-start-position win-rate tables of a stored run."""
    from simlab.results import summary

    tables = summary(path)
    for key, df in tables.items():
        title = key.split(":", 1)[1] if ":" in key else {"players": "player", "seats": "seat"}[key]
        count = ["n_players"] if "n_players" in df.columns else []
        table = Table("variant", *count, title, "games", "deals", "win rate", "95% interval", "mean score",
                      title=f"win rate per {title} (shared wins split; 95% intervals clustered by deal)")
        for row in df.iter_rows(named=True):
            table.add_row(escape(str(row["variant"])), *[str(row[c]) for c in count], escape(str(row[title])),
                          f"{row['games']:,}", f"{row['deals']:,}", f"{row['win_rate']:.4f}",
                          f"[{row['win_lo']:.4f}, {row['win_hi']:.4f}]", f"{row['mean_score']:.2f}")
        console.print(table)


@app.command()
def run(
    spec: Annotated[Path, typer.Argument(help="experiment spec (TOML)")],
    games: Annotated[int | None, typer.Option("--games", "-n", help="number of games (overrides the spec)")] = None,
    seed: Annotated[int | None, typer.Option("--seed", "-s", help="experiment seed (overrides the spec)")] = None,
    workers: Annotated[int | None, typer.Option("--workers", "-w", help="worker processes (0 = all cores)")] = None,
    shard_size: Annotated[int | None, typer.Option("--shard-size", help="games per shard")] = None,
    backend: Annotated[str | None, typer.Option("--backend", help="local or dask")] = None,
    scheduler: Annotated[str | None, typer.Option("--scheduler", help="Dask scheduler, tcp://host:8786")] = None,
    out: Annotated[Path | None, typer.Option("--out", help="run directory (default results/NAME/TIME-HASH)")] = None,
    resume: Annotated[bool, typer.Option("--resume", help="continue the run in --out (or the latest one)")] = False,
    force: Annotated[bool, typer.Option("--force", help="empty --out first (a fresh run needs an empty one)")] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="no progress bar")] = False,
    decision_timeout: TimeoutOpt = None,
) -> None:
    """Run an experiment: shards on all cores (or a Dask cluster), stored as parquet.

    Ctrl-C (exit status 130) or SIGTERM (143) marks the run interrupted and prints the command
    that resumes it."""
    from simlab.runner.backends import discard_warmups, prestart_local
    from simlab.runner.run import run_experiment
    from simlab.tune.spec import load_spec  # a [tune] section is checked too, though a run plays no tune

    if scheduler and backend is None:
        backend = "dask"
    overrides = {"games": games, "seed": seed, "workers": workers, "shard_size": shard_size, "backend": backend,
                 "scheduler": scheduler, "decision_timeout": decision_timeout}
    prestart_local(spec, overrides)  # the workers start up while this process reads the spec and the folder
    try:
        experiment = load_spec(spec, overrides)
        if experiment.backend == "local":
            _warm_run(experiment)
        given = {"--games": games, "--seed": seed, "--shard-size": shard_size, "--backend": backend,
                 "--scheduler": scheduler, "--decision-timeout": decision_timeout}
        extra = [f"{k} {v}" for k, v in given.items() if v is not None]
        with _interruptible("run", spec, experiment, out, extra):
            result = run_experiment(experiment, out, resume, console=console, show_progress=not quiet, force=force)
    finally:
        discard_warmups()  # a run refused before it played: its warm workers stop quietly
    man = result.manifest
    timing = man["timings"][-1]
    console.print(f"{man['status']}: {man['games_done']:,} games stored; this session played {timing['games']:,} "
                  f"in {timing['seconds']:.1f} s ({timing['games_per_s']:,.0f} games/s, {timing['workers']} workers, "
                  f"{timing['backend']})")
    for variant, stop in man.get("stop", {}).items():
        console.print(f"stopping rule ({variant}): {stop['decision']} after {stop['stop_at']:,} games")
    print_summary(result.path)
    console.print(f"results: {result.path}  (simlab results show {result.path})", markup=False, highlight=False)


def _warm_run(experiment: Any) -> None:
    """Before a local run: when numba's cache lacks the game's kernels, say so and compile them here
    once, so that the workers load them (and the run's games/s never counts compile time)."""
    from simlab.core.game import get_game
    from simlab.core.player import resolve_player
    from simlab.play import needs_compiling, warm_up
    from simlab.runner.plan import Plan
    from simlab.runner.spec import variant_data

    g = get_game(experiment.game)
    tables = Plan(experiment).tables
    compiled = {s: resolve_player(g, s).compiled for s in {s for t in tables for s in t.seats}}
    kinds: dict[bool, Any] = {}
    for table in tables:
        kinds.setdefault(not all(compiled[s] for s in table.seats), table)
    cold = [driver for driver in kinds if needs_compiling(g, driver)]
    if not cold:
        return
    base = experiment.variants[0]
    for i, driver in enumerate(cold):
        warm_up(g, list(kinds[driver].seats), options={**experiment.options, **base.options},
                data=variant_data(g, base), record=experiment.record, announce=_announce if i == 0 else None)


@app.command()
def report(
    target: Annotated[str, typer.Argument(help="an experiment spec (.toml) or a stored run")],
    games: Annotated[int | None, typer.Option("--games", "-n", help="number of games (overrides the spec)")] = None,
    seed: Annotated[int | None, typer.Option("--seed", "-s", help="experiment seed (overrides the spec)")] = None,
    workers: Annotated[int | None, typer.Option("--workers", "-w", help="worker processes (0 = all cores)")] = None,
    out: Annotated[Path | None, typer.Option("--out", help="run directory")] = None,
    report_dir: Annotated[Path | None, typer.Option("--report-dir", help="where the HTML goes (default: the run's "
                                                    "report/ folder)")] = None,
    force: Annotated[bool, typer.Option("--force", help="empty --out first (a fresh run needs an empty one)")] = False,
    trust: Annotated[bool, typer.Option("--trust", help="run a notebook the run names outside its project")] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="no progress bar")] = False,
    show_code: Annotated[bool, typer.Option("--show-code", help="keep the notebook's code cells in the page")] = False,
) -> None:
    """Run (or reuse) an experiment, execute its notebook on the results, write the run's report/index.html.

    The page goes into the run's folder (results/NAME/RUN/report/) or --report-dir, never into reports/
    (only simlab publish writes the published pages). A spec with a [tune] section is tuned (or its
    newest complete tune reused) and the tune reported; a tune folder is reported as it is. When the
    output is not a terminal, progress is printed as plain lines every few seconds."""
    from simlab.report import report_experiment, report_run

    if target.endswith(".toml"):
        from simlab.tune.spec import load_spec  # the spec with its [tune] section read

        spec = load_spec(target, {"games": games, "seed": seed, "workers": workers})
        extra = [f"{k} {v}" for k, v in {"--games": games, "--seed": seed}.items() if v is not None]
        interruptible = _interruptible_tune if spec.tune is not None else _interruptible
        with interruptible("report", target, spec, out, extra):
            index = report_experiment(spec, out, report_dir, console=console, show_progress=not quiet, force=force,
                                      trust=trust, show_code=show_code)
    else:
        index = report_run(target, report_dir, trust=trust, console=console, show_code=show_code)
    from simlab.analysis.headlines import read_findings

    findings = read_findings(index.parent)
    if findings["takeaway"]:
        console.print("[bold]in short[/bold]")
        console.print("  " + " ".join(findings["takeaway"]), markup=False, highlight=False, soft_wrap=True)
    if findings["headlines"]:
        console.print("[bold]headline findings[/bold]")
        for line in findings["headlines"]:
            console.print(f"  - {line}", markup=False, highlight=False, soft_wrap=True)
    console.print(f"report written to {index}", markup=False, highlight=False, soft_wrap=True)


results_app = typer.Typer(help="List stored runs and tunes, or show one.", invoke_without_command=True,
                          no_args_is_help=False, rich_markup_mode=HELP_MARKUP)
app.add_typer(results_app, name="results")

JsonOpt = Annotated[bool, typer.Option("--json", help="print JSON (machine-readable) instead of text")]


def _print_json(value: Any) -> None:
    """``value`` as indented JSON on stdout, never wrapped or styled."""
    import json

    typer.echo(json.dumps(value, indent=2, default=str, ensure_ascii=False))


@results_app.callback()
def results_list(
    ctx: typer.Context,
    root: Annotated[Path, typer.Option("--root", help="where runs are stored")] = Path("results"),
    as_json: JsonOpt = False,
) -> None:
    """List stored runs and tunes (``simlab results show RUN_OR_TUNE`` for one); each path in full, on its own line."""
    if ctx.invoked_subcommand is not None:
        return
    from simlab.results import list_runs

    runs = list_runs(root)
    if as_json:
        _print_json(runs.to_dicts())
        return
    if runs.height == 0:
        console.print(f"no runs or tunes under {root}/", markup=False, highlight=False)
        return
    rows = []
    for row in runs.iter_rows(named=True):
        if row["kind"] == "run":
            size = f"{row['games'] or 0:,} of {row['planned'] or 0:,} games"
        else:
            size = f"{row['trials'] or 0:,} trials, {row['games'] or 0:,} games"
        rows.append([str(row["experiment"]), row["kind"], str(row["status"]), size, str(row["created"])])
    widths = [max(len(r[i]) for r in rows) for i in range(4)]
    line = "  ".join(f"{h:<{w}}" for h, w in zip(("experiment", "kind", "status", "stored"), widths, strict=True))
    console.print(line + "  created", markup=False, highlight=False, soft_wrap=True)
    for cells, row in zip(rows, runs.iter_rows(named=True), strict=True):
        text = "  ".join(f"{c:<{w}}" for c, w in zip(cells[:4], widths, strict=True)) + "  " + cells[4]
        console.print(text, markup=False, highlight=False, soft_wrap=True)
        console.print(f"  {row['path']}", markup=False, highlight=False, soft_wrap=True)  # whole, to copy
        if row["result"]:
            console.print(f"  result: {row['result']}", markup=False, highlight=False, soft_wrap=True)


@results_app.command("show")
def results_show(
    run_name: Annotated[str, typer.Argument(metavar="RUN", help="run or tune folder, experiment/run or run name")],
    root: Annotated[Path, typer.Option("--root", help="where runs are stored")] = Path("results"),
    as_json: JsonOpt = False,
) -> None:
    """Print a run's spec, versions, timing and summary, or a tune's search and answer."""
    import json

    from simlab.results import manifest, resolve_run, resolve_tune, summary, tune_manifest

    tune_dir = resolve_tune(run_name, root)
    if tune_dir is not None:
        _show_tune(tune_dir, tune_manifest(tune_dir), as_json)
        return
    path = resolve_run(run_name, root)
    man = manifest(path)
    if as_json:
        tables = summary(path) if man.get("shards_done") and any(man["shards_done"].values()) else {}
        _print_json({"kind": "run", "path": str(path), "manifest": man,
                     "summary": {k: v.to_dicts() for k, v in tables.items()}})
        return
    console.print(f"[bold]{escape(str(man.get('experiment')))}[/bold] / {escape(str(man.get('run')))}  "
                  f"({escape(str(man.get('status')))})", highlight=False)
    console.print(str(path), markup=False, highlight=False, soft_wrap=True)
    if man.get("description"):
        console.print(str(man["description"]), markup=False, highlight=False)
    console.print(f"spec ({man.get('source')}, hash {man.get('spec_hash')}):", markup=False, highlight=False)
    console.print(json.dumps(man.get("spec"), indent=2), markup=False, highlight=False)
    console.print("versions: " + ", ".join(f"{k} {v}" for k, v in (man.get("versions") or {}).items()),
                  markup=False, highlight=False)
    plan = man.get("plan") or {}
    if {"games", "deals", "tables", "shards", "shard_size"} <= set(plan):
        console.print(f"plan: {plan['games']:,} games per variant ({plan['deals']:,} deals x {len(plan['tables'])} "
                      f"seatings), {plan['shards']} shards of {plan['shard_size']:,}; "
                      f"variants: {', '.join(map(str, man.get('variants', [])))}", markup=False, highlight=False)
    for t in man.get("timings", []):
        console.print(f"session: {t.get('games', 0):,} games in {t.get('seconds', 0):.1f} s "
                      f"({t.get('games_per_s', 0):,.0f} games/s, {t.get('workers')} workers, {t.get('backend')})")
    for variant, stop in (man.get("stop") or {}).items():
        console.print(f"stop ({variant}): {stop}", markup=False, highlight=False)
    if man.get("error"):
        console.print(f"error: {man['error']}", markup=False)
    print_summary(path)


def _show_tune(path: Path, man: dict[str, Any], as_json: bool) -> None:
    """``results show`` on a tune folder: what was tuned, how the search went, its answer (as ``simlab tune``)."""
    import polars as pl

    from simlab.results import tune_result

    candidates = path / "candidates.csv"
    if as_json:
        rows = pl.read_csv(candidates).to_dicts() if candidates.is_file() else []
        _print_json({"kind": "tune", "path": str(path), "manifest": man, "candidates": rows})
        return
    objective = man.get("objective") or {}
    console.print(f"[bold]{escape(str(man.get('experiment')))}[/bold] / {escape(str(man.get('run', path.name)))}  "
                  f"(tune, {escape(str(man.get('status')))})", highlight=False)
    console.print(str(path), markup=False, highlight=False, soft_wrap=True)
    if man.get("description"):
        console.print(str(man["description"]), markup=False, highlight=False)
    console.print(f"objective: {objective.get('name')} ({objective.get('unit')}), target {objective.get('target')}",
                  markup=False, highlight=False)
    budget = man.get("budget") or {}
    console.print(f"knobs: {', '.join(str(k.get('name')) for k in man.get('knobs', []))}; max_changes "
                  f"{budget.get('max_changes')}, trials {budget.get('trials')}", markup=False, highlight=False)
    if man.get("status") == "complete" and candidates.is_file() and objective:
        _print_tune(path, man)
        return
    search = man.get("search") or {}
    if search:
        console.print(f"searched {search.get('trials', 0)} trials, {search.get('games', 0):,} games",
                      markup=False, highlight=False)
    console.print(f"result: {tune_result(man)}; continue it with simlab tune {man.get('source')} --out {path} "
                  "--resume", markup=False, highlight=False, soft_wrap=True)


@app.command()
def compare(
    run_a: Annotated[str, typer.Argument(metavar="RUN_A", help="the first stored run (the baseline)")],
    run_b: Annotated[str, typer.Argument(metavar="RUN_B", help="the second stored run (e.g. a rule change)")],
    variant_a: Annotated[str | None, typer.Option("--variant-a", help="RUN_A's variant (when it has several)")] = None,
    variant_b: Annotated[str | None, typer.Option("--variant-b", help="RUN_B's variant (when it has several)")] = None,
    root: Annotated[Path, typer.Option("--root", help="where runs are stored")] = Path("results"),
    draws: Annotated[int, typer.Option("--draws", help="deal-bootstrap resamples")] = 2000,
    seed: Annotated[int, typer.Option("--seed", "-s", help="seed of the bootstrap")] = 0,
    as_json: JsonOpt = False,
) -> None:
    """The difference B - A of two stored runs' win rates (per player, seat and start position), mean scores and
    game measures, with 95% intervals: paired by deal when the runs share deal seeds, independent otherwise;
    Holm over the rows says which differences hold (docs/experiments.md)."""
    from simlab.compare import compare_runs

    _check_seed(seed)
    result = compare_runs(run_a, run_b, variant_a, variant_b, root, draws, seed)
    if as_json:
        _print_json({"game": result.game, "paired": result.paired, "shared_deals": result.shared,
                     "deals_a": result.deals_a, "deals_b": result.deals_b, "left_out": result.left_out,
                     "method": result.method(), "rows": result.table.to_dicts()})
        return
    table = Table("measure", "of", "A", "B", "B - A", "95% interval", "Holm p", "differs",
                  title=f"{result.game}: B - A", title_justify="left")
    for r in result.table.iter_rows(named=True):
        table.add_row(escape(r["measure"]), escape(r["of"]), f"{r['a']:.4f}", f"{r['b']:.4f}", f"{r['diff']:+.4f}",
                      f"[{r['diff_lo']:+.4f}, {r['diff_hi']:+.4f}]", f"{r['holm_p']:.3g}",
                      "yes" if r["differs"] else "no")
    console.print(table)
    console.print(result.method(), markup=False, highlight=False, soft_wrap=True)
    if result.left_out:
        console.print(f"{result.left_out} measure(s) of only one run left out", markup=False, highlight=False)


@app.command()
def replay(
    run_name: Annotated[str, typer.Argument(metavar="RUN", help="run directory, experiment/run or run name")],
    game_index: Annotated[int, typer.Option("--game", help="game index in the run")],
    variant: Annotated[str, typer.Option("--variant", help="variant name")] = "base",
    trace: Annotated[Path | None, typer.Option("--trace", help="write the game as JSON lines")] = None,
    html: Annotated[Path | None, typer.Option("--html", help="write the replay page: every step's board, from "
                                              "each seat's view, with the log (one file, opens from disk)")] = None,
    root: Annotated[Path, typer.Option("--root", help="where runs are stored")] = Path("results"),
    trust: Annotated[bool, typer.Option("--trust", help="load player files the run names outside its project")] = False,
) -> None:
    """Replay a stored game from its seed and print its log (identical to the original game); --html writes the
    replay page to step through it."""
    from simlab.runner.replay import replay_game

    def announce(line: str) -> None:
        err_console.print(line, markup=False, highlight=False)

    if html is not None:
        from simlab.core.game import get_game
        from simlab.replay.page import replay_html
        from simlab.replay.sources import replay_from_run

        game = replay_from_run(run_name, game_index, variant, root, trust=trust, announce=announce)
        _write_page(html, replay_html(game), f"replay page written to {html} ({len(game.steps)} steps)")
        events = game.events
        lines = get_game(game.game).log_lines(events)
    else:
        events, lines = replay_game(run_name, game_index, variant, root, trust=trust, announce=announce)
    for line in lines:
        typer.echo(line)
    if trace:
        from simlab.core.trace import write_trace

        write_trace(trace, events)
        console.print(f"trace written to {trace} ({len(events)} events)")


def _write_page(path: Path, page: str, message: str) -> None:
    """Write an HTML page (its folder made), then say where; an unwritable path is one line, exit 2."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(page, encoding="utf-8")
    except OSError as exc:
        raise SimlabError(f"cannot write {path}: {exc.strerror or exc}") from exc
    err_console.print(message, markup=False, highlight=False)


@app.command()
def analyse(
    run_name: Annotated[str, typer.Argument(metavar="RUN", help="run directory, experiment/run or run name")],
    game_index: Annotated[int, typer.Option("--game", help="game index in the run")],
    seat: Annotated[int | None, typer.Option("--seat", help="the seat whose decisions to value (default: all)")]
    = None,
    budget: Annotated[int | None, typer.Option("--budget", help="search iterations per decision (default: the "
                                               "game's search player's)")] = None,
    variant: Annotated[str, typer.Option("--variant", help="variant name")] = "base",
    html: Annotated[Path | None, typer.Option("--html", help="also write the replay page with the analysis")] = None,
    root: Annotated[Path, typer.Option("--root", help="where runs are stored")] = Path("results"),
    trust: Annotated[bool, typer.Option("--trust", help="load player files the run names outside its project")] = False,
    as_json: JsonOpt = False,
) -> None:
    """Value every decision of a stored game with the shared search from the deciding seat's view: each
    alternative's win share with a 95% interval, what the move played lost against the search's choice, and the
    decisions where the game turned (cached beside the run and reused for the same game, seat and budget under
    the same search parameters and code; the same inputs give the same values)."""
    from simlab.replay.analysis import (
        TURNED,
        TURNED_LOSS,
        analyse_replay,
        cache_path,
        cached,
        default_budget,
        search_key,
        store,
    )
    from simlab.replay.sources import stored_replay

    def announce(line: str) -> None:
        err_console.print(line, markup=False, highlight=False)

    stored, game = stored_replay(run_name, game_index, variant, root, trust=trust, announce=announce)
    wanted = budget or default_budget(stored.game)
    path = cache_path(stored.run, game_index, variant, seat, wanted)
    found = cached(path, stored.game.name, stored.seed, search_key(stored.game, wanted))
    if found is None:
        def progress(done: int, total: int) -> None:
            if done == total or done % 10 == 0:
                err_console.print(f"analysed {done}/{total} decisions", markup=False, highlight=False)

        found = analyse_replay(stored.game, stored.rules, game, seat, wanted, progress)
        store(path, found)
    else:
        err_console.print(f"reusing the analysis in {path}", markup=False, highlight=False)
    if html is not None:
        from simlab.replay.page import replay_html

        _write_page(html, replay_html(game, analysis=found.for_page()), f"replay page with the analysis written to "
                    f"{html} ({len(found.decisions)} decisions valued)")
    if as_json:
        _print_json(found.to_json())
        return
    table = Table("step", "seat", "move played", "its value", "search's choice", "value", "loss",
                  title=f"{stored.game.name} game {game_index}: {found.method}", title_justify="left")
    for d in found.decisions:
        mine = next(a for a in d.alternatives if a.played)
        best = next(a for a in d.alternatives if a.chosen_by_search)

        def value(a: object) -> str:
            return "-" if a.value is None else f"{a.value:.3f}"

        loss = "-" if d.loss is None else f"{d.loss:.3f}" + (" turned" if d.step in found.turned else "")
        table.add_row(str(d.step), str(d.seat), escape(mine.text), value(mine), escape(best.text), value(best), loss)
    console.print(table)
    console.print(f"the game turned at step(s) {', '.join(map(str, found.turned)) or 'none'}: the {TURNED} largest "
                  f"losses of at least {TURNED_LOSS} win share", markup=False, highlight=False)


@app.command()
def view(
    trace: Annotated[Path, typer.Argument(metavar="TRACE", help="a trace (JSON lines) from play/replay --trace")],
    html: Annotated[Path | None, typer.Option("--html", help="where to write the page (default: TRACE with .html)")]
    = None,
) -> None:
    """The replay page of a traced game: played again from the trace's seed, players and options (it must give the
    trace's events exactly), every step's board from each seat's view, with the log."""
    from simlab.replay.page import replay_html
    from simlab.replay.sources import replay_from_trace

    game = replay_from_trace(trace)
    out = html or trace.with_suffix(".html")
    _write_page(out, replay_html(game), f"replay page written to {out} ({len(game.steps)} steps)")


@app.command()
def publish(
    names: Annotated[list[str] | None, typer.Argument(metavar="[NAME]...", help="studies (default: all)")] = None,
    workers: Annotated[int | None, typer.Option("--workers", "-w", help="worker processes (0 = all cores)")] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="no progress bar")] = False,
) -> None:
    """Regenerate the published reports in reports/ (the headline studies, kept in git) and reports/README.md."""
    from simlab.report.publish import publish as publish_reports

    for folder in publish_reports(names, console=console, show_progress=not quiet, workers=workers):
        console.print(f"published {folder}", markup=False, highlight=False)


@app.command()
def tune(
    spec: Annotated[Path, typer.Argument(help="experiment spec (TOML) with a [tune] section")],
    trials: Annotated[int | None, typer.Option("--trials", help="trials to run (overrides tune.trials)")] = None,
    workers: Annotated[int | None, typer.Option("--workers", "-w", help="worker processes (0 = all cores)")] = None,
    backend: Annotated[str | None, typer.Option("--backend", help="local or dask")] = None,
    scheduler: Annotated[str | None, typer.Option("--scheduler", help="Dask scheduler, tcp://host:8786")] = None,
    out: Annotated[Path | None, typer.Option("--out", help="tune folder (default results/NAME/TIME-HASH-tune)")] = None,
    resume: Annotated[bool, typer.Option("--resume", help="continue the tune in --out (or the latest one)")] = False,
    force: Annotated[bool, typer.Option("--force", help="empty --out first")] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="no progress bar")] = False,
    dashboard: Annotated[bool, typer.Option("--dashboard", help="open the tune (--out, else the spec's newest) in "
                                            "optuna-dashboard instead of tuning; works while a tune runs")] = False,
) -> None:
    """Find the smallest data change that balances the game: an Optuna search over the spec's knobs
    on common random numbers, the best candidates confirmed on fresh seeds (docs/tune.md).

    Ctrl-C or SIGTERM stops it; --resume continues the same study without losing or repeating trials."""
    from simlab.tune.run import run_tune
    from simlab.tune.spec import load_spec  # the spec with its [tune] section read

    if scheduler and backend is None:
        backend = "dask"
    overrides: dict[str, Any] = {"workers": workers, "backend": backend, "scheduler": scheduler}
    experiment = load_spec(spec, overrides)
    if experiment.tune is None:
        raise SimlabError(f"{spec}: no [tune] section: add one (docs/tune.md) to tune this spec")
    if dashboard:
        from simlab.tune.run import open_dashboard

        raise typer.Exit(open_dashboard(experiment, out, announce=lambda line: console.print(
            line, markup=False, highlight=False, soft_wrap=True)))
    if trials is not None:
        if trials < 1:
            raise SimlabError("--trials: must be at least 1")
        experiment.tune.trials = trials
    if experiment.backend == "local":
        _warm_run(experiment)
    with _interruptible_tune("tune", spec, experiment, out, ["--resume"]):
        result = run_tune(experiment, out, resume, console=console, show_progress=not quiet, force=force)
    _print_tune(result.path, result.manifest)


def _print_tune(path: Path, man: dict[str, Any]) -> None:
    """The answer of a finished tune: the search, the candidates confirmed, the recommended edits."""
    search = man.get("search", {})
    console.print(f"searched {search.get('trials', 0)} trials, {search.get('games', 0):,} games in "
                  f"{search.get('seconds', 0):.0f} s (stopped by {search.get('stopped_by', '?')})")
    table = Table("candidate", "search", "confirmed [95% CI]", "changed", "changes", title=man["objective"]["unit"])
    import polars as pl

    for r in pl.read_csv(path / "candidates.csv").iter_rows(named=True):
        sv = "-" if r["search_value"] is None else f"{r['search_value']:.4f}"
        table.add_row(escape(r["candidate"]), sv,
                      f"{r['confirmed']:.4f} [{r['confirmed_lo']:.4f}, {r['confirmed_hi']:.4f}]", str(r["cells"]),
                      escape(r["changes"]))
    console.print(table)
    answer = man.get("answer", {})
    if search.get("substitutes"):
        console.print(f"{search['substitutes']} trial(s) played an untried candidate in place of the sampler's repeat "
                      "or over-budget proposal", markup=False, highlight=False)
    for key in ("improvement", "target", "note"):
        if key in answer:
            console.print(f"{key}: {answer[key]}", markup=False, highlight=False)
    if answer.get("recommendation"):
        console.print(f"recommendation: {answer['recommendation']}", markup=False, highlight=False)
    if answer.get("recommended", True) and (path / "variant.toml").is_file():
        console.print(f"recommended change (paste into a spec): {path / 'variant.toml'}", markup=False,
                      highlight=False)
    console.print(f"tune folder: {path}  (simlab report {path})", markup=False, highlight=False)


def main() -> None:
    """Entry point: run the CLI; simlab errors become one clean line (exit status 2)."""
    from simlab.core.errors import RunInterruptedError

    try:
        status = app(standalone_mode=False)
    except RunInterruptedError as exc:
        err_console.print(f"{exc.prefix}{exc}", markup=False, highlight=False, soft_wrap=True)
        sys.exit(exc.exit_code)
    except SimlabError as exc:
        err_console.print(f"error: {exc}", markup=False, highlight=False, soft_wrap=True)
        sys.exit(2)
    except KeyboardInterrupt:
        err_console.print("interrupted")
        sys.exit(130)
    except Exception as exc:
        # click's (or typer's bundled click's) usage errors: show them the usual way
        if type(exc).__name__ == "NoArgsIsHelpError":
            typer.echo(exc.format_message())  # type: ignore[attr-defined]  # plain help: the message is the help
            sys.exit(0)
        if hasattr(exc, "show") and hasattr(exc, "exit_code"):
            exc.show()
            sys.exit(exc.exit_code)
        if type(exc).__name__ == "Abort":
            sys.exit(1)
        raise
    if isinstance(status, int) and status:  # typer turns a KeyboardInterrupt outside a run into 130
        if status == 130:
            err_console.print("interrupted")
        sys.exit(status)


if __name__ == "__main__":
    main()
