"""The published reports in ``reports/``: present, small, indexed, tracked by git, and built from
the current specs and data files (a report left stale by a change to either fails here: run
``simlab publish NAME``); and ``simlab publish`` itself, on a small study in a scratch project."""

from __future__ import annotations

import html
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from simlab.report import publish as pub

sys.path.insert(0, str(Path(__file__).resolve().parent))
from page_notebook import write_notebook

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

ROOT = Path(__file__).resolve().parents[2]
MAX_BYTES = 5_000_000  # a published report is a page to read, not a data set
STUDIES = pub.published_studies(ROOT)  # reports/published.toml


@pytest.mark.parametrize("name", STUDIES)
def test_published_report_matches_the_current_spec_and_data(name, monkeypatch):
    monkeypatch.chdir(ROOT)
    folder = ROOT / "reports" / name
    assert (folder / "index.html").is_file() and (folder / pub.RECORD).is_file(), \
        f"{name} is not published: run `simlab publish {name}`"
    problems = pub.stale(name, ROOT)
    assert not problems, f"reports/{name} is stale, run `simlab publish {name}`:\n  " + "\n  ".join(problems)
    record = json.loads((folder / pub.RECORD).read_text())
    assert record["status"] == "complete" and record["games"] > 0 and (record["findings"] or record.get("takeaway"))
    assert record["notebook"] and record["notebook"].endswith(".ipynb")


@pytest.mark.parametrize("name", STUDIES)
def test_published_folder_holds_only_the_page_and_its_record(name):
    folder = ROOT / "reports" / name
    files = [p for p in folder.rglob("*") if p.is_file()]
    assert {p.name for p in files} >= {"index.html", pub.RECORD}
    assert all(p.suffix.lower() in pub.KEEP or p.name == pub.RECORD for p in files), files
    size = sum(p.stat().st_size for p in files)
    assert size < MAX_BYTES, f"reports/{name} is {size / 1e6:.1f} MB"
    page = (folder / "index.html").read_text(encoding="utf-8")
    assert page.count('id="simlab-summary"') == 1


def test_the_index_lists_every_published_report_with_its_findings():
    index = (ROOT / "reports" / "README.md").read_text(encoding="utf-8")
    assert "simlab publish" in index
    for name in STUDIES:
        assert f"]({name}/index.html)" in index
        record = json.loads((ROOT / "reports" / name / pub.RECORD).read_text())
        assert (record.get("takeaway") or record["findings"])[0] in index


def test_the_gallery_lists_every_published_report():
    """issue 23: reports/index.html, each study with its answer and a thumbnail, linking to its page."""
    gallery = (ROOT / "reports" / "index.html").read_text(encoding="utf-8")
    for name in STUDIES:
        assert f'href="{name}/index.html"' in gallery
        if (ROOT / "reports" / name / pub.THUMB).is_file():
            assert f'src="{name}/{pub.THUMB}"' in gallery


@pytest.mark.skipif(shutil.which("git") is None or not (ROOT / ".git").exists(), reason="not a git checkout")
def test_git_tracks_the_published_reports_and_ignores_the_rest():
    def ignored(path: str) -> bool:
        return subprocess.run(["git", "check-ignore", "-q", "--no-index", path], cwd=ROOT).returncode == 0

    for name in STUDIES:
        assert not ignored(f"reports/{name}/index.html") and not ignored(f"reports/{name}/{pub.RECORD}")
        assert not ignored(f"reports/{name}/{pub.THUMB}")
        assert ignored(f"reports/{name}/notebook.ipynb") and ignored(f"reports/{name}/findings.json")
    for path in ("reports/README.md", "reports/index.html", f"reports/{pub.STUDIES}"):
        assert not ignored(path)
    assert ignored("test-artifacts/browser/x.png")


TINY = """
description = "a tiny published study"
game = "sentient"
seed = 4
games = 90
shard_size = 90
workers = 1
report = "page.ipynb"

[data]
cards = "cards.csv"

[players]
pool = ["random", "greedy", "investor"]
n_players = [2]
rotation = "cyclic"
"""


