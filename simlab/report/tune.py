"""Reports of tunes: which tune a report target names, the tune a spec's report uses (reused,
resumed or run), and the summary shown on top of the page built by ``tune_report.ipynb``.

A tune folder (``simlab tune``, see :mod:`simlab.tune.run`) is reported with simlab's own
``notebooks/tune_report.ipynb``, whatever ``report`` notebook the spec names for its ordinary runs.
"""

from __future__ import annotations

import html
from pathlib import Path
from typing import Any

from simlab.core.errors import SimlabError
from simlab.runner.folders import DEFAULT_ROOT, spec_folders

TUNE_NOTEBOOK = "tune_report.ipynb"


def tune_dir_of(target: str | Path, root: str | Path = DEFAULT_ROOT) -> Path | None:
    """The tune folder a report target names (a path, or ``experiment/run`` under ``root``), or None."""
    from simlab.tune.run import is_tune_dir

    for path in (Path(target), Path(root) / target):
        if path.is_dir() and is_tune_dir(path):
            return path
    return None


def check_complete(path: Path, man: dict[str, Any]) -> None:
    """Refuse to report a tune that has not finished (no candidates confirmed yet)."""
    status = man.get("status")
    if status != "complete":
        raise SimlabError(f"{path / 'tune.json'}: the tune is not complete (status {status}): finish it with "
                          f"simlab tune SPEC --resume --out {path}, then report it")


def latest_complete_tune(spec: Any, root: Path = DEFAULT_ROOT) -> Path | None:
    """The newest complete tune of this spec (same spec hash) under ``root``, or None."""
    from simlab.tune.run import MANIFEST, SUFFIX, read_manifest

    for path in reversed(spec_folders(spec, root, SUFFIX, MANIFEST)):
        try:
            if read_manifest(path).get("status") == "complete":
                return path
        except SimlabError:
            continue
    return None


def tune_for_report(spec: Any, out: Path | None = None, console: Any = None, show_progress: bool = True,
                    force: bool = False, root: Path = DEFAULT_ROOT) -> Path:
    """The tune folder ``simlab report SPEC`` reports for a spec with a ``[tune]`` section.

    Without ``out``: the newest complete tune of the spec, else the newest unfinished one
    resumed, else a new tune. With ``out``: the tune there (resumed unless complete; ``force``
    replaces it), or a new tune in it.
    """
    from simlab.tune.run import is_tune_dir, latest_tune_dir, read_manifest, run_tune

    if out is None:
        done = latest_complete_tune(spec, root)
        if done is not None:
            if console is not None:
                console.print(f"reusing the stored tune {done}", markup=False, highlight=False)
            return done
        latest = latest_tune_dir(spec, root)
        return run_tune(spec, latest, resume=latest is not None, console=console, show_progress=show_progress,
                        root=root).path
    if is_tune_dir(out) and not force:
        if read_manifest(out).get("status") == "complete":
            if console is not None:
                console.print(f"reusing the stored tune {out}", markup=False, highlight=False)
            return out
        return run_tune(spec, out, resume=True, console=console, show_progress=show_progress, root=root).path
    return run_tune(spec, out, console=console, show_progress=show_progress, root=root, force=force).path


def _where(path: Path, man: dict[str, Any]) -> str:
    """The tune's path inside its project (no machine's absolute path), else ``experiment/folder``."""
    project = man.get("project")
    if project:
        try:
            return str(path.resolve().relative_to(Path(project).resolve()))
        except ValueError:
            pass
    return f"{man.get('experiment')}/{path.name}"


def _ci(row: dict[str, Any]) -> str:
    return f"{row['confirmed']:.3f} [95% CI {row['confirmed_lo']:.3f}, {row['confirmed_hi']:.3f}]"


def summary_rows(path: Path, man: dict[str, Any]) -> list[tuple[str, str]]:
    """The summary table of a tune report: (what, value) rows built from ``tune.json``."""
    spec = man.get("spec", {})
    players = spec.get("players", {})
    who = players.get("seats") or players.get("pool") or []
    objective = man.get("objective", {})
    search = man.get("search", {})
    confirm = man.get("confirm", {})
    budget = man.get("budget", {})
    target = objective.get("target")
    seconds = sum(float(s.get("seconds", 0)) for s in man.get("sessions", []))
    rows = [
        ("experiment", str(man.get("experiment", "")) + (f": {man['description']}" if man.get("description") else "")),
        ("game", f"{man.get('game')}, {', '.join(map(str, who))}; rotation {players.get('rotation', 'cyclic')}"),
        ("objective", f"{objective.get('name')}: {objective.get('unit')}; "
                      + (f"target {target:g}" if target is not None else "no target")),
        ("knobs", f"{len(man.get('knobs', []))} ({', '.join(k['name'] for k in man.get('knobs', []))}); at most "
                  f"{budget.get('max_changes')} data row change(s)"
                  + (f", distance at most {budget['max_distance']:g}" if budget.get("max_distance") else "")),
        ("search", f"{search.get('trials', 0):,} trials"
                   + (f" of {search['allowed']:,} allowed candidates" if search.get("allowed") is not None else "")
                   + f", {search.get('games', 0):,} games in "
                   f"{search.get('seconds', 0):.0f} s (seed {budget.get('seed')}, sampler {budget.get('sampler')}; "
                   f"stopped by {search.get('stopped_by', '?')})"),
        ("confirmation", f"the printed data and {confirm.get('candidates', 0)} candidate(s), "
                         f"{confirm.get('games', 0):,} games each on seed {confirm.get('seed')} "
                         f"({confirm.get('seed_overlap', 0)} deal seeds shared with the search)"),
        ("answer", _answer(man)),
        ("tune", f"{_where(path, man)} (spec hash {man.get('spec_hash')}, status {man.get('status')}, "
                 f"{len(man.get('sessions', []))} session(s), {seconds:.0f} s in all)"),
        ("versions", ", ".join(f"{k} {v}" for k, v in man.get("versions", {}).items())),
    ]
    return rows


