"""A fabricated Smartphone Inc. run directory: the tables the runner stores, with a known colour effect.

Used to test the start-position notebook without playing games. The seats table has the
columns of ``simlab.games.smartphone.columns.SEAT_COLUMNS`` plus the runner's common columns
(``simlab.core.schema``); colours are dealt at random to the seats of every game, and the
``advantaged`` colour gets extra sales VP, so it wins more.
"""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import numpy as np
import polars as pl

from simlab.games.smartphone.columns import GAME_COLUMNS, SEAT_COLUMNS

COLOURS = ["blue", "yellow", "green", "red", "white"]
REGIONS = {"blue": "USA", "yellow": "LATAM", "green": "INDIA", "red": "RUSSIA", "white": "SEASIA"}
TYPES = ["greedy", "price_cutter", "tech_rusher", "expansionist"]


def _tables(counts: list[int]) -> list[tuple[int, tuple[str, ...], int, int]]:
    """(n_players, seating, lineup, rotation) of every table, line-ups drawn from TYPES with repeats."""
    out = []
    lineup = 0
    for n in counts:
        for combo in itertools.combinations_with_replacement(TYPES, n):
            if len(set(combo)) == 1:
                continue
            seen = set()
            for r in range(n):
                seating = tuple(combo[(s + r) % n] for s in range(n))
                if seating not in seen:
                    seen.add(seating)
                    out.append((n, seating, lineup, len(seen) - 1))
            lineup += 1
    return out


def fabricate_seats(deals: int = 30, counts: tuple[int, ...] = (2, 3, 4, 5), seed: int = 0,
                    advantaged: str = "blue", bonus: float = 3.0,
                    variants: dict[str, float] | None = None) -> tuple[pl.DataFrame, pl.DataFrame]:
    """(games, seats) tables of a run; ``variants`` maps variant name -> the advantaged colour's bonus."""
    rng = np.random.default_rng(seed)
    tables = _tables(list(counts))
    T = len(tables)
    variants = {"base": bonus, **(variants or {})}
    n_games = deals * T
    # what every variant shares: the seats' colours and the noise of each game (common random numbers)
    colours = [rng.permutation(COLOURS)[: tables[g % T][0]] for g in range(n_games)]
    noise = [rng.normal(0, 4, size=(tables[g % T][0], 5)).round() for g in range(n_games)]
    skill = {"greedy": 2.0, "price_cutter": 0.0, "tech_rusher": 1.0, "expansionist": 0.5}
    games_parts, seat_parts = [], []
    for variant, vbonus in variants.items():
        game_rows, seat_rows = [], []
        for g in range(n_games):
            n, seating, lineup, rotation = tables[g % T]
            deal = g // T
            comp = np.abs(noise[g] + np.array([20, 3, 8, 4, 1]))  # sales, nfc, control, patent, retailer
            for s in range(n):
                comp[s, 0] += skill[seating[s]] + (vbonus if colours[g][s] == advantaged else 0.0)
            comp = comp.round().astype(np.int64)
            score = comp.sum(axis=1)
            rank = np.array([1 + int((score > score[s]).sum()) for s in range(n)])
            winner = rank == 1
            game_rows.append({"game": g, "deal": deal, "seed": 1000 + deal, "experiment_seed": seed,
                              "variant": variant, "lineup": lineup, "rotation": rotation, "n_players": n,
                              "n_winners": int(winner.sum()),
                              "winner_mask": int(sum(1 << s for s in range(n) if winner[s])),
                              "steps": 100, "retailers": 0, "tech_back_mask": 0, "upgrades_left": 0})
            for s in range(n):
                row = {"game": g, "seat": s, "player": seating[s], "variant": variant, "lineup": lineup,
                       "rotation": rotation}
                vals = {c: 0 for c in SEAT_COLUMNS}
                vals.update(score=int(score[s]), rank=int(rank[s]), winner=bool(winner[s]), colour=colours[g][s],
                            start_region=REGIONS[colours[g][s]], vp_track=int(comp[s, :3].sum()),
                            sales_vp=int(comp[s, 0]), nfc_vp=int(comp[s, 1]), control_vp=int(comp[s, 2]),
                            patent_vp=int(comp[s, 3]), retailer_vp=int(comp[s, 4]),
                            goods_produced=int(comp[s, 0]) // 2 + 5, goods_sold=int(comp[s, 0]) // 2,
                            goods_lost=5, offices=3 + int(colours[g][s] == advantaged), controls=1,
                            technologies=2, patents=int(comp[s, 3] > 4), upgrades_taken=4, tokens_taken=0,
                            price_sum=25, first_in_priority=1)
                per_round = np.diff(np.linspace(0, comp[s, :3].sum(), 6).round()).astype(int)
                for r in range(5):
                    vals[f"round{r + 1}_vp"] = int(per_round[r])
                row.update(vals)
                row["win_share"] = (1.0 / winner.sum()) if winner[s] else 0.0
                seat_rows.append(row)
        games_parts.append(pl.DataFrame(game_rows))
        seat_parts.append(pl.DataFrame(seat_rows))
    cat = [pl.col(c).cast(pl.Categorical) for c in ("variant", "player", "colour", "start_region")]
    games = pl.concat(games_parts).with_columns(pl.col("variant").cast(pl.Categorical),
                                                pl.col("n_players").cast(pl.Int8))
    seats = pl.concat(seat_parts).with_columns(*cat, pl.col("seat").cast(pl.Int8))
    assert all(c in seats.columns for c in SEAT_COLUMNS) and all(c in games.columns for c in GAME_COLUMNS)
    return games, seats


