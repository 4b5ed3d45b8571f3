"""The published reports: the headline studies rendered into ``reports/<name>/`` and kept in git.

``simlab publish`` (:func:`publish`) runs each study listed in ``reports/published.toml``
(:func:`published_studies`; adding a study is one line there) from its spec
``experiments/<name>.toml`` (or reuses the newest complete stored run of the same spec whose
data and player files are unchanged; a spec with a ``[tune]`` section is tuned, or its newest
complete tune of the same files reused, and its page is the tune report), reports on it, and
keeps in ``reports/<name>/`` only what a reader needs: ``index.html`` (figures inline) and
``report.json``, the record of what the page was built from (spec hash, the run's input file
hashes and each variant's data hash, taken from the run's manifest, with paths relative to the
project), and ``thumb.png``, the page's first figure scaled down. It then rewrites
``reports/index.html`` (:func:`write_gallery`: each study's takeaway beside its thumbnail, linking
to the page) and ``reports/README.md`` (the same as Markdown, with the headline findings).
Only ``simlab publish`` writes ``reports/``: ``simlab report`` writes into the run's folder.
:func:`stale` says what no longer matches the current spec and data files, which the tests
check for every published report.

Everything is relative to the project folder (the current one by default), as ``simlab report`` is.
"""

from __future__ import annotations

import base64
import html
import io
import json
import re
import shutil
import tempfile
import time
import tomllib
from pathlib import Path
from typing import Any

from simlab.core.errors import SimlabError

STUDIES = "published.toml"  # reports/published.toml: studies = ["name", ...], by spec name (experiments/<name>.toml)
RECORD = "report.json"
THUMB = "thumb.png"
THUMB_WIDTH = 360  # pixels
THUMB_ASPECT = 0.75  # the most height per width a thumbnail keeps (a taller figure is cut to its top)
# Input kinds whose change makes a published report's numbers stale (the report notebook only
# changes how they are shown: recorded, but not a reason to rerun a study).
DATA_KINDS = ("game data file", "data file", "player file")
# What a stored run must share with the current project to be reused by `simlab publish`: the above and the
# game's code (rules and built-in players), so a changed player re-runs its studies. A published page is not
# called stale for a code change alone (a refactor that leaves every game the same would mark them all).
REUSE_KINDS = ("game code", *DATA_KINDS)
KEEP = (".html", ".png", ".svg", ".jpg", ".jpeg", ".css", ".js")  # what a page may need beside it


def published_studies(project: Path | None = None) -> tuple[str, ...]:
    """The published studies, in order, as ``reports/published.toml`` lists them (``studies = [...]``)."""
    from simlab.runner.store import safe_component

    path = (project or Path.cwd()).resolve() / "reports" / STUDIES
    if not path.is_file():
        raise SimlabError(f"{path}: no list of published studies (studies = [\"name\", ...]); run simlab publish in "
                          "the project folder that holds reports/")
    try:
        studies = tomllib.loads(path.read_text(encoding="utf-8")).get("studies")
    except tomllib.TOMLDecodeError as exc:
        raise SimlabError(f"{path}: {exc}") from None
    if not isinstance(studies, list) or not all(isinstance(n, str) and safe_component(n) for n in studies):
        raise SimlabError(f"{path}: studies must be a list of spec names (plain folder names), not {studies!r}")
    return tuple(studies)


def _relative(path: str, project: Path) -> str:
    """``path`` relative to ``project`` when inside it, else to the folder simlab is installed in
    (its bundled data: ``simlab/games/...``), else as it is; POSIX separators."""
    for base in (project, Path(__file__).resolve().parents[2]):  # simlab/report/publish.py -> the folder above simlab
        try:
            return Path(path).resolve().relative_to(base.resolve()).as_posix()
        except ValueError:
            continue
    return path


def relative_inputs(inputs: dict[str, dict[str, str]], project: Path) -> dict[str, dict[str, str]]:
    """A run's ``inputs`` (absolute path -> kind and hash) keyed by paths relative to ``project``."""
    return {_relative(path, project): dict(entry) for path, entry in sorted(inputs.items())}


def spec_path(name: str, project: Path) -> Path:
    return project / "experiments" / f"{name}.toml"