def recommended(answer: dict[str, Any]) -> bool:
    """Whether a tune's answer recommends its change (tunes before ``answer.recommended``: the paired verdict)."""
    if not answer.get("candidate"):
        return False
    return bool(answer.get("recommended", str(answer.get("improvement", "")).startswith("confirmed")))


def _answer(man: dict[str, Any]) -> str:
    answer = man.get("answer", {})
    if not answer.get("candidate"):
        return f"no change recommended: {answer.get('note', 'no candidate that changes the data finished')}"
    if not recommended(answer):
        parts = [answer.get("recommendation") or f"no change recommended: the best candidate of the search (trial "
                 f"{answer.get('trial')}) does not confirm an improvement"]
    else:
        parts = [f"change as trial {answer.get('trial')} does ({len(answer.get('edits', []))} edit(s), variant.toml)",
                 f"target: {answer.get('target', 'no target')}"]
    if answer.get("improvement"):
        parts.append(f"improvement: {answer['improvement']}")
    return "; ".join(parts)


def default_findings(man: dict[str, Any]) -> list[str]:
    """Headline findings from ``tune.json`` alone (when the notebook wrote none)."""
    answer = man.get("answer", {})
    unit = man.get("objective", {}).get("unit", "objective")
    out = []
    if answer.get("printed"):
        out.append(f"printed data: {unit} {_ci(answer['printed'])}")
    if answer.get("confirmed"):
        what = "recommended change" if recommended(answer) else "no change recommended; the best candidate"
        out.append(f"{what} ({'; '.join(answer.get('changes', []))}): {_ci(answer['confirmed'])}; "
                   f"target: {answer.get('target', 'no target')}")
        if answer.get("improvement"):
            out.append(f"improvement over the printed data: {answer['improvement']}")
    elif answer.get("note"):
        out.append(f"no change recommended: {answer['note']}")
    return out


def summary_html(path: Path, man: dict[str, Any], findings: list[str], notebook: str, seconds: float) -> str:
    """The summary section on top of a tune report (same look as a run's)."""
    rows = [*summary_rows(path, man), ("notebook", f"{notebook}, executed in {seconds:.0f} s")]
    headline = list(findings) or default_findings(man)
    cells = "".join(f"<tr><th>{html.escape(k)}</th><td>{html.escape(v)}</td></tr>" for k, v in rows)
    items = "".join(f"<li>{html.escape(f)}</li>" for f in headline)
    return (
        '<section id="simlab-summary" style="font-family: sans-serif; max-width: 1100px; margin: 1em auto; '
        'padding: 1em; border: 1px solid #ccc; border-radius: 6px">'
        f"<h1>simlab tune report: {html.escape(str(man.get('experiment')))}</h1>"
        f"<table>{cells}</table><h2>Headline findings</h2><ul>{items}</ul>"
        f"<p>Intervals are 95%; the confirmed objective's {html.escape(_together(man))}. Search values are "
        "optimistic (the best of many tries on the same games); confirmed values are measured on fresh seeds, free "
        "of the search's selection but, for a largest gap or a sum of distances, still pushed up by noise (the "
        "bias-corrected values beside them take the bootstrap's estimate of that off). The improvement verdict is a "
        "paired test: the recommended change minus the printed data, deal by deal on the shared fresh deals, "
        "one-sided at 5%. See the notebook below for how each number was measured.</p></section>"
    )


def _together(man: dict[str, Any]) -> str:
    """How a tune's confirmed intervals hold together (see :mod:`simlab.tune.objectives`)."""
    name = man.get("objective", {}).get("name")
    if name in ("max_position_deviation", "first_player_advantage"):
        return "hold for all the player counts at once"
    if name == "card_value_band":
        return "holds for all the cards at once"
    return "is a percentile bootstrap over deals"
