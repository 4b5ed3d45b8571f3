"""Build a report page: run (or reuse) an experiment, execute its notebook with the run as a
parameter, and render it as one HTML page that opens with the answer.

A notebook takes two parameters (a cell tagged ``parameters``): ``run_dir`` (the stored run;
None makes the notebook run its own small default experiment) and ``report_dir`` (where it
writes ``findings.json`` through :class:`simlab.analysis.headlines.Headlines`: a takeaway of at
most three sentences, the headline findings, the rest, and cautions).

The page (:func:`page_top`) opens with the title, the cautions, the takeaway, the first five
headline findings and a compact table of what was run; a table of contents of the page's
h2/h3 headings follows (a sidebar on wide screens). Cells tagged ``remove-cell`` (and the
``parameters`` and papermill's ``injected-parameters`` cells) are left out; every Markdown and
HTML output passes nbconvert's sanitiser (``ReportSanitizer``); ids that the table libraries
draw at random are renumbered, so the same results give the same bytes.

A report of a run goes to ``<run>/report/index.html`` unless ``report_dir`` says otherwise; only
``simlab publish`` writes ``reports/``. Every figure the notebook renders passes
:func:`simlab.report.figures.check_figure` (installed in the kernel before the first cell).

A tune folder (``simlab tune``) is reported the same way with ``notebooks/tune_report.ipynb``
(``run_dir`` is the tune folder) and a summary of the tune on top (:mod:`simlab.report.tune`).
"""

from __future__ import annotations

import copy
import html
import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from simlab.analysis.headlines import FEW_DEALS
from simlab.core.errors import SimlabError
from simlab.results import manifest, resolve_run, summary
from simlab.runner.project import NOTEBOOKS, check_trusted, find_notebook, run_project
from simlab.runner.project import TrustError as TrustError  # re-exported: where callers catch it
from simlab.runner.store import safe_component

REPORT_FOLDER = "report"  # a report of a run goes to <run>/report/ unless told otherwise
HIDDEN_TAGS = ("remove-cell", "parameters", "injected-parameters", "simlab-setup")  # cells never on the page
SETUP_SOURCE = "import simlab.report.figures as _simlab_figures\n_simlab_figures.install()"
PROGRESS_EVERY = 5.0  # seconds between progress lines while a notebook executes


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
    from simlab.tune.spec import tune_of

    if tune_of(spec) is not None:
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
               trust: bool = False, console: Any = None, show_code: bool = False, replay: bool = False,
               links: list[tuple[str, Link]] | None = None) -> Path:
    """Execute the run's notebook on it and write ``index.html`` (default ``<run>/report/``, never
    ``reports/``: :mod:`simlab.report.publish` writes the published pages); returns the HTML path.

    The notebook the run names is resolved relative to the run's project and refused when it
    lies outside it (and outside simlab's own notebooks) unless ``trust``; a ``notebook``
    given here is the caller's choice and runs as given. ``console`` is told which notebook runs.
    The page hides the code cells unless ``show_code`` (:func:`render_html`). With ``replay``, the run's typical
    game (:func:`simlab.replay.choose.typical_game`) is written beside the page as ``replay.html`` and linked from
    the "what was run" table, and so is its most lopsided game (``replay-lopsided.html``, the largest winning
    margin) when that is another game (``simlab publish`` does this for every published study). ``links``: more
    "what was run" rows (label, link), e.g. the study's strong-play companions.

    A tune folder (``simlab tune``) is reported with ``tune_report.ipynb`` (:func:`report_tune`), and its replays
    are those of its confirmation runs.
    """
    from simlab.report.tune import tune_dir_of

    tune_dir = tune_dir_of(run)
    if tune_dir is not None:
        return report_tune(tune_dir, report_dir, notebook=notebook, console=console, show_code=show_code,
                           replay=replay, links=links)
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
    out_dir = (report_dir or run_dir / REPORT_FOLDER).resolve()
    body, findings = _execute(nb_path, run_dir, out_dir, show_code, console=console, label=man["experiment"])
    rows, note = _run_rows(run_dir, man, nb_path.name)
    if replay:
        rows += _replay_rows(run_dir, out_dir)
    rows += links or []
    if not (findings["takeaway"] or findings["headlines"]):
        findings["headlines"] = _default_findings(run_dir)
    deals = stored_deals(man)
    if deals is not None and deals < FEW_DEALS and not findings["cautions"]:
        findings["cautions"] = [deals_caution(deals)]
    top = page_top(f"simlab report: {man['experiment']}", findings, rows, note)
    index = out_dir / "index.html"
    index.write_text(finish_page(body, top), encoding="utf-8")
    return index


