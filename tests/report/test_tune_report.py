"""The report of a tune: `simlab report SPEC.toml` on a spec with a [tune] section tunes it (or reuses its
newest complete tune) and writes a page with the tune's summary, the search, the candidates confirmed on
fresh seeds, the objective before and after, the recommended change, and headline findings.

One tiny Smartphone Inc. tune (three heuristics at 2-3 players, three buyer knobs, 16 trials of 243
games, a knob and the description named with markup that must stay text) is made and reported once for
the module through the CLI; a tiny Sentient card_value_band tune covers the card-value section. The page is
opened in headless Chromium when there is one.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import nbformat
import pytest
from browser import find_chromium, inspect_page
from typer.testing import CliRunner

from simlab.cli import app
from simlab.core.errors import SimlabError
from simlab.report import report_run
from simlab.report.tune import default_findings, tune_dir_of

pytestmark = [pytest.mark.filterwarnings("ignore::DeprecationWarning"),
              pytest.mark.filterwarnings("ignore::optuna.exceptions.ExperimentalWarning")]

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts" / "browser"

SPEC = """
description = "a tiny tune for the report test [x](javascript:alert(1))"
game = "smartphone"
seed = 3
games = 240
workers = 1

[options]
colour_assignment = "random"

[players]
pool = ["greedy", "price_cutter", "tech_rusher"]
n_players = [2, 3]
rotation = "cyclic"

[tune]
objective = "max_position_deviation"
position = "colour"
max_changes = 3
trials = 16
stages = 2
target = 0.05
sampler = "random"

[tune.confirm]
candidates = 2
games = 240

[[tune.knobs]]
file = "buyers"
where = { region_id = "INDIA", position = 0 }
field = "price_cap"
range = [1, 6]

[[tune.knobs]]
name = "<script>alert(3)</script>"
file = "buyers"
where = { region_id = "LATAM", position = 0 }
field = "price_cap"
range = [1, 6]

