"""Build ``reports/<experiment>/index.html``: run (or reuse) an experiment, execute its notebook
with the run as a parameter, and render it with a summary of what was run on top.

A notebook takes two parameters (a cell tagged ``parameters``): ``run_dir`` (the stored run;
None makes the notebook run its own small default experiment) and ``report_dir`` (where it
may write ``findings.json``: a list of one-line headline findings, each with its interval,
that the report shows at the top).

A tune folder (``simlab tune``) is reported the same way with ``notebooks/tune_report.ipynb``
(``run_dir`` is the tune folder) and a summary of the tune on top (:mod:`simlab.report.tune`).
"""

from __future__ import annotations

import html
import json
import time
from pathlib import Path
from typing import Any

from simlab.core.errors import SimlabError
from simlab.results import manifest, resolve_run, summary
from simlab.runner.store import safe_component

NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"


class TrustError(SimlabError):
    """A run names code (a notebook, a player file) outside its own project; ``--trust`` runs it anyway."""


def run_project(run_dir: Path, man: dict[str, Any]) -> Path:
    """The project folder a run belongs to, found from where the run is now.

    A run records the folder it was made from (``project``) and its own path inside it
    (``run_in_project``); when the run still sits at that relative place (a copied or moved
    project), the project is the folder that holds it there now. Otherwise the recorded
    folder; for a run that records neither, the folder above ``results/<experiment>/<run>``.
    """
    run_dir = run_dir.resolve()
    rel = man.get("run_in_project")
    if rel:
        parts = Path(rel).parts
        if len(run_dir.parts) > len(parts) and run_dir.parts[-len(parts):] == parts:
            return Path(*run_dir.parts[: -len(parts)])
    if man.get("project"):
        return Path(man["project"])
    return run_dir.parents[2] if len(run_dir.parents) > 2 else run_dir


def find_notebook(name: str, source: str, project: Path) -> Path | None:
    """A spec's ``report`` notebook: relative to the project, to the spec file, or one of simlab's own."""
    path = Path(name)
    spec_dir = Path(source).parent if source and not source.startswith("<") else project
    if not spec_dir.is_absolute():
        spec_dir = project / spec_dir
    candidates = [path] if path.is_absolute() else [project / path, spec_dir / path]
    candidates.append(NOTEBOOKS / path.name)
    for candidate in candidates:
        if candidate.is_file():
            return candidate
    return None


def inside(path: Path, folder: Path) -> bool:
    """Whether ``path`` (symbolic links followed) lies inside ``folder``."""
    try:
        path.resolve().relative_to(folder.resolve())
    except ValueError:
        return False
    return True


def check_trusted(kind: str, path: Path, project: Path, trust: bool) -> None:
    """Refuse to execute a file the run names outside its project (and outside simlab itself) unless trusted."""
    if trust or inside(path, project) or inside(path, NOTEBOOKS):
        return
    raise TrustError(f"the run names {kind} {path}, outside its project {project}: read it, then pass --trust "
                     "to execute it")


def _game_notebook(game_name: str) -> str:
    """The report notebook a game declares (``Game.report_notebook``), or ''."""
    from simlab.core.game import get_game

    try:
        return get_game(game_name).report_notebook or ""
    except SimlabError:
        return ""


def notebook_for(man: dict[str, Any], run_dir: Path | None = None) -> Path:
    """The notebook a run is reported with: the spec's ``report``, else the game's default.

    Paths are resolved relative to the run's project (:func:`run_project`), not the current folder.
    """
    name = man.get("spec", {}).get("report") or _game_notebook(man.get("game", ""))
    if not name:
        raise SimlabError(f"no report notebook for game {man.get('game')}: set report = \"...\" in the spec")
    project = run_project(run_dir, man) if run_dir is not None else Path(man.get("project") or Path.cwd())
    found = find_notebook(name, man.get("source", ""), project)
    if found is None:
        raise SimlabError(f"report notebook {name} not found (looked in {project}, beside the spec and in "
                          f"{NOTEBOOKS})")
    return found


def report_experiment(spec: Any, out: Path | None = None, report_dir: Path | None = None,
                      console: Any = None, show_progress: bool = True, force: bool = False,
                      trust: bool = False, show_code: bool = False) -> Path:
    """Run the experiment (or reuse the newest complete run of the same spec) and report on it.

    A spec with a ``[tune]`` section is tuned instead (or its newest complete tune reused, see
    :func:`simlab.report.tune.tune_for_report`) and the tune is reported.
    """
    from simlab.runner.run import latest_run_dir, run_experiment

    if getattr(spec, "tune", None) is not None:
        from simlab.report.tune import tune_for_report

        tune_dir = tune_for_report(spec, out, console=console, show_progress=show_progress, force=force)
        return report_run(tune_dir, report_dir, console=console, show_code=show_code)
    if out is None:
        latest = latest_run_dir(spec)
        if latest is not None and manifest(latest).get("status") in ("complete", "stopped"):
            if console is not None:
                console.print(f"reusing the stored run {latest}", markup=False)
            run_dir = latest
        else:
            run_dir = run_experiment(spec, latest, resume=latest is not None, console=console,
                                     show_progress=show_progress).path
    else:
        resume = (out / "manifest.json").is_file() and not force
        run_dir = run_experiment(spec, out, resume=resume, console=console, show_progress=show_progress,
                                 force=force).path
    return report_run(run_dir, report_dir, trust=trust, console=console, show_code=show_code)