def report_tune(tune_dir: str | Path, report_dir: Path | None = None, notebook: Path | None = None,
                console: Any = None, show_code: bool = False, replay: bool = False,
                links: list[tuple[str, Link]] | None = None) -> Path:
    """Execute ``tune_report.ipynb`` (or ``notebook``) on a complete tune folder and write ``index.html``
    (default ``<tune folder>/report/``) with a summary of the tune on top; returns the HTML path. With ``replay``,
    the typical game of the recommended change's confirmation run and the same deal with the printed data are
    written beside the page and linked (:func:`_tune_replay_rows`)."""
    from simlab.report.tune import TUNE_NOTEBOOK, check_complete, default_findings, summary_rows
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
    out_dir = (report_dir or tune_dir / REPORT_FOLDER).resolve()
    body, findings = _execute(nb_path, tune_dir, out_dir, show_code, console=console, label=man["experiment"])
    if not (findings["takeaway"] or findings["headlines"]):
        findings["headlines"] = default_findings(man)
    rows = [*summary_rows(tune_dir, man), ("notebook", nb_path.name)]
    if replay:
        rows += _tune_replay_rows(tune_dir, man, out_dir)
    rows += links or []
    top = page_top(f"simlab tune report: {man.get('experiment')}", findings, rows, TUNE_NOTE)
    index = out_dir / "index.html"
    index.write_text(finish_page(body, top), encoding="utf-8")
    return index


class CellProgress:
    """Plain progress lines while a notebook executes ("report NAME: executing the notebook, cell 14/40, 12 s"),
    one at the start and then at most one every :data:`PROGRESS_EVERY` seconds: readable in a log file or CI,
    where a live bar shows nothing until the end."""

    def __init__(self, label: str, cells: int, console: Any = None, every: float = PROGRESS_EVERY,
                 clock: Callable[[], float] = time.perf_counter) -> None:
        self.label, self.cells, self.console, self.every, self.clock = label, cells, console, every, clock
        self.start = clock()
        self.last: float | None = None

    def cell_start(self, cell: Any = None, cell_index: int = 0, **_: Any) -> None:
        """nbclient's ``on_cell_start`` hook: print a line if the last was long enough ago."""
        now = self.clock()
        if self.console is None or (self.last is not None and now - self.last < self.every):
            return
        self.last = now
        self.console.print(f"report {self.label}: executing the notebook, cell {cell_index + 1}/{self.cells}, "
                           f"{now - self.start:.0f} s", markup=False, highlight=False, soft_wrap=True)


def _kernel_manager_class() -> type:
    """nbclient's kernel manager talking to the kernel over local IPC sockets instead of TCP: nothing
    listens on the network, and ipykernel has no reason to warn that the kernel "is running over TCP
    without encryption"."""
    from jupyter_client.manager import AsyncKernelManager
    from traitlets import CaselessStrEnum

    class IPCKernelManager(AsyncKernelManager):
        transport = CaselessStrEnum(["tcp", "ipc"], default_value="ipc", config=True)

    return IPCKernelManager


def _execute(nb_path: Path, run_dir: Path, out_dir: Path, show_code: bool, console: Any = None,
             label: str = "") -> tuple[str, dict[str, list[str]]]:
    """Execute the notebook on ``run_dir`` into ``out_dir``: (the page body, the findings it wrote).

    A hidden first cell installs :func:`simlab.report.figures.install`, so every figure the notebook
    renders is checked; a figure that fails makes the report fail (:func:`check_outputs`).
    """
    import nbformat
    import papermill

    from simlab.analysis.headlines import read_findings

    out_dir.mkdir(parents=True, exist_ok=True)
    executed = out_dir / "notebook.ipynb"
    (out_dir / "findings.json").unlink(missing_ok=True)
    nb = nbformat.read(nb_path, as_version=4)
    setup = nbformat.v4.new_code_cell(SETUP_SOURCE)
    setup.metadata["tags"] = ["simlab-setup", "remove-cell"]
    nb.cells.insert(0, setup)
    progress = CellProgress(label or nb_path.stem, len(nb.cells) + 1, console)  # + papermill's parameters cell
    try:
        papermill.execute_notebook(nb, str(executed), parameters={"run_dir": str(run_dir),
                                   "report_dir": str(out_dir)}, kernel_name="python3", progress_bar=False,
                                   cwd=str(out_dir), kernel_manager_class=_kernel_manager_class(),
                                   on_cell_start=progress.cell_start)
    except papermill.PapermillExecutionError as exc:
        raise SimlabError(f"report notebook {nb_path.name} failed in cell {exc.exec_count}: {exc.ename}: "
                          f"{exc.evalue} (the partial notebook is {executed})") from None
    done = nbformat.read(executed, as_version=4)
    check_outputs(done, nb_path.name, executed)
    return render_html(done, show_code=show_code), read_findings(out_dir)