[[tune.knobs]]
file = "buyers"
where = { region_id = "SEASIA", kind = "red" }
field = "price_cap"
add = [-1, 2]
"""

SECTIONS = ("What was tuned", "Knobs", "Budgets", "The search", "Trials by status", "complete trials of the search",
            "What mattered: the knobs", "The best candidates, confirmed on fresh seeds",
            "The objective per player count, before and after", "each position's win rate, before and after",
            "The recommendation", "How to read these numbers", "In short", "Headline findings")


@pytest.fixture(scope="module")
def reported(tmp_path_factory):
    """`simlab report experiments/tiny_tune.toml` in a fresh project: no tune yet, so it tunes, then reports."""
    project = tmp_path_factory.mktemp("tune_project")
    spec = project / "experiments" / "tiny_tune.toml"
    spec.parent.mkdir()
    spec.write_text(SPEC)
    with pytest.MonkeyPatch.context() as mp:
        mp.chdir(project)
        result = CliRunner().invoke(app, ["report", "experiments/tiny_tune.toml", "-q", "--report-dir",
                                          str(project / "report")])
    assert result.exit_code == 0, result.output
    tunes = list((project / "results" / "tiny_tune").iterdir())
    assert len(tunes) == 1 and tunes[0].name.endswith("-tune")
    page = (project / "report" / "index.html").read_text(encoding="utf-8")
    return {"project": project, "tune": tunes[0], "output": result.output, "page": page,
            "report": project / "report", "manifest": json.loads((tunes[0] / "tune.json").read_text())}


def _body(page: str) -> str:
    return re.sub(r"<(style|script)\b.*?</\1>", "", page, flags=re.S)


def test_the_page_has_the_summary_and_every_section(reported):
    page, man = reported["page"], reported["manifest"]
    body = _body(page)
    assert page.count('id="simlab-summary"') == 1
    assert "simlab tune report: tiny_tune" in page and "a tiny tune for the report test" in page
    for what in ("max_position_deviation", "16 trials", f"seed {man['confirm']['seed']}", "status complete",
                 f"{man['confirm']['games']:,} games each",
                 f"simlab {man['versions']['simlab']}", "<td>tune_report.ipynb</td>"):
        assert what in page, what
    assert f"results/tiny_tune/{reported['tune'].name}" in page  # the tune's path in its project, not the machine's
    for section in SECTIONS:
        assert section in page, section
    # a section that does not apply is left out, and no wiring of the notebook is on the page (issue 23)
    assert "What each card is worth" not in page and "Not shown" not in page and "run_dir" not in page
    if man["answer"]["recommended"]:
        assert "[[variants]]" in page and 'name = "tuned"' in page  # the ready-to-paste variant
    else:
        assert "No change recommended." in page and 'name = "tuned"' not in page
    # user-supplied names stay text (issue 23, "Safety"): the knob named <script>, the description's link
    assert "<script>alert(3)" not in page and "&lt;script&gt;alert(3)" in page
    assert 'href="javascript:' not in page
    assert len(re.findall(r"This page rests on [\d,]+ games in [\d,]+ deals", page)) == 1
    # tables as text with intervals, figures with alt text and captions, code hidden
    assert re.search(r"\d\.\d+ \[[−\d]", body) and "95% CI]" in body
    for dump in ("dtype", "shape:", "…", "&hellip;", "<td>str</td>", "<td>f64</td>"):
        assert dump not in body, dump
    images = re.findall(r"<img\b[^>]*>", body)
    # the search, Optuna's importances and slice plot, the objective per player count, the colours' win rates
    assert len(images) == 5
    assert all(len(re.search(r'alt="([^"]*)"', img).group(1)) > 20 for img in images)
    assert page.count("<figcaption") == len(images)
    assert "jp-CodeMirrorEditor" not in body and "tempfile" not in body
    assert "cdnjs.cloudflare.com/ajax/libs/require" not in page and "mathjax/2.7.7" not in page


def test_the_candidates_and_objective_tables_show_every_candidate(reported):
    page = reported["page"]
    import polars as pl

    candidates = pl.read_csv(reported["tune"] / "candidates.csv")
    assert candidates["candidate"][0] == "printed" and candidates.height >= 2
    for label in candidates["candidate"].to_list()[1:]:
        assert f"trial {label.removeprefix('trial')}" in page
    recommended = reported["manifest"]["answer"]["recommended"]
    assert "printed data [95% CI]" in page
    assert ("(recommended) [95% CI]" if recommended else "(best of the search) [95% CI]") in page
    assert "paired difference (bound)" in page and "bias-corrected" in page and "unbiased" not in page
    assert "player count" in page and "2 players" in page and "3 players" in page
    for change in candidates["changes"].to_list()[1:]:
        assert change.split(":")[0] in page


def test_findings_are_headlines_with_intervals(reported):
    from simlab.analysis.headlines import read_findings

    found = read_findings(reported["report"])
    findings, takeaway = found["headlines"], found["takeaway"]
    assert 3 <= len(findings) <= 5 and all(isinstance(f, str) and "\n" not in f for f in findings)
    assert found["more"] == [] and found["cautions"]  # 24 confirmation deals: the page says so at the top
    assert 2 <= len(takeaway) <= 3
    recommended = reported["manifest"]["answer"]["recommended"]
    assert takeaway[0].startswith("Changing " if recommended else "No change is recommended: the best candidate")
    assert takeaway[-1].startswith("The search tried 16 distinct candidates of the 39 allowed changes")
    assert findings[0].startswith("printed data: largest |win rate − 1/n| of any colour")
    start = "recommended change (" if recommended else "no change recommended; the best candidate of the search ("
    assert any(f.startswith(start) and "target 0.05:" in f for f in findings)
    # issue 22: the improvement verdict is the paired test, stated with its bound
    assert any("paired difference from the printed data" in f and "one-sided 95% upper bound" in f
               for f in findings)
    assert any("colour" in f and "against a fair share" in f for f in findings)
    assert any(f.startswith("search: 16 trials") for f in findings)
    interval = re.compile(r"\d\.\d+ \[[−+]?\d\.\d+, [−+]?\d\.\d+\]")
    assert all(interval.search(f) for f in findings if not f.startswith("search:")), findings
    for line in findings:  # the CLI prints them too
        assert line[:40] in reported["output"].replace("\n", " ")


def test_the_notebook_ran_clean(reported):
    nb = nbformat.read(reported["report"] / "notebook.ipynb", as_version=4)
    for cell in nb.cells:
        for out in cell.get("outputs", []):
            assert out.get("name") != "stderr", out.get("text", "")[:300]
            assert out.get("output_type") != "error"
            text = out.get("text", "") + str(out.get("data", {}).get("text/plain", ""))
            assert "Warning" not in text, text[:300]


def test_a_second_report_reuses_the_complete_tune(reported, monkeypatch, tmp_path):
    """Without playing or executing anything again: the report step is stubbed."""
    import simlab.report.build as build

    seen = []

    def fake_report_run(target, report_dir=None, **_):
        seen.append(Path(target).resolve())
        return Path(report_dir) / "index.html"

    monkeypatch.setattr(build, "report_run", fake_report_run)
    monkeypatch.chdir(reported["project"])
    result = CliRunner().invoke(app, ["report", "experiments/tiny_tune.toml", "-q", "--report-dir", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert "reusing the stored tune" in result.output
    again = CliRunner().invoke(app, ["report", "experiments/tiny_tune.toml", "-q", "--out", str(reported["tune"]),
                                     "--report-dir", str(tmp_path)])
    assert again.exit_code == 0, again.output
    assert seen == [reported["tune"].resolve()] * 2
    assert len(list((reported["project"] / "results" / "tiny_tune").iterdir())) == 1


def test_a_tune_folder_is_found_by_path_or_name(reported):
    tune = reported["tune"]
    assert tune_dir_of(tune) == tune
    assert tune_dir_of(f"tiny_tune/{tune.name}", reported["project"] / "results") is not None
    assert tune_dir_of(tune / "confirm" / "printed") is None  # an ordinary run
    lines = default_findings(reported["manifest"])
    assert lines[0].startswith("printed data:") and "[95% CI" in lines[0]


def test_an_unfinished_tune_is_one_clear_error(reported, tmp_path):
    man = dict(reported["manifest"], status="searching")
    (tmp_path / "tune.json").write_text(json.dumps(man))
    with pytest.raises(SimlabError, match=r"not complete \(status searching\).*--resume"):
        report_run(tmp_path, tmp_path / "report")


@pytest.mark.skipif(find_chromium() is None, reason="no Chromium on PATH: install Debian's chromium package "
                    "(apt-get install chromium; .ci/run does) to run the browser checks")
def test_the_tune_report_in_a_browser(reported):
    shot = ARTIFACTS / "fresh-tune_report.png"
    report = inspect_page(reported["report"] / "index.html", screenshot=shot)
    print(f"\nscreenshot: {shot}")
    assert len(report.images) == 5
    assert report.text_length > 3000
    problems = report.problems()
    assert not problems, f"(screenshot {shot}):\n  " + "\n  ".join(problems)


def test_a_card_value_band_tune_shows_each_cards_value(tmp_path):
    """A tiny Sentient tune of one card's VP against a band of card values (paired ablation of two cards)."""
    from simlab.runner.spec import parse_spec
    from simlab.tune.run import run_tune

    spec = parse_spec({
        "name": "tiny_band", "game": "sentient", "seed": 2, "games": 150, "shard_size": 150, "workers": 1,
        "record": ["takes"], "ablation": {"cards": [30, 40], "change": "remove"},
        "players": {"pool": ["investor", "specialist"], "repeat": True, "n_players": [2, 3], "rotation": "cyclic"},
        "tune": {"objective": "card_value_band", "band": [0, 4], "max_changes": 1, "trials": 2,
                 "confirm": {"candidates": 1, "games": 150},
                 "knobs": [{"file": "cards", "where": {"id": 30}, "field": "printed_vp", "range": [5, 6]}]}})
    tune = run_tune(spec, tmp_path / "tune", show_progress=False).path
    page = report_run(tune, tmp_path / "report").read_text(encoding="utf-8")
    assert "What each card is worth, before and after" in page
    assert "card 30" in page and "card 40" in page and "band [0, 4]" in page
    assert "each position's win rate" not in page and "Not shown" not in page
    assert "Not enough for Optuna's views: 2 complete trials" in page
    assert "simultaneous over the cards" in page and "holds for all the cards at once" in page
    assert len(re.findall(r"<img\b", _body(page))) == 3  # the search, the objective, the card values
    from simlab.analysis.headlines import read_findings

    findings = read_findings(tmp_path / "report")["headlines"]
    assert any("least typical card" in f and "VP" in f for f in findings)


