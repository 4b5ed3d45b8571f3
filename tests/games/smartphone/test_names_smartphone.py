"""Numbers in Smartphone Inc.'s log, menus and map (issue 23, "Names and numbers people copy").

A buyer is shown by the ``position`` that ``buyers.csv`` and a spec's ``[tune]`` knob (``where = {region_id =
"LATAM", position = 3}``) give it, counted from 0; an office by the ``place`` of ``office_places.csv``, from 0.
"""

from __future__ import annotations

import re

from simlab.core.driver import play_game
from simlab.core.game import get_game
from simlab.core.player import resolve_players
from simlab.core.rng import game_seed
from simlab.core.trace import game_trace
from simlab.games.smartphone import render


def test_buyer_text_uses_the_data_files_position():
    """Every buyer row's text names its region and its buyers.csv position, exactly."""
    g = get_game("smartphone")
    rules = g.ruleset(3, {}, None)
    data = rules.data
    for b, row in enumerate(data.buyer_array):
        region, pos = data.regions[int(row[0])].id, int(row[1])
        assert render._buyer(rules, b).startswith(f"{region} buyer position {pos} (")


def test_log_sales_and_offices_match_the_trace_and_data():
    """A seeded game's log names each sale's buyer by the trace's 0-based ``index`` (buyers.csv ``position``)
    and each office by its 0-based ``place`` (office_places.csv)."""
    g = get_game("smartphone")
    res = resolve_players(g, ["greedy", "expansionist", "tech_rusher"])
    rules = g.ruleset(3, {}, None)
    record = play_game(g, rules, res, int(game_seed(7, 0)), record_events=True)
    events = game_trace(g, rules, record, [p.label for p in res], 0)
    lines = g.log_lines(events)
    sales = [e for e in events if e["event"] == "sale"]
    sold = [line for line in lines if " sells to " in line]
    assert sales and len(sales) == len(sold)
    for e, line in zip(sales, sold, strict=True):
        assert f"{e['buyer']['region']} buyer position {e['buyer']['index']} (" in line
    offices = [e for e in events if e["event"] == "office"]
    opened = [line for line in lines if " opens an office in " in line]
    assert offices and len(offices) == len(opened)
    for e, line in zip(offices, opened, strict=True):
        assert re.search(rf"in {e['region']} \(place {e['place']}, ", line)
    assert min(e["place"] for e in offices) == 0