def check_outputs(nb: Any, name: str, where: Path | None = None) -> None:
    """Refuse a notebook whose outputs hold a failed figure check (:class:`~simlab.report.figures.FigureCheckError`):
    IPython shows an error raised while a figure is rendered as an output and carries on, so it is
    caught here."""
    for i, cell in enumerate(nb.cells):
        for output in cell.get("outputs", []):
            if output.get("output_type") == "error" and output.get("ename") == "FigureCheckError":
                partial = f" (the executed notebook is {where})" if where else ""
                raise SimlabError(f"report notebook {name}: a figure in cell {cell.get('execution_count') or i} "
                                  f"fails the figure check: {output.get('evalue')}{partial}")


# Tags, attributes and style properties a report's Markdown and HTML outputs may use: text, lists, tables,
# figures with inline images. Everything else (script, iframe, event handlers, javascript: links) is removed.
SAFE_TAGS = frozenset({
    "a", "abbr", "b", "blockquote", "br", "caption", "code", "col", "colgroup", "dd", "del", "details", "div",
    "dl", "dt", "em", "figcaption", "figure", "h1", "h2", "h3", "h4", "h5", "h6", "hr", "i", "img", "kbd", "li",
    "mark", "ol", "p", "pre", "q", "s", "samp", "small", "span", "strong", "style", "sub", "summary", "sup",
    "table", "tbody", "td", "tfoot", "th", "thead", "tr", "u", "ul", "var"})
SAFE_STYLES = frozenset({
    "background", "background-color", "border", "border-bottom", "border-bottom-color", "border-bottom-style",
    "border-bottom-width", "border-collapse", "border-color", "border-left", "border-left-color",
    "border-left-style", "border-left-width", "border-radius", "border-right", "border-right-color",
    "border-right-style", "border-right-width", "border-spacing", "border-style", "border-top", "border-top-color",
    "border-top-style", "border-top-width", "border-width", "clear", "color", "display", "float", "font",
    "font-family", "font-size", "font-style", "font-variant", "font-weight", "height", "letter-spacing",
    "line-height", "margin", "margin-bottom", "margin-left", "margin-right", "margin-top", "max-height",
    "max-width", "min-height", "min-width", "overflow", "overflow-x", "overflow-y", "padding", "padding-bottom",
    "padding-left", "padding-right", "padding-top", "table-layout", "text-align", "text-decoration",
    "text-indent", "text-transform", "vertical-align", "white-space", "width", "word-break", "word-wrap"})
_COMMON_ATTRIBUTES = frozenset({"class", "id", "style", "title", "lang", "dir", "role", "aria-label", "align"})
_TAG_ATTRIBUTES = {"a": {"name", "title"}, "img": {"alt", "width", "height"}, "td": {"colspan", "rowspan", "scope"},
                   "th": {"colspan", "rowspan", "scope"}, "col": {"span", "width"}, "colgroup": {"span", "width"},
                   "ol": {"start", "type"}, "details": {"open"}, "table": {"border", "cellpadding", "cellspacing"},
                   "style": {"type"}}
_SAFE_HREF = re.compile(r"^(https?:|mailto:|#|[^:]*$)", re.IGNORECASE)  # a relative link has no scheme