def test_a_tune_is_published_with_the_staleness_check_of_the_studies(reported, monkeypatch):
    """issue 22: reports/ holds a tune's page; its record carries the tune's input hashes, so a changed spec is
    stale as a study's is."""
    from simlab.report import publish as pub

    project = reported["project"]
    assert reported["manifest"]["inputs"] and reported["manifest"]["data"]["base"]["data_hash"]
    monkeypatch.chdir(project)
    folder = pub.publish_one("tiny_tune", project, show_progress=False)
    answer = reported["manifest"]["answer"]["candidate"]
    replays = ["replay.html"] + (["replay-printed.html"] if answer != "printed" else [])  # issue 26
    assert sorted(p.name for p in folder.iterdir()) == sorted(["index.html", "report.json", "thumb.png", *replays])
    record = json.loads((folder / "report.json").read_text())
    assert record["run"] == reported["tune"].name and record["games"] > 0 and record["findings"]
    assert record["notebook"].endswith("tune_report.ipynb") and record["data"]["base"]
    assert any(p.startswith("simlab/games/smartphone/data/") for p in record["inputs"])
    assert pub.stale("tiny_tune", project) == []
    assert len(list((project / "results" / "tiny_tune").iterdir())) == 1  # the stored tune reused
    spec = project / "experiments" / "tiny_tune.toml"
    spec.write_text(SPEC.replace("seed = 3", "seed = 4"))
    try:
        assert any(p.startswith("spec experiments/tiny_tune.toml changed") for p in pub.stale("tiny_tune", project))
    finally:
        spec.write_text(SPEC)


