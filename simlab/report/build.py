"""Build ``reports/<experiment>/index.html``: run (or reuse) an experiment, execute its notebook
with the run as a parameter, and render it with a summary of what was run on top.

A notebook takes two parameters (a cell tagged ``parameters``): ``run_dir`` (the stored run;
None makes the notebook run its own small default experiment) and ``report_dir`` (where it
may write ``findings.json``: a list of one-line headline findings, each with its interval,
that the report shows at the top).
"""

from __future__ import annotations

import html
import json
import time
from pathlib import Path
from typing import Any

from simlab.core.errors import SimlabError
from simlab.results import manifest, resolve_run, summary

NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"
DEFAULT_NOTEBOOK = {"sentient": "sentient_strategies.ipynb", "smartphone": "smartphone_start_position.ipynb"}


def notebook_for(man: dict[str, Any]) -> Path:
    """The notebook a run is reported with: the spec's ``report``, else the game's default."""
    name = man.get("spec", {}).get("report") or DEFAULT_NOTEBOOK.get(man.get("game", ""), "")
    if not name:
        raise SimlabError(f"no report notebook for game {man.get('game')}: set report = \"...\" in the spec")
    path = Path(name)
    for candidate in (path, NOTEBOOKS / path.name, Path(man.get("source", ".")).parent / path):
        if candidate.is_file():
            return candidate
    raise SimlabError(f"report notebook {name} not found")


def report_experiment(spec: Any, out: Path | None = None, report_dir: Path | None = None,
                      console: Any = None, show_progress: bool = True) -> Path:
    """Run the experiment (or reuse the newest complete run of the same spec) and report on it."""
    from simlab.runner.run import latest_run_dir, run_experiment

    if out is None:
        latest = latest_run_dir(spec)
        if latest is not None and manifest(latest).get("status") in ("complete", "stopped"):
            if console is not None:
                console.print(f"reusing the stored run {latest}")
            run_dir = latest
        else:
            run_dir = run_experiment(spec, latest, resume=latest is not None, console=console,
                                     show_progress=show_progress).path
    else:
        run_dir = run_experiment(spec, out, resume=(out / "manifest.json").is_file(), console=console,
                                 show_progress=show_progress).path
    return report_run(run_dir, report_dir)


def report_run(run: str | Path, report_dir: Path | None = None, notebook: Path | None = None) -> Path:
    """Execute the run's notebook on it and write ``index.html``; returns the HTML path."""
    import nbformat
    import papermill
    from nbconvert import HTMLExporter

    run_dir = resolve_run(run).resolve()
    man = manifest(run_dir)
    nb_path = notebook or notebook_for(man)
    out_dir = (report_dir or Path("reports") / man["experiment"]).resolve()
    out_dir.mkdir(parents=True, exist_ok=True)
    executed = out_dir / "notebook.ipynb"
    (out_dir / "findings.json").unlink(missing_ok=True)
    start = time.perf_counter()
    try:
        papermill.execute_notebook(str(nb_path), str(executed), parameters={"run_dir": str(run_dir),
                                   "report_dir": str(out_dir)}, kernel_name="python3", progress_bar=False,
                                   cwd=str(out_dir))
    except papermill.PapermillExecutionError as exc:
        raise SimlabError(f"report notebook {nb_path.name} failed in cell {exc.exec_count}: {exc.ename}: "
                          f"{exc.evalue} (the partial notebook is {executed})") from None
    seconds = time.perf_counter() - start
    exporter = HTMLExporter(template_name="lab", exclude_input_prompt=True, exclude_output_prompt=True)
    body, _ = exporter.from_notebook_node(nbformat.read(executed, as_version=4))
    findings_file = out_dir / "findings.json"
    findings = json.loads(findings_file.read_text()) if findings_file.is_file() else []
    page = _with_summary(body, _summary_html(run_dir, man, findings, nb_path.name, seconds))
    index = out_dir / "index.html"
    index.write_text(page, encoding="utf-8")
    return index


def _summary_html(run_dir: Path, man: dict[str, Any], findings: list[str], notebook: str, seconds: float) -> str:
    spec = man.get("spec", {})
    plan = man.get("plan", {})
    players = spec.get("players", {})
    who = players.get("seats") or players.get("pool") or []
    stop = man.get("stop", {})
    rows = [
        ("experiment", man["experiment"] + (f": {man['description']}" if man.get("description") else "")),
        ("game", f"{man['game']}, {', '.join(who)}; rotation {players.get('rotation', 'cyclic')}"),
        ("games", f"{man.get('games_done', 0):,} stored ({plan.get('games', 0):,} planned per variant, "
                  f"{len(man.get('variants', []))} variant(s), seed {spec.get('seed', 0)})"),
        ("run", f"{run_dir} (spec hash {man['spec_hash']}, status {man['status']})"),
        ("versions", ", ".join(f"{k} {v}" for k, v in man.get("versions", {}).items())),
        ("notebook", f"{notebook}, executed in {seconds:.0f} s"),
    ]
    for variant, s in stop.items():
        rows.append(("stopping rule", f"{variant}: {s.get('decision')} after {s.get('stop_at'):,} games"))
    headline = list(findings)
    if not headline:
        tables = summary(run_dir)
        for r in tables["players"].sort("win_rate", descending=True).iter_rows(named=True):
            headline.append(f"{r['player']} ({r['variant']}): win rate {r['win_rate']:.3f} "
                            f"[95% CI {r['win_lo']:.3f}, {r['win_hi']:.3f}] over {r['games']:,} seat-games")
    cells = "".join(f"<tr><th>{html.escape(k)}</th><td>{html.escape(v)}</td></tr>" for k, v in rows)
    items = "".join(f"<li>{html.escape(f)}</li>" for f in headline)
    return (
        '<section id="simlab-summary" style="font-family: sans-serif; max-width: 1100px; margin: 1em auto; '
        'padding: 1em; border: 1px solid #ccc; border-radius: 6px">'
        f"<h1>simlab report: {html.escape(man['experiment'])}</h1>"
        f"<table>{cells}</table><h2>Headline findings</h2><ul>{items}</ul>"
        "<p>Intervals are 95%; win rates split shared wins; see the notebook below for how each number "
        "was measured.</p></section>"
    )


def _with_summary(body: str, summary_html: str) -> str:
    marker = "<body"
    i = body.find(marker)
    if i < 0:
        return summary_html + body
    j = body.find(">", i) + 1
    return body[:j] + summary_html + body[j:]