def _allowed_attribute(tag: str, name: str, value: str) -> bool:
    """bleach's attribute filter for report outputs: inline images only as data:image, links only to the web,
    mail or the page itself, never an event handler."""
    if name in _COMMON_ATTRIBUTES or name in _TAG_ATTRIBUTES.get(tag, ()):
        return True
    if tag == "img" and name == "src":
        return value.startswith(("data:image/png;base64,", "data:image/jpeg;base64,", "data:image/svg+xml;base64,"))
    if tag == "a" and name == "href":
        return bool(_SAFE_HREF.match(value.strip()))
    return False


def _sanitizer_class() -> type:
    from bleach import clean
    from bleach.css_sanitizer import CSSSanitizer
    from nbconvert.preprocessors.sanitize import SanitizeHTML

    class ReportSanitizer(SanitizeHTML):
        """nbconvert's sanitiser (bleach) with what report pages need: tables, figures with inline images,
        styled cells; every Markdown and HTML output and Markdown cell passes through it."""

        def sanitize_html_tags(self, html_str: str) -> str:
            return clean(html_str, tags=SAFE_TAGS, attributes=_allowed_attribute,
                         protocols=["http", "https", "mailto", "data"], strip=True, strip_comments=True,
                         css_sanitizer=CSSSanitizer(allowed_css_properties=SAFE_STYLES))

    return ReportSanitizer


def render_html(nb: Any, show_code: bool = False) -> str:
    """An executed notebook as one HTML page (nbconvert's lab template, figures inline).

    Code cells are hidden unless ``show_code`` (their outputs, the tables and figures, stay);
    prompts are never shown; cells tagged with one of :data:`HIDDEN_TAGS` are left out entirely;
    Markdown and HTML outputs pass nbconvert's sanitiser (``ReportSanitizer``, allowing tables and
    inline figures); ids drawn at random by the table libraries are renumbered
    (:func:`stable_ids`) and cells are numbered by position. Nothing is loaded from the network.
    """
    from jinja2 import DictLoader
    from nbconvert import HTMLExporter
    from traitlets.config import Config

    config = Config()
    config.TagRemovePreprocessor.enabled = True
    config.TagRemovePreprocessor.remove_cell_tags = set(HIDDEN_TAGS)
    exporter = HTMLExporter(config=config, template_name="lab", template_file="simlab_page.html.j2",
                            extra_loaders=[DictLoader({"simlab_page.html.j2": _PAGE_TEMPLATE})],
                            exclude_input_prompt=True, exclude_output_prompt=True, exclude_input=not show_code)
    exporter.register_preprocessor(_sanitizer_class()(), enabled=True)
    nb = copy.deepcopy(nb)
    for i, cell in enumerate(nb.cells):  # the page's cell ids by position, not the notebook's random ones
        if "id" in cell:
            cell["id"] = f"cell-{i}"
    body, _ = exporter.from_notebook_node(nb, resources={"metadata": {"name": "simlab report"}})
    return stable_ids(safe_urls(body))


_URL_ATTRIBUTE = re.compile(r"""\s(href|src|action|formaction|xlink:href)\s*=\s*("[^"]*"|'[^']*')""", re.IGNORECASE)
_IMG_WITHOUT_SOURCE = re.compile(r"<img\b(?![^>]*\ssrc=)[^>]*>", re.IGNORECASE)  # what is left of an unsafe image
_SAFE_SCHEMES = ("http:", "https:", "mailto:", "data:image/png;", "data:image/jpeg;", "data:image/svg+xml;")


def safe_urls(page: str) -> str:
    """``page`` without a link or source whose scheme could run code (``javascript:``, ``vbscript:``, a
    ``data:`` that is not an image): the sanitiser sees a Markdown output before it is rendered, so a Markdown
    link ``[x](javascript:…)`` becomes a link only after it; this removes such attributes from the whole page,
    and the images left without a source (an ``<img onerror=…>`` the sanitiser stripped)."""

    def check(m: re.Match[str]) -> str:
        value = html.unescape(m.group(2)[1:-1])
        value = re.sub(r"[\x00-\x20]+", "", value).lower()
        scheme = re.match(r"^[a-z][a-z0-9+.-]*:", value)
        if scheme is None or value.startswith(_SAFE_SCHEMES):
            return m.group(0)
        return ""

    return _IMG_WITHOUT_SOURCE.sub("", _URL_ATTRIBUTE.sub(check, page))