def companions_of(name: str, project: Path) -> list[str]:
    """The published studies that are strong-play companions of ``name`` (their spec's ``[companion]`` names it),
    in the order ``reports/published.toml`` lists them; none in a project that lists no published studies (a study
    published on its own, as a tune page is)."""
    if not (project / "reports" / STUDIES).is_file():
        return []
    out = []
    for other in published_studies(project):
        path = spec_path(other, project)
        try:
            raw = tomllib.loads(path.read_text(encoding="utf-8"))
        except (OSError, tomllib.TOMLDecodeError):
            continue  # publishing that study says what is wrong with it
        section = raw.get("companion")
        if isinstance(section, dict) and section.get("study") == name:
            out.append(other)
    return out


def current_record(name: str, project: Path | None = None) -> dict[str, Any]:
    """The hashes a report of ``name`` would record if it were built now from the current files."""
    from simlab.core.game import get_game
    from simlab.runner.inputs import input_hashes
    from simlab.runner.spec import load_spec
    from simlab.runner.variants import variant_data_hash

    project = (project or Path.cwd()).resolve()
    spec = load_spec(spec_path(name, project))
    game = get_game(spec.game)
    return {"spec_hash": spec.spec_hash(),
            "data": {v.name: variant_data_hash(game, v) for v in spec.variants},
            "inputs": relative_inputs(input_hashes(spec), project)}


def stale(name: str, project: Path | None = None, data_only: bool = True) -> list[str]:
    """What in ``reports/<name>/report.json`` no longer matches the current spec and data files
    (empty: the published report is up to date). ``data_only``: leave the report notebook out."""
    project = (project or Path.cwd()).resolve()
    record_file = project / "reports" / name / RECORD
    if not record_file.is_file():
        return [f"{record_file} is missing"]
    recorded = json.loads(record_file.read_text(encoding="utf-8"))
    now = current_record(name, project)
    out = []
    if recorded.get("spec_hash") != now["spec_hash"]:
        out.append(f"spec experiments/{name}.toml changed (hash {recorded.get('spec_hash')} -> {now['spec_hash']})")
    companion = recorded.get("companion")
    if companion:  # the heuristic study a strong-play companion compares with
        study = current_record(companion["study"], project)["spec_hash"]
        if companion.get("spec_hash") != study:
            out.append(f"the study it re-plays, experiments/{companion['study']}.toml, changed (hash "
                       f"{companion.get('spec_hash')} -> {study})")
    was = recorded.get("data", {})
    for variant in sorted(set(was) | set(now["data"])):
        if was.get(variant) != now["data"].get(variant):
            out.append(f"data of variant {variant!r} changed ({was.get(variant)} -> {now['data'].get(variant)})")
    old_inputs, new_inputs = recorded.get("inputs", {}), now["inputs"]
    for path in sorted(set(old_inputs) | set(new_inputs)):
        kind = (old_inputs.get(path) or new_inputs.get(path))["kind"]
        if data_only and kind not in DATA_KINDS:
            continue
        before, after = old_inputs.get(path, {}).get("hash"), new_inputs.get(path, {}).get("hash")
        if before != after:
            what = "is new" if before is None else "is gone" if after is None else f"changed ({before} -> {after})"
            out.append(f"{kind} {path} {what}")
    return out


def _reusable_run(spec: Any, root: Path) -> Path | None:
    """The newest complete stored run of ``spec`` under ``root`` whose data and player files are the current ones."""
    from simlab.results import manifest
    from simlab.runner.inputs import input_hashes

    base = root / spec.name
    if not base.is_dir():
        return None
    tag = spec.spec_hash()[:8]
    now = {p: e for p, e in input_hashes(spec).items() if e["kind"] in REUSE_KINDS}
    for run in sorted((p for p in base.iterdir() if p.name.endswith(tag) and (p / "manifest.json").is_file()),
                      reverse=True):
        man = manifest(run)
        was = {p: e for p, e in man.get("inputs", {}).items() if e.get("kind") in REUSE_KINDS}
        if man.get("status") == "complete" and man.get("spec_hash") == spec.spec_hash() and was == now:
            return run
    return None


def _reusable_tune(spec: Any, root: Path) -> Path | None:
    """The newest complete tune of ``spec`` under ``root`` whose recorded data and player files are the current ones."""
    from simlab.runner.inputs import input_hashes
    from simlab.tune.run import is_tune_dir, read_manifest

    base = root / spec.name
    if not base.is_dir():
        return None
    now = {p: e for p, e in input_hashes(spec).items() if e["kind"] in REUSE_KINDS}
    tag = f"{spec.spec_hash()[:8]}-tune"
    for path in sorted((p for p in base.iterdir() if p.name.endswith(tag) and is_tune_dir(p)), reverse=True):
        man = read_manifest(path)
        was = {p: e for p, e in man.get("inputs", {}).items() if e.get("kind") in REUSE_KINDS}
        if man.get("status") == "complete" and man.get("spec_hash") == spec.spec_hash() and was == now:
            return path
    return None


