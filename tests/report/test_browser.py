"""Every report opened in a real browser (headless Chromium): each image loads, nothing is wider
than the page, no console error; a full-page screenshot of each is kept under
``test-artifacts/browser/`` (the path is printed; run pytest with ``-s`` to see it).

The reports checked are the published ones in ``reports/`` as committed (not the reports a
user builds there; one page per notebook), and a report freshly built by each of simlab's study notebooks
on a small run (``tests/small_reports.py``: a change to a notebook or to the exporter is caught before it is
published). The network is blocked in the browser: a report must read
the same offline. Without Chromium the tests skip; ``.ci/run`` installs Debian's ``chromium``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from browser import BrowserError, find_chromium, inspect_page
from small_reports import NAMES as SMALL_REPORTS

from simlab.report.publish import published_studies

pytestmark = [
    pytest.mark.filterwarnings("ignore::DeprecationWarning"),
    pytest.mark.skipif(find_chromium() is None, reason="no Chromium on PATH: install Debian's chromium package "
                       "(apt-get install chromium; .ci/run does) to run the browser checks"),
]

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts" / "browser"
# the published studies that are there (test_published.py fails for one that is not); not a user's own reports


def _one_per_notebook(names: list[str]) -> list[str]:
    """The first published page of each report notebook: pages of one notebook share their layout and checks
    (the strong-play companions share notebooks/strong_play.ipynb), so one of each is opened in the browser."""
    seen, out = set(), []
    for name in names:
        record = ROOT / "reports" / name / "report.json"
        notebook = json.loads(record.read_text()).get("notebook") if record.is_file() else name
        if notebook not in seen:
            seen.add(notebook)
            out.append(name)
    return out


PUBLISHED = _one_per_notebook([name for name in published_studies(ROOT)
                               if (ROOT / "reports" / name / "index.html").is_file()])

def _check(page: Path, name: str) -> None:
    shot = ARTIFACTS / f"{name}.png"
    report = inspect_page(page, screenshot=shot)
    print(f"\nscreenshot of {page}: {shot}")
    assert report.images, f"{page}: no images at all"
    assert report.text_length > 1000, f"{page}: the page is nearly empty ({report.text_length} characters)"
    problems = report.problems()
    assert not problems, f"{page} (screenshot {shot}):\n  " + "\n  ".join(problems)


@pytest.mark.parametrize("name", PUBLISHED)
def test_published_report_in_a_browser(name):
    _check(ROOT / "reports" / name / "index.html", f"published-{name}")


@pytest.mark.parametrize("name", SMALL_REPORTS)
def test_fresh_report_in_a_browser(name, small_report):
    _check(small_report(name) / "index.html", f"fresh-{name}")


def test_the_checks_catch_what_they_should(tmp_path):
    """A page with a missing image, a too-wide table, a console error and a script from the network."""
    page = tmp_path / "bad.html"
    page.write_text(
        "<!DOCTYPE html><html><head><script src='https://cdn.example.org/x.js'></script></head><body>"
        "<p>text</p><img src='missing.png' alt='gone'><img alt='fine' src='data:image/png;base64,"
        "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=='>"
        "<div style='overflow-x:auto'><table style='width:3000px'><tr><td>wide</td></tr></table></div>"
        "<script>requestAnimationFrame(() => setTimeout(() => console.error('late boom'), 0));"
        "console.error('boom'); undefinedFunction();</script></body></html>")
    report = inspect_page(page, screenshot=tmp_path / "bad.png")
    problems = "\n".join(report.problems())
    assert [img["alt"] for img in report.broken_images] == ["gone"]
    assert "image did not load" in problems and "missing.png" in problems
    assert "element wider than the viewport" in problems and "table" in problems
    assert "page scrolls sideways" not in problems  # the table scrolls inside its box, the page does not
    assert "console.error: boom" in problems
    assert "console.error: late boom" in problems  # logged after the load event: the check waits for it
    assert "undefinedFunction" in problems
    assert "cdn.example.org" in problems  # the network is blocked: a page must not need it
    assert (tmp_path / "bad.png").stat().st_size > 0

    wide = tmp_path / "wide.html"
    wide.write_text("<html><body><div style='width:2000px'>a wide page</div></body></html>")
    report = inspect_page(wide)
    assert report.scroll_width > report.inner_width and "page scrolls sideways" in "\n".join(report.problems())

    overlap = tmp_path / "overlap.html"
    overlap.write_text("<html><body><h2>A heading</h2><h3 style='margin-top:-1.6em'>Another heading</h3>"
                       "<table><tr><td>cell one</td><td style='position:relative;left:-30px'>cell two</td></tr>"
                       "</table></body></html>")
    problems = "\n".join(inspect_page(overlap).problems())
    assert "text overlaps: h2 'A heading' and h3 'Another heading'" in problems
    assert "text overlaps: td 'cell one' and td 'cell two'" in problems

    good = tmp_path / "good.html"
    good.write_text("<html><body><p>fine</p></body></html>")
    assert inspect_page(good).problems() == []


def test_the_gallery_in_a_browser(tmp_path):
    """issue 23: reports/index.html, each study's thumbnail and answer linking to its page (the published one
    when there is one, and one built here from two made-up records)."""
    import json

    from PIL import Image

    from simlab.report import publish as pub

    if (ROOT / "reports" / "index.html").is_file():
        _check(ROOT / "reports" / "index.html", "published-gallery")
    (tmp_path / "reports").mkdir()
    (tmp_path / "reports" / pub.STUDIES).write_text('studies = ["one", "two"]\n')
    for i, name in enumerate(["one", "two"]):
        folder = tmp_path / "reports" / name
        folder.mkdir()
        (folder / "index.html").write_text("<html><body><p>page</p></body></html>")
        Image.new("RGB", (360, 200), (40 * i, 120, 200)).save(folder / pub.THUMB)
        (folder / pub.RECORD).write_text(json.dumps({
            "experiment": name, "description": f"study {name}", "spec": f"experiments/{name}.toml", "games": 9000,
            "deals": 1000, "takeaway": [f"The answer of {name} <b>in short</b>, with [0.1, 0.2]. " * 3],
            "findings": []}))
    gallery = pub.write_gallery(tmp_path)
    report = inspect_page(gallery, screenshot=ARTIFACTS / "fresh-gallery.png")
    assert len(report.images) == 2 and not report.problems(), report.problems()
    assert "<b>" not in gallery.read_text()


def test_a_browser_that_dies_is_one_clear_error(tmp_path):
    with pytest.raises(BrowserError, match="closed its DevTools pipe"):
        inspect_page(tmp_path / "x.html", binary="/bin/false", timeout=5)