# the lab template without what it loads from the network (require.js, MathJax and mermaid from a CDN): a report
# needs none of them (figures are inline PNGs, tables plain HTML, no notebook uses LaTeX) and opens offline
_PAGE_TEMPLATE = """{%- extends 'lab/index.html.j2' -%}
{%- block html_head_js_requirejs -%}{%- endblock html_head_js_requirejs -%}
{%- block html_head_js_mathjax -%}{%- endblock html_head_js_mathjax -%}
{%- block html_head_js_mermaidjs -%}{%- endblock html_head_js_mermaidjs -%}
"""

# ids the table libraries draw at random on every render: great_tables' ten lower-case letters (the id of the
# table's <div>, its <style> rules prefixed with it) and pandas Styler's T_ and five hex digits
_GT_ID = re.compile(r'<div id="([a-z]{10})"')
_STYLER_ID = re.compile(r"\bT_[0-9a-f]{5}\b")


def stable_ids(page: str) -> str:
    """``page`` with the random ids of great_tables and pandas Styler tables renumbered in page order
    (``gt1``, ``gt2``, …; ``T_s1``, …), so rendering the same results twice gives the same bytes."""
    names: dict[str, str] = {}
    for found in _GT_ID.finditer(page):
        key = found.group(1)
        if key not in names and f"#{key} " in page:
            names[key] = f"gt{len(names) + 1}"
    styler: dict[str, str] = {}
    for found in _STYLER_ID.finditer(page):
        styler.setdefault(found.group(0), f"T_s{len(styler) + 1}")
    names.update(styler)
    if not names:
        return page
    pattern = re.compile(r"\b(" + "|".join(map(re.escape, names)) + r")\b")
    return pattern.sub(lambda m: names[m.group(1)], page)


# ------------------------------------------------------------------ the top of the page

TUNE_NOTE = (
    "Intervals are 95%. Search values are optimistic (the best of many tries on the same games); confirmed "
    "values are measured on fresh seeds, free of the search's selection but, for a largest gap or a sum of "
    "distances, still pushed up by noise (the bias-corrected values beside them take the bootstrap's estimate of "
    "that off). The improvement verdict is a paired test: the recommended change minus the printed data, deal by "
    "deal on the shared fresh deals, one-sided at 5%. See the sections below for how each number was measured.")
RUN_NOTE = ("Intervals are 95% and clustered by deal (the games of one deal share their random draws); win rates "
            "split shared wins. Each section below says which of the stored games it rests on and how its numbers "
            "were measured.")

_TOP_CSS = """<style>
#simlab-summary { font-family: sans-serif; max-width: 1100px; margin: 1em auto; padding: 1em;
  border: 1px solid #ccc; border-radius: 6px; }
#simlab-summary h1 { margin-top: 0; }
#simlab-summary .simlab-takeaway { font-size: 1.15em; line-height: 1.5; }
#simlab-summary .simlab-cautions { background: #fff4e5; border: 1px solid #e6a23c; border-radius: 4px;
  padding: 0.5em 1em; margin: 0.5em 0 1em; }
#simlab-summary table th { text-align: left; vertical-align: top; padding-right: 1em; white-space: nowrap; }
#simlab-summary table td { text-align: left; }
#simlab-toc { font-family: sans-serif; max-width: 1100px; margin: 0 auto 1em; padding: 0.5em 1em;
  border: 1px solid #ddd; border-radius: 6px; background: #fafafa; }
#simlab-toc ol { margin: 0.2em 0; padding-left: 1.4em; }
#simlab-toc .simlab-toc-title { font-weight: bold; margin: 0.2em 0; }
@media (min-width: 1500px) {
  #simlab-toc { position: fixed; top: 1em; left: 0.5em; width: 15em; max-height: calc(100vh - 2em);
    overflow-y: auto; margin: 0; font-size: 0.9em; }
  body { padding-left: 17em; }
}
</style>"""


def stored_deals(man: dict[str, Any]) -> int | None:
    """The deals a run holds per variant (its stored games over the games of one deal), or None if its plan
    does not say."""
    plan = man.get("plan") or {}
    games, deals = plan.get("games"), plan.get("deals")
    if not games or not deals:
        return None
    per_deal = games / deals
    variants = max(1, len(man.get("variants") or []))
    return round(man.get("games_done", 0) / variants / per_deal)