def _tune_manifest(path: Path) -> dict[str, Any]:
    """A tune's ``tune.json`` with the fields a published record reads from a run's manifest: the games of the
    search and the confirmation, and the confirmation's deals."""
    from simlab.tune.run import read_manifest

    man = read_manifest(path)
    confirm = man.get("confirm", {})
    confirmed = 0
    for run in sorted((path / "confirm").glob("*/manifest.json")):
        confirmed += int(json.loads(run.read_text(encoding="utf-8")).get("games_done", 0))
    return {**man, "games_done": int(man.get("search", {}).get("games", 0)) + confirmed,
            "plan": {"deals": confirm.get("test", {}).get("deals")}, "variants": [],
            "status": man.get("status")}


def _tune_notebook(man: dict[str, Any], project: Path) -> Path:
    """The notebook a tune's page is rendered with (``tune_report.ipynb``, whatever the spec's ``report``)."""
    from simlab.report.build import find_notebook
    from simlab.report.tune import TUNE_NOTEBOOK

    found = find_notebook(TUNE_NOTEBOOK, man.get("source", ""), project)
    if found is None:
        raise SimlabError(f"report notebook {TUNE_NOTEBOOK} not found")
    return found


def publish_one(name: str, project: Path | None = None, console: Any = None, show_progress: bool = True,
                workers: int | None = None) -> Path:
    """Run (or reuse) the study ``name``, report on it and write ``reports/<name>/``; returns its folder."""
    from simlab.analysis.headlines import read_findings
    from simlab.report.build import notebook_for, report_run
    from simlab.results import manifest
    from simlab.runner.inputs import file_hash
    from simlab.runner.run import DEFAULT_ROOT, run_experiment
    from simlab.tune.spec import load_spec  # the spec with its [tune] section read

    project = (project or Path.cwd()).resolve()
    path = spec_path(name, project)
    if not path.is_file():
        raise SimlabError(f"{path}: no spec for the published study {name} (run simlab publish in the project "
                          "folder that holds experiments/)")
    spec = load_spec(path, {"workers": workers})
    root = project / DEFAULT_ROOT
    if spec.tune is not None:  # a tune spec: its newest complete tune of the current data (simlab.tune.run)
        run_dir = _reusable_tune(spec, root)
        if run_dir is None:
            from simlab.tune.run import run_tune

            run_dir = run_tune(spec, None, console=console, show_progress=show_progress, root=root).path
        elif console is not None:
            console.print(f"{name}: reusing the stored tune {run_dir}", markup=False, highlight=False)
        man = _tune_manifest(run_dir)
    else:
        run_dir = _reusable_run(spec, root)
        if run_dir is None:
            run_dir = run_experiment(spec, None, console=console, show_progress=show_progress, root=root).path
        elif console is not None:
            console.print(f"{name}: reusing the stored run {run_dir}", markup=False, highlight=False)
        man = manifest(run_dir)
    target = project / "reports" / name
    tmp = Path(tempfile.mkdtemp(prefix=f"simlab-publish-{name}-"))  # kept when the notebook fails, to read
    from simlab.report.build import Link

    links = [("under strong play", Link(companion, f"../{companion}/index.html",
                                        " (its strong-play companion: the same questions played by search players on "
                                        "this study's deals, side by side with this page's findings, a verdict for "
                                        "each)"))
             for companion in companions_of(name, project)]
    index = report_run(run_dir, tmp, console=console, replay=True, links=links)
    findings = read_findings(index.parent)
    if target.exists():
        shutil.rmtree(target)
    target.mkdir(parents=True)
    for file in sorted(tmp.rglob("*")):
        if file.is_file() and file.suffix.lower() in KEEP:
            dest = target / file.relative_to(tmp)
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(file, dest)
    shutil.rmtree(tmp, ignore_errors=True)
    write_thumbnail(target / "index.html", target / THUMB)
    # the run's data and player files as the manifest recorded them; the notebook as it rendered the page now
    inputs = relative_inputs({p: e for p, e in man.get("inputs", {}).items() if e.get("kind") != "report notebook"},
                             Path(man.get("project") or project))
    notebook = notebook_for(man, run_dir) if spec.tune is None else _tune_notebook(man, project)
    inputs[_relative(str(notebook), project)] = {"kind": "report notebook", "hash": file_hash(notebook)}
    record = {
        "experiment": name,
        "description": man.get("description", ""),
        "spec": f"experiments/{name}.toml",
        "spec_hash": man["spec_hash"],
        "game": man.get("game"),
        "run": man.get("run"),
        "status": man.get("status"),
        "games": man.get("games_done", 0),
        "deals": man.get("plan", {}).get("deals"),
        "variants": man.get("variants", []),
        "data": {variant: entry.get("data_hash", "") for variant, entry in man.get("data", {}).items()},
        "inputs": inputs,
        "notebook": _relative(str(notebook), project),
        "versions": man.get("versions", {}),
        "run_created": man.get("created"),
        "published": time.strftime("%Y-%m-%dT%H:%M:%S"),
        "command": "simlab publish",
        "takeaway": findings["takeaway"],
        "findings": findings["headlines"],
        "more": findings["more"],
        "cautions": findings["cautions"],
    }
    if spec.companion is not None:  # a strong-play companion also rests on the study's stored run
        from simlab.strong_play import study_run

        study_dir = study_run(run_dir)
        record["companion"] = {"study": spec.companion.study, "run": study_dir.name,
                               "spec_hash": manifest(study_dir)["spec_hash"]}
    (target / RECORD).write_text(json.dumps(record, indent=2) + "\n", encoding="utf-8")
    return target