def report_run(run: str | Path, report_dir: Path | None = None, notebook: Path | None = None,
               trust: bool = False, console: Any = None, show_code: bool = False) -> Path:
    """Execute the run's notebook on it and write ``index.html``; returns the HTML path.

    The notebook the run names is resolved relative to the run's project and refused when it
    lies outside it (and outside simlab's own notebooks) unless ``trust``; a ``notebook``
    given here is the caller's choice and runs as given. ``console`` is told which notebook runs.
    The page hides the code cells unless ``show_code`` (:func:`render_html`).

    A tune folder (``simlab tune``) is reported with ``tune_report.ipynb`` (:func:`report_tune`).
    """
    from simlab.report.tune import tune_dir_of

    tune_dir = tune_dir_of(run)
    if tune_dir is not None:
        return report_tune(tune_dir, report_dir, notebook=notebook, console=console, show_code=show_code)
    run_dir = resolve_run(run).resolve()
    man = manifest(run_dir)
    if not safe_component(str(man.get("experiment", ""))):
        raise SimlabError(f"{run_dir / 'manifest.json'}: experiment name {man.get('experiment')!r} is not a "
                          "plain folder name")
    if notebook is None:
        nb_path = notebook_for(man, run_dir)
        check_trusted("report notebook", nb_path, run_project(run_dir, man), trust)
    else:
        nb_path = notebook
    if console is not None:
        console.print(f"executing notebook {nb_path.resolve()}", markup=False, highlight=False)
    out_dir = (report_dir or Path("reports") / man["experiment"]).resolve()
    body, findings, seconds = _execute(nb_path, run_dir, out_dir, show_code)
    page = _with_summary(body, _summary_html(run_dir, man, findings, nb_path.name, seconds))
    index = out_dir / "index.html"
    index.write_text(page, encoding="utf-8")
    return index


def report_tune(tune_dir: str | Path, report_dir: Path | None = None, notebook: Path | None = None,
                console: Any = None, show_code: bool = False) -> Path:
    """Execute ``tune_report.ipynb`` (or ``notebook``) on a complete tune folder and write ``index.html``
    (default ``reports/<experiment>/``) with a summary of the tune on top; returns the HTML path."""
    from simlab.report.tune import TUNE_NOTEBOOK, check_complete, summary_html
    from simlab.tune.run import read_manifest

    tune_dir = Path(tune_dir).resolve()
    man = read_manifest(tune_dir)
    if not safe_component(str(man.get("experiment", ""))):
        raise SimlabError(f"{tune_dir / 'tune.json'}: experiment name {man.get('experiment')!r} is not a "
                          "plain folder name")
    check_complete(tune_dir, man)
    nb_path = notebook or NOTEBOOKS / TUNE_NOTEBOOK
    if console is not None:
        console.print(f"executing notebook {nb_path.resolve()}", markup=False, highlight=False)
    out_dir = (report_dir or Path("reports") / man["experiment"]).resolve()
    body, findings, seconds = _execute(nb_path, tune_dir, out_dir, show_code)
    page = _with_summary(body, summary_html(tune_dir, man, findings, nb_path.name, seconds))
    index = out_dir / "index.html"
    index.write_text(page, encoding="utf-8")
    return index


def _execute(nb_path: Path, run_dir: Path, out_dir: Path, show_code: bool) -> tuple[str, list[str], float]:
    """Execute the notebook on ``run_dir`` into ``out_dir``: (the page body, the findings it wrote, seconds)."""
    import nbformat
    import papermill

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
    body = render_html(nbformat.read(executed, as_version=4), show_code=show_code)
    findings_file = out_dir / "findings.json"
    findings = json.loads(findings_file.read_text()) if findings_file.is_file() else []
    return body, findings, seconds


def render_html(nb: Any, show_code: bool = False) -> str:
    """An executed notebook as one HTML page (nbconvert's lab template, figures inline).

    Code cells are hidden unless ``show_code`` (their outputs, the tables and figures, stay);
    prompts are never shown. Nothing is loaded from the network.
    """
    from jinja2 import DictLoader
    from nbconvert import HTMLExporter

    exporter = HTMLExporter(template_name="lab", template_file="simlab_page.html.j2",
                            extra_loaders=[DictLoader({"simlab_page.html.j2": _PAGE_TEMPLATE})],
                            exclude_input_prompt=True, exclude_output_prompt=True, exclude_input=not show_code)
    body, _ = exporter.from_notebook_node(nb)
    return body


# the lab template without what it loads from the network (require.js and MathJax from a CDN): a report
# needs neither (figures are inline PNGs, tables plain HTML, no notebook uses LaTeX) and opens offline
_PAGE_TEMPLATE = """{%- extends 'lab/index.html.j2' -%}
{%- block html_head_js_requirejs -%}{%- endblock html_head_js_requirejs -%}
{%- block html_head_js_mathjax -%}{%- endblock html_head_js_mathjax -%}
"""


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
        ("run", f"{man.get('run_in_project') or Path(run_dir).name} (spec hash {man['spec_hash']}, "
                f"status {man['status']})"),  # the run's path in its project: no machine's absolute path
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