def deals_caution(deals: int) -> str:
    """The caution a page on fewer than ``FEW_DEALS`` (100) deals opens with when its notebook wrote none
    (:func:`simlab.analysis.headlines.few_deals_caution` writes one that knows the headline's precision)."""
    return (f"This page rests on {deals:,} deal{'s' if deals != 1 else ''} per variant (fewer than {FEW_DEALS}): "
            "its intervals are wide and a deal-clustered interval on so few deals is itself rough. Intervals shrink "
            f"with the square root of the deals: about {max(FEW_DEALS, 4 * deals):,} deals would "
            f"{'halve them' if 4 * deals >= FEW_DEALS else 'make them trustworthy'}.")


def _run_rows(run_dir: Path, man: dict[str, Any], notebook: str) -> tuple[list[tuple[str, str]], str]:
    """The "what was run" table of a run's page, and the note under it."""
    spec = man.get("spec", {})
    plan = man.get("plan", {})
    players = spec.get("players", {})
    who = players.get("seats") or players.get("pool") or []
    variants = man.get("variants") or []
    done = int(man.get("games_done", 0))
    deals = stored_deals(man)
    if deals is not None:
        per_deal = plan["games"] / plan["deals"]
        stored = f"{done:,} games: {deals:,} deals"
        if per_deal != 1:
            stored += f" of {per_deal:g} games each (the seatings of one deal)"
        if len(variants) > 1:
            names = [str(v) for v in variants]
            shown = ", ".join(names) if len(names) <= 6 else f"{', '.join(names[:3])}, …, {names[-1]}"
            stored += f", in each of {len(variants)} variants ({shown})"
    else:
        stored = f"{done:,} games"
    planned = int(plan.get("games", 0)) * max(1, len(variants))
    if planned and planned != done:
        stored += f"; {planned:,} were planned"
    rows = [
        ("experiment", man["experiment"] + (f": {man['description']}" if man.get("description") else "")),
        ("game", f"{man['game']}, {', '.join(map(str, who))}; rotation {players.get('rotation', 'cyclic')}"),
        ("games stored in the run", stored + f" (seed {spec.get('seed', 0)})"),
        ("run", f"{man.get('run_in_project') or Path(run_dir).name} (spec hash {man['spec_hash']}, "
                f"status {man['status']})"),  # the run's path in its project: no machine's absolute path
        ("versions", ", ".join(f"{k} {v}" for k, v in man.get("versions", {}).items())),
        ("notebook", notebook),
    ]
    for variant, s in (man.get("stop") or {}).items():
        rows.append(("stopping rule", f"{variant}: {s.get('decision')} after {s.get('stop_at'):,} games"))
    return rows, RUN_NOTE


def _default_findings(run_dir: Path) -> list[str]:
    """Headline findings for a notebook that wrote none: each player's win rate."""
    tables = summary(run_dir)
    out = []
    for r in tables["players"].sort("win_rate", descending=True).iter_rows(named=True):
        out.append(f"{r['player']} ({r['variant']}): win rate {r['win_rate']:.3f} "
                   f"[95% CI {r['win_lo']:.3f}, {r['win_hi']:.3f}] over {r['games']:,} seat-games")
    return out[:5]


@dataclass(frozen=True)
class Link:
    """A "what was run" value that links to a file beside the page (``after``: plain text following the link)."""

    text: str
    href: str
    after: str = ""


REPLAY_PAGE = "replay.html"
LOPSIDED_PAGE = "replay-lopsided.html"
PRINTED_PAGE = "replay-printed.html"
MATTERED_PAGE = "replay-mattered.html"
MATTERED_WITHOUT_PAGE = "replay-mattered-without.html"


def _replay_row(run_dir: Path, number: int, variant: str, out_dir: Path, page: str, label: str, title: str,
                after: str) -> tuple[str, Link]:
    """Write the replay page of game ``number`` (of ``variant``) of a stored run as ``out_dir / page``, titled
    ``title``; the "what was run" row that links it."""
    from simlab.replay.page import replay_html
    from simlab.replay.sources import replay_from_run

    game = replay_from_run(run_dir, number, variant)
    (out_dir / page).write_text(replay_html(game, title), encoding="utf-8")
    return label, Link(f"watch game {number} step by step", page, after)