def _cell(text: str) -> str:
    """Text for one cell of a Markdown table."""
    return text.replace("|", "\\|").replace("\n", " ")


def _records(project: Path) -> list[dict[str, Any]]:
    """The records (``report.json``) of the published studies that are there, in the listed order."""
    records = []
    for name in published_studies(project):
        record_file = project / "reports" / name / RECORD
        if record_file.is_file():
            records.append(json.loads(record_file.read_text(encoding="utf-8")))
    return records


def _answer(rec: dict[str, Any]) -> str:
    """A study's answer in a sentence or three: its takeaway, else its first headline finding."""
    if rec.get("takeaway"):
        return " ".join(rec["takeaway"])
    return rec["findings"][0] if rec.get("findings") else ""


def write_thumbnail(page: Path, out: Path, width: int = THUMB_WIDTH) -> Path | None:
    """``out``: the page's first inline PNG figure scaled to ``width`` pixels (never enlarged; a tall one cut to
    its top, :data:`THUMB_ASPECT`), as a PNG with no
    time stamp or other metadata, so the same page gives the same bytes; None (and no file) if it has no figure."""
    from PIL import Image

    found = re.search(r'src="data:image/png;base64,([A-Za-z0-9+/=\s]+)"', page.read_text(encoding="utf-8"))
    out.unlink(missing_ok=True)
    if found is None:
        return None
    with Image.open(io.BytesIO(base64.b64decode(found.group(1)))) as image:
        image = image.convert("RGB")
        if image.width > width:
            image = image.resize((width, max(1, round(image.height * width / image.width))), Image.Resampling.LANCZOS)
        if image.height > image.width * THUMB_ASPECT:  # a tall figure: its top, so the gallery's cards stay even
            image = image.crop((0, 0, image.width, round(image.width * THUMB_ASPECT)))
        image.save(out, format="PNG", optimize=False)
    return out


_GALLERY_CSS = """
body { font-family: sans-serif; max-width: 1100px; margin: 1em auto; padding: 0 1em; color: #222; }
.studies { list-style: none; padding: 0; display: grid; grid-template-columns: repeat(auto-fill, minmax(320px, 1fr));
  gap: 1em; }
.study { border: 1px solid #ccc; border-radius: 6px; padding: 0.8em; overflow-wrap: anywhere; }
.study h2 { font-size: 1.1em; margin: 0 0 0.4em; }
.study img { width: 100%; height: auto; border: 1px solid #eee; }
.study p { margin: 0.4em 0; }
.study .meta { color: #555; font-size: 0.85em; }
"""