def fabricate_run(path: Path, **kwargs) -> Path:
    """Write a fabricated run (parquet shards per variant and a manifest) under ``path``; returns it."""
    games, seats = fabricate_seats(**kwargs)
    variants = games["variant"].cast(pl.Utf8).unique(maintain_order=True).to_list()
    for v in variants:
        for name, frame in (("games", games), ("seats", seats)):
            d = path / name / v
            d.mkdir(parents=True, exist_ok=True)
            frame.filter(pl.col("variant").cast(pl.Utf8) == v).write_parquet(d / "shard-000000.parquet")
    per_variant = games.height // len(variants)
    manifest = {
        "experiment": "smartphone_fabricated", "run": path.name, "source": "<fabricated>", "description": "",
        "spec": {"game": "smartphone", "seed": 0, "players": {"pool": TYPES, "rotation": "cyclic"}},
        "spec_hash": "0" * 16, "game": "smartphone", "versions": {}, "status": "complete",
        "plan": {"games": per_variant}, "variants": variants, "tables": ["games", "seats"],
        "games_done": games.height, "stop": {}, "shards_done": {v: [0] for v in variants},
    }
    (path / "manifest.json").write_text(json.dumps(manifest))
    return path


# names that carry markup (issue 23, "Safety"): a report must show them as text, never run or render them
SCRIPT = "<script>alert(3)</script>"
IMG = "<img src=x onerror=alert(1)>"
LINK = "[x](javascript:alert(1))"


def rename_in_run(src: Path, dst: Path, players: dict[str, str] | None = None,
                  variants: dict[str, str] | None = None) -> Path:
    """A copy of the run ``src`` at ``dst`` with player labels and variant names renamed (old -> new)
    in every stored table and in the manifest: a run whose names carry markup, without playing it again."""
    players, variants = players or {}, variants or {}
    man = json.loads((src / "manifest.json").read_text())
    for table in man.get("tables", ["games", "seats"]):
        for variant, shards in man["shards_done"].items():
            for shard in shards:
                file = src / table / variant / f"shard-{shard:06d}.parquet"
                frame = pl.read_parquet(file)
                for column, mapping in (("player", players), ("variant", variants)):
                    if column in frame.columns and mapping:
                        dtype = frame[column].dtype
                        frame = frame.with_columns(pl.col(column).cast(pl.Utf8).replace(mapping).cast(dtype))
                out = dst / table / variants.get(variant, variant)
                out.mkdir(parents=True, exist_ok=True)
                frame.write_parquet(out / file.name)
    man["variants"] = [variants.get(v, v) for v in man["variants"]]
    man["shards_done"] = {variants.get(v, v): s for v, s in man["shards_done"].items()}
    if isinstance(man.get("data"), dict):
        man["data"] = {variants.get(v, v): d for v, d in man["data"].items()}
    pool = man.get("spec", {}).get("players", {})
    for key in ("pool", "seats"):
        if key in pool:
            pool[key] = [players.get(p, p) for p in pool[key]]
    (dst / "manifest.json").write_text(json.dumps(man))
    return dst


def live_markup_in(outputs: list[dict]) -> list[str]:
    """The live markup in executed cells' outputs: Markdown rendered by markdown-it (raw HTML passed through,
    as a page would) and HTML as it is, searched for ``<script``, ``<img src=x`` and ``javascript:`` links;
    what a name made inert never shows."""
    import re

    from markdown_it import MarkdownIt

    md = MarkdownIt("commonmark").enable("table")
    found = []
    for output in outputs:
        data = output.get("data", {})
        texts = [md.render("".join(data["text/markdown"]))] if "text/markdown" in data else []
        if "text/html" in data:
            texts.append("".join(data["text/html"]))
        for text in texts:
            for pattern in (r"<script", r"<img src=x", r"""<a\s[^>]*href=["']?javascript:"""):
                found += [text[max(0, m.start() - 60): m.end() + 60] for m in re.finditer(pattern, text, re.I)]
    return found


def live_markup(notebook: Path) -> list[str]:
    """:func:`live_markup_in` over every output of an executed notebook file."""
    cells = json.loads(Path(notebook).read_text())["cells"]
    return live_markup_in([output for cell in cells for output in cell.get("outputs", [])])