def _titled(label: str, where: str, number: int, variant: str = "base") -> str:
    """A replay page's title: the row's label (capitalised), ``where`` the run is, the game number and variant."""
    return f"{label[0].upper()}{label[1:]}{where} {number}" + (f" ({variant})" if variant != "base" else "")


def _replay_rows(run_dir: Path, out_dir: Path) -> list[tuple[str, Link]]:
    """Write the replay pages of the run's typical and most lopsided games beside the report (one page when they
    are the same game), and those of the game where a component mattered most (:func:`_mattered_rows`); the
    "what was run" rows linking them, each with the rule that chose it."""
    from simlab.replay.choose import LOPSIDED_RULE, TYPICAL_RULE, lopsided_game, typical_game

    rows = []
    chosen: set[tuple[int, str]] = set()
    for label, page, rule, pick in (("a typical game", REPLAY_PAGE, TYPICAL_RULE, typical_game),
                                    ("the most lopsided game", LOPSIDED_PAGE, LOPSIDED_RULE, lopsided_game)):
        number, variant = pick(run_dir)
        if (number, variant) in chosen:
            continue
        chosen.add((number, variant))
        rows.append(_replay_row(run_dir, number, variant, out_dir, page, label,
                                _titled(label, f" of {run_dir.parent.name}: game", number, variant), f" ({rule})"))
    return rows + _mattered_rows(run_dir, out_dir)


def _tune_replay_rows(tune_dir: Path, man: dict[str, Any], out_dir: Path) -> list[tuple[str, Link]]:
    """A tune's replays: the typical game (:data:`~simlab.replay.choose.TYPICAL_RULE`) of the answer's confirmation
    run, and the same deal (the confirmation runs share their seeds) played with the printed data; only the
    printed game when the tune recommends no change."""
    from simlab.replay.choose import TYPICAL_RULE, typical_game

    confirm = tune_dir / "confirm"
    if not (confirm / "printed").is_dir():
        return []
    answer = str((man.get("answer") or {}).get("candidate") or "printed")
    runs = [answer, "printed"] if answer != "printed" and (confirm / answer).is_dir() else ["printed"]
    number, variant = typical_game(confirm / runs[0])
    rows = []
    for run, page in zip(runs, (REPLAY_PAGE, PRINTED_PAGE), strict=False):
        label = (f"a typical game with {answer}'s data" if run != "printed"
                 else "the same deal with the printed data" if len(runs) == 2 else "a typical game (printed data)")
        after = f" (confirmation run; {TYPICAL_RULE})" if run == runs[0] else " (the same seed)"
        rows.append(_replay_row(confirm / run, number, variant, out_dir, page, label,
                                _titled(label, f": {man.get('experiment')}, confirmation game", number), after))
    return rows


def _mattered_rows(run_dir: Path, out_dir: Path) -> list[tuple[str, Link]]:
    """For an ablation run, the replay pages of the game where its most valuable component mattered most
    (:func:`simlab.replay.choose.mattered_most`): that deal with the printed data and with the component changed,
    side by side in the "what was run" rows; no rows for other runs."""
    from simlab.replay.choose import MATTERED_RULE, mattered_most

    m = mattered_most(run_dir)
    if m is None:
        return []
    verb = "removed" if m.change == "remove" else f"changed ({m.change})"
    with_it = f"seat {m.seat} held it: win share {m.win_share_with:g}, score {m.score_with:g}"
    without = f"seat {m.seat}: win share {m.win_share_changed:g}, score {m.score_changed:g}"
    rows = []
    for variant, page, label, after in (
            ("base", MATTERED_PAGE, f"the game where {m.label} mattered most", f" ({with_it}; {MATTERED_RULE})"),
            (m.changed, MATTERED_WITHOUT_PAGE, f"the same deal with {m.label} {verb}", f" ({without})")):
        rows.append(_replay_row(run_dir, m.game, variant, out_dir, page, label,
                                _titled(label, f": {run_dir.parent.name}, game", m.game, variant), after))
    return rows


