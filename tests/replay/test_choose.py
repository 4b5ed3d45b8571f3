"""Which stored games a page links (issue 26), each by its stated rule, checked against a plain recount of the
stored tables: a typical game, the most lopsided game, and in an ablation run the game where the run's most
valuable component mattered most, shown beside the same deal without it."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

import pytest

from simlab.replay.choose import lopsided_game, mattered_most, typical_game
from simlab.results import load
from simlab.runner.run import run_experiment
from simlab.runner.spec import parse_spec


@pytest.fixture(scope="module")
def ablation_run(tmp_path_factory) -> Path:
    spec = parse_spec({"name": "tiny_ablation", "game": "sentient", "seed": 11, "games": 40, "workers": 1,
                       "record": ["takes"], "players": {"seats": ["investor", "specialist"]},
                       "ablation": {"cards": [46, 48, 31], "change": "remove"}})
    return run_experiment(spec, tmp_path_factory.mktemp("ablation") / "run", show_progress=False).path


def _rows(run: Path, table: str) -> list[dict]:
    return load(run)[table].collect().to_dicts()


def test_typical_and_lopsided_games_follow_their_rules(ablation_run):
    margins: dict[int, float] = {}
    by_game = defaultdict(list)
    for r in _rows(ablation_run, "seats"):
        if str(r["variant"]) == "base":
            by_game[r["game"]].append(r)
    for game, rows in by_game.items():
        scores = [r["score"] for r in sorted(rows, key=lambda r: r["rank"])]
        margins[game] = scores[0] - scores[1]
    ordered = sorted(margins.values())
    median = ordered[(len(ordered) - 1) // 2]
    assert typical_game(ablation_run) == (min(g for g, m in margins.items() if m == median), "base")
    assert lopsided_game(ablation_run) == (min(g for g, m in margins.items() if m == max(ordered)), "base")


def test_the_game_where_the_most_valuable_card_mattered_most(ablation_run):
    """Recounted by hand: each card's value to the seat that took it in the full-deck game is its win share there
    minus in the same game without the card; the card worth most on average, then its game of largest value."""
    seats = {(str(r["variant"]), r["game"], r["seat"]): r for r in _rows(ablation_run, "seats")}
    holders = {(r["game"], r["seat"], r["card"]) for r in _rows(ablation_run, "takes") if str(r["variant"]) == "base"}
    values: dict[int, list[tuple[float, float, int, int]]] = defaultdict(list)
    for game, seat, card in holders:
        if card not in (46, 48, 31):
            continue
        with_it, without = seats[("base", game, seat)], seats[(f"card{card}_removed", game, seat)]
        values[card].append((with_it["win_share"] - without["win_share"], with_it["score"] - without["score"],
                             game, seat))
    worth = {card: sum(v[0] for v in vs) / len(vs) for card, vs in values.items()}
    top = min(worth, key=lambda c: (-worth[c], str(c)))
    best = min(values[top], key=lambda v: (-v[0], -v[1], v[2], v[3]))
    m = mattered_most(ablation_run)
    assert m is not None
    assert (m.component, m.changed, m.game, m.seat) == (str(top), f"card{top}_removed", best[2], best[3])
    assert m.win_share_with - m.win_share_changed == pytest.approx(best[0])
    assert m.score_with - m.score_changed == pytest.approx(best[1])
    assert m.label.startswith(f"card {top} (")


def test_the_mattered_pages_show_the_same_deal_with_and_without_the_card(ablation_run, tmp_path):
    from simlab.report.build import MATTERED_PAGE, MATTERED_WITHOUT_PAGE, _mattered_rows

    m = mattered_most(ablation_run)
    rows = _mattered_rows(ablation_run, tmp_path)
    assert [r[1].href for r in rows] == [MATTERED_PAGE, MATTERED_WITHOUT_PAGE]
    assert rows[0][0] == f"the game where {m.label} mattered most"
    assert rows[1][0] == f"the same deal with {m.label} removed"
    with_it, without = ((tmp_path / p).read_text() for p in (MATTERED_PAGE, MATTERED_WITHOUT_PAGE))
    assert f"game {m.game}" in with_it and f"({m.changed})" in without and 'id="replay-data"' in without


def test_a_run_without_ablation_has_no_such_game(tmp_path):
    spec = parse_spec({"name": "plain", "game": "sentient", "seed": 1, "games": 6, "workers": 1,
                       "players": {"seats": ["greedy", "random"]}})
    assert mattered_most(run_experiment(spec, tmp_path / "run", show_progress=False).path) is None
