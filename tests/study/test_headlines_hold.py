"""Headlines that hold (issue 22 part 5), on small runs of the four notebooks: every headline that claims a
difference survives the procedure its page states (Holm at 5% over its family), and the record of each
headline (``headlines.json``) matches the sentences the report shows (``findings.json``); a zero share is
shown with its upper bound, never as a bare 0; the Sentient ladder names the player its scale is anchored to."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from study_helpers import fabricate_run

from simlab.analysis.headlines import read_findings
from simlab.report import report_run
from simlab.runner.run import run_experiment
from simlab.runner.spec import load_spec, parse_spec

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

ROOT = Path(__file__).resolve().parents[2]


def _report(spec: dict, tmp: Path) -> tuple[list[str], list[dict], str]:
    run = run_experiment(parse_spec(spec), tmp / "run", show_progress=False).path
    index = report_run(run, tmp / "report")
    return (*_read(tmp / "report"), index.read_text())


def _read(folder: Path) -> tuple[list[str], list[dict]]:
    """(every finding in order: the five headlines then the rest, the record of each)."""
    findings = read_findings(folder)
    return findings["headlines"] + findings["more"], json.loads((folder / "headlines.json").read_text())


def assert_headlines_hold(findings: list[str], record: list[dict]) -> None:
    """Every sentence is recorded; every claim survived Holm or BH over a named family; no bare zero share."""
    assert findings and [h["text"] for h in record] == findings
    for h in record:
        assert h["kind"] in ("estimate", "claim")
        if h["kind"] == "claim":
            assert h["survives"] is True and h["procedure"] in ("holm", "bh") and h["family"]
            assert h["family_size"] >= 1 and h["p"] <= h["p_adjusted"] <= 0.05
        else:  # a sentence that quotes an adjusted p below 5% as a finding must be recorded as a claim
            assert not re.search(r"Holm p = ", h["text"]), h["text"]
        assert not re.search(r"(?<![\d.])0\.0+ \[", h["text"]), h["text"]  # a zero share printed as 0.000


def test_card_ev_headlines_hold(tmp_path):
    findings, record, _ = _report({
        "name": "ablation_tiny", "game": "sentient", "seed": 2, "games": 600, "shard_size": 600, "workers": 1,
        "record": ["takes"], "report": "sentient_card_ev.ipynb",
        "players": {"pool": ["investor", "specialist"], "repeat": True, "n_players": [2, 3], "rotation": "cyclic"},
        "ablation": {"cards": [30, 40, 59]}}, tmp_path)
    assert_headlines_hold(findings, record)
    change = [h for h in record if "between 2 and 3 players" in h["text"]]
    assert len(change) == 1  # the player-count change: a surviving claim, or the statement that none survives
    assert change[0]["kind"] == "claim" or "none survives Holm over the 60 cards" in change[0]["text"]
    assert "paired by deal" in change[0]["text"]


def test_strategies_headlines_hold_and_the_ladder_names_its_anchor(tmp_path):
    findings, record, page = _report({
        "name": "tiny", "game": "sentient", "seed": 4, "games": 400, "shard_size": 200, "workers": 1,
        "players": {"pool": ["random", "greedy", "investor"], "n_players": [2, 3], "rotation": "cyclic"}}, tmp_path)
    assert_headlines_hold(findings, record)
    # random never finishes ahead here, so its rating is set by the ridge: the scale is anchored to greedy
    assert "greedy = 0" in page and "only differences are interpretable" in page
    assert findings[0].startswith("strongest: investor, rated +") and "Elo above greedy" in findings[0]


def test_start_position_headlines_hold(tmp_path):
    run = fabricate_run(tmp_path / "run", deals=3, bonus=4.0, variants={"usa_even": 0.0})
    report_run(run, tmp_path / "report")
    findings, record = _read(tmp_path / "report")
    assert_headlines_hold(findings, record)
    assert any(h["kind"] == "claim" and h["family"] == "colour win rate against 1/n, every cell" for h in record)


def test_pendulum_solo_headlines_hold_and_zero_cells_show_their_bound(tmp_path):
    spec = load_spec(ROOT / "experiments" / "pendulum_quickstart.toml")
    run = run_experiment(spec, tmp_path / "run", show_progress=False).path
    page = report_run(run, tmp_path / "report").read_text()
    findings, record = _read(tmp_path / "report")
    assert_headlines_hold(findings, record)
    level_d = [f for f in findings if f.startswith("solo, level D: no player beat the Automas")]
    assert level_d and "win probability is 0 (95% upper bound 0.0" in level_d[0]
    assert "0 (≤ 0.0" in page  # the tables show the bound of every zero cell
    # issue 23: a takeaway of at most three sentences answers the page's question; p-values read '< 0.0001',
    # never '1.61e-80'; a zero share shows its bound in the takeaway too
    takeaway = read_findings(tmp_path / "report")["takeaway"]
    assert 1 <= len(takeaway) <= 3 and takeaway[0].startswith("The best player's chance of beating both Automas")
    assert "0 (≤ 0.0" in takeaway[0] and "level D, where no player won" in takeaway[0]
    assert not any(re.search(r"\de-\d", f) for f in findings + takeaway)