def page_top(title: str, findings: dict[str, list[str]], rows: list[tuple[str, str | Link]], note: str) -> str:
    """The top of a report page: the title, the cautions (a visible box), the takeaway (at most three
    sentences), the headline findings (at most five) and the compact "what was run" table.

    ``findings`` is :func:`simlab.analysis.headlines.read_findings`'s dict. Every text is escaped.
    """
    from simlab.analysis.headlines import MAX_HEADLINES, MAX_TAKEAWAY

    e = html.escape
    parts = [f'<header id="simlab-summary">{_TOP_CSS}<h1>{e(title)}</h1>']
    if findings.get("cautions"):
        items = "".join(f"<li>{e(c)}</li>" for c in findings["cautions"])
        parts.append(f'<div class="simlab-cautions" role="note"><strong>Caution</strong><ul>{items}</ul></div>')
    if findings.get("takeaway"):
        sentences = " ".join(e(t) for t in findings["takeaway"][:MAX_TAKEAWAY])
        parts.append(f'<h2 id="in-short">In short</h2><p class="simlab-takeaway">{sentences}</p>')
    headlines = findings.get("headlines", [])[:MAX_HEADLINES]
    if headlines:
        items = "".join(f"<li>{e(h)}</li>" for h in headlines)
        parts.append(f'<h2 id="headline-findings">Headline findings</h2><ol class="simlab-headlines">{items}</ol>')
    def cell(v: str | Link) -> str:
        return f'<a href="{e(v.href)}">{e(v.text)}</a>{e(v.after)}' if isinstance(v, Link) else e(v)

    cells = "".join(f'<tr><th scope="row">{e(k)}</th><td>{cell(v)}</td></tr>' for k, v in rows)
    parts.append(f'<h2 id="what-was-run">What was run</h2><table class="simlab-run">{cells}</table>'
                 f'<p class="simlab-note">{e(note)}</p></header>')
    return "".join(parts)


_HEADING = re.compile(r"<(h[23])\b([^>]*)>(.*?)</\1>", re.DOTALL | re.IGNORECASE)
_ID = re.compile(r'\bid="([^"]*)"')
_TAG = re.compile(r"<[^>]+>")


def _slug(text: str) -> str:
    return re.sub(r"[^\w-]+", "-", text.strip()).strip("-").lower() or "section"


def table_of_contents(page: str) -> tuple[str, str]:
    """(``page`` with an id on every h2/h3 heading, the ``<nav id="simlab-toc">`` listing them with links).

    Headings keep the ids nbconvert gave them; the others get one from their text, made unique.
    """
    used = set(_ID.findall(page))
    entries: list[tuple[str, str, str]] = []

    def visit(m: re.Match[str]) -> str:
        tag, attrs, inner = m.group(1).lower(), m.group(2), m.group(3)
        text = html.unescape(_TAG.sub("", inner.replace("¶", ""))).strip()
        if not text:
            return m.group(0)
        found = _ID.search(attrs)
        if found:
            anchor = found.group(1)
        else:
            base = anchor = _slug(text)
            n = 1
            while anchor in used:
                n += 1
                anchor = f"{base}-{n}"
            used.add(anchor)
            attrs = f'{attrs} id="{anchor}"'
        entries.append((tag, anchor, text))
        return f"<{m.group(1)}{attrs}>{inner}</{m.group(1)}>"

    page = _HEADING.sub(visit, page)
    items, open_sub = [], False
    for tag, anchor, text in entries:
        link = f'<a href="#{html.escape(anchor, quote=True)}">{html.escape(text)}</a>'
        if tag == "h3":
            if not items:
                items.append("<li>")
            if not open_sub:
                items.append("<ol>")
                open_sub = True
            items.append(f"<li>{link}</li>")
        else:
            if open_sub:
                items.append("</ol>")
                open_sub = False
            if items:
                items.append("</li>")
            items.append(f"<li>{link}")
    if open_sub:
        items.append("</ol>")
    if items:
        items.append("</li>")
    nav = (f'<nav id="simlab-toc" aria-label="Contents"><p class="simlab-toc-title">Contents</p>'
           f'<ol>{"".join(items)}</ol></nav>')
    return page, nav


def finish_page(body: str, top: str) -> str:
    """The rendered notebook ``body`` with ``top`` (:func:`page_top`) and the table of contents after
    ``<body>``; ids made stable."""
    marker = body.find("<body")
    start = body.find(">", marker) + 1 if marker >= 0 else 0
    page = body[:start] + top + "<!--simlab-toc-->" + body[start:]
    page, nav = table_of_contents(page)
    return stable_ids(page.replace("<!--simlab-toc-->", nav, 1))