@pytest.fixture
def project(tmp_path, monkeypatch):
    """A scratch project with one study, ``tiny``, that plays a copy of Sentient's cards."""
    from simlab.core.game import get_game
    from simlab.runner.inputs import game_data_dir

    (tmp_path / "experiments").mkdir()
    (tmp_path / "experiments" / "tiny.toml").write_text(TINY)
    shutil.copyfile(game_data_dir(get_game("sentient")) / "cards.csv", tmp_path / "experiments" / "cards.csv")
    write_notebook(tmp_path / "experiments" / "page.ipynb")  # a small notebook whose figures pass the check
    (tmp_path / "reports").mkdir()
    (tmp_path / "reports" / pub.STUDIES).write_text('studies = ["tiny"]\n')
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_simlab_publish_writes_the_page_its_record_and_the_index(project):
    from simlab.cli import app

    result = CliRunner().invoke(app, ["publish", "-q"])
    assert result.exit_code == 0, result.output
    folder = project / "reports" / "tiny"
    # the page links the replays of a typical and the most lopsided game, chosen by the stated rules
    from simlab.replay.choose import lopsided_game, typical_game

    run_dir = next((project / "results" / "tiny").iterdir())
    (number, _v), (lopsided, _w) = typical_game(run_dir), lopsided_game(run_dir)
    pages = ["replay.html"] + (["replay-lopsided.html"] if lopsided != number else [])
    assert sorted(p.name for p in folder.iterdir()) == sorted(["index.html", "report.json", "thumb.png", *pages])
    assert f'<a href="replay.html">watch game {number} step by step</a>' in (folder / "index.html").read_text()
    if lopsided != number:
        assert (f'<a href="replay-lopsided.html">watch game {lopsided} step by step</a>'
                in (folder / "index.html").read_text())
    assert 'id="replay-data"' in (folder / "replay.html").read_text()
    record = json.loads((folder / "report.json").read_text())
    assert record["spec"] == "experiments/tiny.toml" and record["games"] == 90
    assert record["findings"] or record["takeaway"]
    assert record["inputs"]["experiments/cards.csv"]["kind"] == "data file"
    assert any(p.startswith("simlab/games/sentient/data/") for p in record["inputs"])
    assert record["data"]["base"] and record["notebook"] == "experiments/page.ipynb"
    assert pub.stale("tiny", project) == []
    index = (project / "reports" / "README.md").read_text()
    answer = (record["takeaway"] or record["findings"])[0]
    assert "](tiny/index.html)" in index and answer in index
    gallery = (project / "reports" / "index.html").read_text()
    assert 'href="tiny/index.html"' in gallery and 'src="tiny/thumb.png"' in gallery
    assert html.escape(answer) in gallery
    page, thumb = (folder / "index.html").read_bytes(), (folder / "thumb.png").read_bytes()
    replay = (folder / "replay.html").read_bytes()

    # a second publish reuses the stored run, and gives the same page and thumbnail, byte for byte
    again = CliRunner().invoke(app, ["publish", "tiny"])
    assert again.exit_code == 0 and "reusing the stored run" in again.output
    assert (folder / "index.html").read_bytes() == page and (folder / "thumb.png").read_bytes() == thumb
    assert (folder / "replay.html").read_bytes() == replay
    # and `simlab report` of the published study leaves reports/ untouched: the page goes into the run
    before = {p: p.read_bytes() for p in (project / "reports").rglob("*") if p.is_file()}
    user = CliRunner().invoke(app, ["report", "experiments/tiny.toml", "-q"])
    assert user.exit_code == 0, user.output
    assert {p: p.read_bytes() for p in (project / "reports").rglob("*") if p.is_file()} == before
    run_dir = next((project / "results" / "tiny").iterdir())
    assert (run_dir / "report" / "index.html").is_file()
    assert len(list((project / "results" / "tiny").iterdir())) == 1

    # a changed data file, or a changed spec, makes the published report stale
    cards = project / "experiments" / "cards.csv"
    lines = cards.read_text().splitlines()
    lines[1] += "a note"  # the first card's notes column
    cards.write_text("\n".join(lines) + "\n")
    problems = pub.stale("tiny", project)
    assert any(p.startswith("data file experiments/cards.csv changed") for p in problems)
    assert any(p.startswith("data of variant 'base' changed") for p in problems)
    spec = project / "experiments" / "tiny.toml"
    spec.write_text(TINY.replace("seed = 4", "seed = 5"))
    assert any(p.startswith("spec experiments/tiny.toml changed") for p in pub.stale("tiny", project))
    # and publishing again plays a new run rather than reuse one of other data
    again = CliRunner().invoke(app, ["publish", "tiny", "-q"])
    assert again.exit_code == 0, again.output
    assert pub.stale("tiny", project) == []