def write_gallery(project: Path | None = None) -> Path:
    """``reports/index.html``: every published study (tune pages included) as a card with its thumbnail and
    takeaway, linking to its page. Nothing but the records goes into it, so the same records give the same bytes."""
    project = (project or Path.cwd()).resolve()
    e = html.escape
    cards = []
    for rec in _records(project):
        name = rec["experiment"]
        link = f"{name}/index.html"
        thumb = project / "reports" / name / THUMB
        picture = (f'<a href="{e(link, quote=True)}"><img src="{e(name, quote=True)}/{THUMB}" '
                   f'alt="the first figure of the {e(name, quote=True)} report"></a>' if thumb.is_file() else "")
        deals = f" in {rec['deals']:,} deals" if rec.get("deals") else ""
        cards.append(
            f'<li class="study"><h2><a href="{e(link, quote=True)}">{e(name)}</a></h2>{picture}'
            f"<p>{e(_answer(rec))}</p>"
            f'<p class="meta">{e(rec.get("description", ""))}; {rec.get("games", 0):,} games{deals}; spec '
            f'<code>{e(rec.get("spec", ""))}</code></p></li>')
    page = (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>simlab: published reports</title>\n<style>{_GALLERY_CSS}</style>\n</head>\n<body>\n"
        "<h1>Published reports</h1>\n"
        "<p>The headline studies, rendered by <code>simlab publish</code> from their specs in "
        "<code>experiments/</code>. Each card gives the study's answer in short; open the page for the "
        "findings with their intervals, the figures and how each number was measured.</p>\n"
        f'<ul class="studies">\n{chr(10).join(cards)}\n</ul>\n</body>\n</html>\n')
    out = project / "reports" / "index.html"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(page, encoding="utf-8")
    return out


def write_index(project: Path | None = None) -> Path:
    """``reports/README.md``: every published report with its description, takeaway and headline findings."""
    project = (project or Path.cwd()).resolve()
    lines = [
        "# Published reports",
        "",
        "The headline studies, rendered from their specs in `experiments/` and kept in the repository so",
        "that a reader sees the results without running anything; [`index.html`](index.html) shows them as a",
        "gallery. Each folder holds the page (`index.html`, figures inline), `thumb.png` (its first figure, for",
        "the gallery) and `report.json`: the spec hash, the run's input file hashes and each variant's data",
        "hash it was built from, the games it rests on and its findings. The studies are listed in",
        "[`published.toml`](published.toml): adding one is a line there.",
        "`tests/report/test_published.py` fails when a spec or data file changes after its report was",
        "published. Regenerate them all (reusing stored runs of unchanged specs), the gallery and this file with",
        "",
        "```",
        "simlab publish",
        "```",
        "",
        "or one of them with `simlab publish NAME`. Reports you build yourself (`simlab report SPEC`) go into",
        "the run's own folder (`results/NAME/RUN/report/index.html`) or `--report-dir`, never here.",
        "",
    ]
    records = _records(project)
    lines += ["| report | what was run | in short |", "|---|---|---|"]
    for rec in records:
        lines.append(f"| [{rec['experiment']}]({rec['experiment']}/index.html) | {_cell(rec.get('description', ''))} "
                     f"| {_cell(_answer(rec))} |")
    lines.append("")
    for rec in records:
        name = rec["experiment"]
        lines += [f"## [{name}]({name}/index.html)", ""]
        if rec.get("description"):
            lines += [f"{rec['description'][0].upper()}{rec['description'][1:]}.", ""]
        variants = len(rec.get("variants", []))
        per = " per variant" if variants > 1 else ""
        deals = f" ({rec['deals']:,} deals{per})" if rec.get("deals") else ""
        several = f", {variants} variants" if variants > 1 else ""
        lines += [f"Spec [`{rec['spec']}`](../{rec['spec']}) (hash `{rec['spec_hash']}`): {rec['games']:,} games"
                  f"{deals}{several}; published {rec['published'][:10]}.", ""]
        if rec.get("takeaway"):
            lines += [" ".join(rec["takeaway"]), ""]
        if rec.get("findings"):
            lines += ["Headline findings:", ""]
            lines += [f"- {finding}" for finding in rec["findings"]]
            lines.append("")
    out = project / "reports" / "README.md"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text("\n".join(lines).rstrip("\n") + "\n", encoding="utf-8")
    return out


def publish(names: list[str] | None = None, project: Path | None = None, console: Any = None,
            show_progress: bool = True, workers: int | None = None) -> list[Path]:
    """Regenerate the published reports (every study of ``reports/published.toml``, or ``names``), the gallery
    ``reports/index.html`` and ``reports/README.md``."""
    studies = published_studies(project)
    chosen = list(names) if names else list(studies)
    unknown = [n for n in chosen if n not in studies]
    if unknown:
        raise SimlabError(f"not a published study: {', '.join(unknown)} (the published ones, listed in "
                          f"reports/{STUDIES}: {', '.join(studies)})")
    out = []
    for i, name in enumerate(chosen, 1):
        if console is not None:
            console.print(f"publishing {name} ({i}/{len(chosen)})", markup=False, highlight=False)
        out.append(publish_one(name, project, console=console, show_progress=show_progress, workers=workers))
    write_gallery(project)
    write_index(project)
    return out