def test_trials_never_played_are_drawn_apart(reported, tmp_path):
    """Issue 23: infeasible and invalid trials (a tune made before substitutes; a candidate the game rejects) have
    no value; the search plot marks them in a strip of their own, not at a made-up value under the target line.
    A copy of the reported tune with three of its trials turned into such trials (and one into a repeat)."""
    import shutil

    import polars as pl

    legacy = tmp_path / "legacy"
    shutil.copytree(reported["tune"], legacy, ignore=shutil.ignore_patterns("report"))
    table = pl.read_parquet(legacy / "trials.parquet")
    unplayed = [n for n in table.filter(pl.col("status") == "pruned")["trial"].to_list()][:3]
    assert len(unplayed) == 3
    table.with_columns(
        pl.when(pl.col("trial").is_in(unplayed[:2])).then(pl.lit("infeasible"))
        .when(pl.col("trial") == unplayed[2]).then(pl.lit("invalid")).otherwise(pl.col("status")).alias("status"),
        pl.when(pl.col("trial").is_in(unplayed)).then(None).otherwise(pl.col("value")).alias("value"),
        pl.when(pl.col("trial").is_in(unplayed)).then(None).otherwise(pl.col("last_stage_value"))
        .alias("last_stage_value"),
    ).drop("origin", "replaced").write_parquet(legacy / "trials.parquet")
    page = report_run(legacy, tmp_path / "report").read_text(encoding="utf-8")
    caption = re.search(r"<figcaption[^>]*>(The objective of each trial of the search[^<]*)</figcaption>", page)
    assert caption and "Trials never played (infeasible, invalid) have no value: they are marked in the strip under " \
                       "the plot" in caption.group(1), caption


def test_the_tune_links_the_same_deal_with_its_answer_and_with_the_printed_data(reported, tmp_path):
    """issue 26: a published tune page links replays: the typical game of the answer's confirmation run and the
    same deal (the confirmation runs share their seeds) with the printed data."""
    import polars as pl

    from simlab.replay.choose import typical_game
    from simlab.report.build import PRINTED_PAGE, REPLAY_PAGE, _tune_replay_rows
    from simlab.results import load

    tune, man = reported["tune"], reported["manifest"]
    answer = man["answer"]["candidate"]
    rows = _tune_replay_rows(tune, man, tmp_path)
    runs = [answer, "printed"] if answer != "printed" else ["printed"]
    number, _variant = typical_game(tune / "confirm" / runs[0])
    assert [r[1].href for r in rows] == [REPLAY_PAGE, PRINTED_PAGE][:len(runs)]
    assert all(r[1].text == f"watch game {number} step by step" for r in rows)
    seeds = {run: load(tune / "confirm" / run)["games"].filter(pl.col("game") == number).select("seed").collect()
             .item() for run in runs}
    assert len(set(seeds.values())) == 1  # one deal, shown with the answer's data and with the printed data
    for row in rows:
        assert 'id="replay-data"' in (tmp_path / row[1].href).read_text()