def test_an_unknown_study_is_one_clear_error(project):
    from simlab.cli import app

    result = CliRunner().invoke(app, ["publish", "nonesuch"])
    assert result.exit_code != 0
    assert "not a published study: nonesuch" in str(result.exception) + result.output


def test_the_studies_are_data(project):
    """issue 24: the published studies are listed in reports/published.toml, not in code."""
    (project / "reports" / pub.STUDIES).write_text('studies = ["tiny", "other"]\n')
    assert pub.published_studies(project) == ("tiny", "other")
    (project / "reports" / pub.STUDIES).write_text('studies = ["../evil"]\n')
    with pytest.raises(pub.SimlabError, match="plain folder names"):
        pub.published_studies(project)
    (project / "reports" / pub.STUDIES).unlink()
    with pytest.raises(pub.SimlabError, match="no list of published studies"):
        pub.published_studies(project)


def test_a_strong_play_companion_is_published_beside_its_study(project):
    """issue 25: a companion spec re-plays its study's questions with a search player on the study's deals; its
    record names the study's run, and a change to the study's spec makes the companion stale."""
    from simlab.cli import app

    companion = TINY.replace('report = "page.ipynb"', 'report = "strong_play.ipynb"').replace(
        'pool = ["random", "greedy", "investor"]', 'pool = ["ismcts(iterations=20)"]\nmatch = "self"').replace(
        "games = 90", "games = 20").replace('rotation = "cyclic"', 'rotation = "none"') + \
        '\n[companion]\nstudy = "tiny"\n'
    assert "strong_play.ipynb" in companion and "games = 20" in companion
    (project / "experiments" / "tiny_strong.toml").write_text(companion)
    (project / "reports" / pub.STUDIES).write_text('studies = ["tiny", "tiny_strong"]\n')
    result = CliRunner().invoke(app, ["publish", "-q"])
    assert result.exit_code == 0, result.output
    record = json.loads((project / "reports" / "tiny_strong" / "report.json").read_text())
    study = json.loads((project / "reports" / "tiny" / "report.json").read_text())
    assert record["companion"] == {"study": "tiny", "run": study["run"], "spec_hash": study["spec_hash"]}
    assert record["takeaway"][0].startswith("Re-played under strong play (ismcts(iterations=20))")
    assert pub.stale("tiny_strong", project) == []
    # the study's page links its companion (it is listed, so publishing every study writes it beside)
    assert pub.companions_of("tiny", project) == ["tiny_strong"] and pub.companions_of("tiny_strong", project) == []
    page = (project / "reports" / "tiny" / "index.html").read_text()
    assert '<a href="../tiny_strong/index.html">tiny_strong</a>' in page and "under strong play" in page
    (project / "experiments" / "tiny.toml").write_text(TINY.replace("seed = 4", "seed = 5"))
    assert any(p.startswith("the study it re-plays, experiments/tiny.toml, changed")
               for p in pub.stale("tiny_strong", project))


@pytest.mark.parametrize("name", STUDIES)
def test_every_published_report_links_a_replay_beside_it(name):
    """issue 26: every published page links at least one replay page, and every replay it links is there."""
    folder = ROOT / "reports" / name
    page = (folder / "index.html").read_text(encoding="utf-8")
    links = re.findall(r'<a href="(replay[\w-]*\.html)">watch game \d+ step by step</a>', page)
    assert links, f"reports/{name} links no replay"
    for link in links:
        assert 'id="replay-data"' in (folder / link).read_text(encoding="utf-8")
    assert {p.name for p in folder.glob("replay*.html")} == set(links)


@pytest.mark.parametrize("name", STUDIES)
def test_every_page_beside_a_published_report_that_it_links_is_there(name):
    """A published page's links to files beside it (replays, its companions' pages) all resolve."""
    folder = ROOT / "reports" / name
    page = (folder / "index.html").read_text(encoding="utf-8")
    for href in re.findall(r'<a href="([^"#:]+\.html)"', page):
        assert (folder / href).resolve().is_file(), f"reports/{name} links {href}, which is not there"


def test_every_study_with_a_published_companion_links_it():
    for name in STUDIES:
        page = (ROOT / "reports" / name / "index.html").read_text(encoding="utf-8")
        for companion in pub.companions_of(name, ROOT):
            assert f'<a href="../{companion}/index.html">{companion}</a>' in page, (name, companion)
