"""Limits and one-line errors caught when the spec is read, before a run folder exists: seeds,
game and shard counts (the plan never lists every shard), data files in other encodings or
that are folders, card ids that are not integers, and removing more cards than a game needs."""

from __future__ import annotations

import subprocess
import sys

import pytest
from runner_helpers import small_spec

from simlab.core.datafiles import read_csv_rows, read_text_file
from simlab.core.errors import DataError
from simlab.runner.plan import Plan, Shards
from simlab.runner.spec import MAX_GAMES, MAX_SEED, SpecError, load_spec, parse_spec

_OUT_TOML = '{{ file = "cards", where = {{ id = {} }}, set = {{ in_deck = 0 }} }}'


def _out(card: int) -> dict:
    """A row edit that takes a card out of the deck."""
    return {"file": "cards", "where": {"id": card}, "set": {"in_deck": 0}}


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"seed": -1}, "seed: -1 is outside 0..2**63-1"),
        ({"seed": 2**63}, "seed: 9223372036854775808 is outside"),
        ({"seed": 2**64}, "seed: "),
        ({"games": MAX_GAMES + 1}, "games: 100,000,000,001 is more than the limit"),
        ({"shard_size": 10**7}, "shard_size: 10,000,000 is more than 1,000,000"),
        ({"games": 10**9, "shard_size": 100}, "make 10,000,000 shards, more than 100,000: raise shard_size"),
        ({"decision_timeout": -1}, "decision_timeout: -1 must be 0"),
        ({"decision_timeout": "soon"}, "decision_timeout: expected a number"),
        ({"decision_timeout": float("inf")}, "decision_timeout: inf must be 0"),
        ({"data": {"edit": [{"file": "cards", "where": {"id": "abc"}, "set": {"printed_vp": 5}}]}},
         "data.edit[0]: cards.csv: no row with id = abc"),
        ({"data": {"edit": [{"file": "cards", "where": {"id": 3}, "set": {"printed_vp": 5.5}}]}},
         "printed_vp: '5.5' is not an integer"),
        ({"data": {"edit": [_out(i) for i in range(1, 56)]}}, "data: 3 players: "),
    ],
)
def test_limits_are_one_line_spec_errors(change, field):
    with pytest.raises(SpecError) as info:
        parse_spec(small_spec(**change), "experiments/x.toml")
    message = str(info.value)
    assert message.startswith("experiments/x.toml: ") and field in message, message
    assert "\n" not in message


def test_largest_seed_and_a_huge_plan_are_cheap():
    """The largest seed plays; 10^11 games plan about 100,000 shards without listing them."""
    spec = parse_spec(small_spec(seed=MAX_SEED, games=MAX_GAMES, shard_size=1_000_000))
    plan = Plan(spec)
    shards = plan.shards()
    assert isinstance(shards, Shards)
    assert len(shards) == -(-plan.total_games // 1_000_000) == 100_001  # rounded up to whole deals
    assert shards[0] == (0, 1_000_000)
    assert shards[-1] == (100_000_000_000, plan.total_games)
    assert len(plan.checkpoints()) == 1 and plan.checkpoints()[-1] == plan.total_games
    import numpy as np

    assert plan.seeds(np.array([0, plan.total_games - 1])).dtype == np.uint64


def test_lazy_shards_match_the_list():
    for total, size in [(600, 100), (601, 77), (5, 10), (1, 1)]:
        expected = [(lo, min(lo + size, total)) for lo in range(0, total, size)]
        shards = Shards(total, size)
        assert list(shards) == expected == shards
        assert len(shards) == len(expected)
        assert [shards[i] for i in range(len(expected))] == expected
        assert shards[-1] == expected[-1] and shards[1:3] == expected[1:3]
        with pytest.raises(IndexError):
            shards[len(expected)]


def _cards_text() -> bytes:
    from simlab.games.sentient.data import DATA_DIR

    return (DATA_DIR / "cards.csv").read_bytes()


def test_csv_with_a_byte_order_mark_loads(tmp_path):
    bom = tmp_path / "cards.csv"
    bom.write_bytes(b"\xef\xbb\xbf" + _cards_text())
    spec = parse_spec(small_spec(data={"cards": str(bom)}))
    assert spec.variants[0].files["cards"] == str(bom)
    rows = read_csv_rows(bom, ("id", "type"))
    assert rows[0][0] == 2 and rows[0][1]["id"] == "1"


def test_other_encodings_and_folders_are_one_line(tmp_path):
    text = _cards_text()
    latin = tmp_path / "latin.csv"
    at = text.index(b"\n", 100) + 1
    latin.write_bytes(text[:at] + "é".encode("latin-1") + text[at:])
    with pytest.raises(DataError, match=rf"latin\.csv: not UTF-8 text \(byte 0xe9 at offset {at}\)$"):
        read_text_file(latin)
    bom_latin = tmp_path / "bom_latin.csv"
    bom_latin.write_bytes(b"\xef\xbb\xbf" + latin.read_bytes())
    with pytest.raises(DataError, match=rf"\(byte 0xe9 at offset {at + 3}\)"):
        read_text_file(bom_latin)
    with pytest.raises(SpecError, match=r"^x\.toml: data: .*latin\.csv: not UTF-8 text \(byte 0xe9"):
        parse_spec(small_spec(data={"cards": str(latin)}), "x.toml")
    folder = tmp_path / "cards_dir"
    folder.mkdir()
    with pytest.raises(SpecError, match=r"^x\.toml: data.cards: .*cards_dir: is a directory, not a file$"):
        parse_spec(small_spec(data={"cards": str(folder)}), "x.toml")
    with pytest.raises(SpecError, match="is a directory, not a spec file"):
        load_spec(folder)


def test_spec_file_with_a_byte_order_mark(tmp_path):
    f = tmp_path / "bom.toml"
    f.write_bytes(b'\xef\xbb\xbfgame = "sentient"\n[players]\nseats = ["greedy", "random"]\n')
    assert load_spec(f).game == "sentient"


def _cli(*args: str, cwd=None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "simlab.cli", *args], capture_output=True, text=True, cwd=cwd,
                          timeout=300)


def test_cli_refuses_bad_limits_before_creating_the_run_folder(tmp_path):
    spec = tmp_path / "s.toml"
    spec.write_text('game = "sentient"\ngames = 100\n[players]\nseats = ["greedy", "random", "investor"]\n'
                    "[data]\nedit = [" + ", ".join(_OUT_TOML.format(i) for i in range(1, 56)) + "]\n")
    out = tmp_path / "run"
    done = _cli("run", str(spec), "--out", str(out), "-q")
    assert done.returncode == 2
    assert done.stderr.startswith(f"error: {spec}: data: 3 players: ") and done.stderr.count("\n") == 1
    assert not out.exists()
    spec.write_text('game = "sentient"\ngames = 100\n[players]\nseats = ["greedy", "random"]\n')
    for args, what in [(("--seed", str(2**64)), "seed: "), (("--games", str(MAX_GAMES + 1)), "games: "),
                       (("--decision-timeout", "-2"), "decision_timeout: ")]:
        done = _cli("run", str(spec), "--out", str(out), "-q", *args)
        assert done.returncode == 2 and what in done.stderr and done.stderr.count("\n") == 1, done.stderr
        assert not out.exists()
    done = _cli("batch", "sentient", "-p", "greedy,random", "--seed", "-1", "-n", "10")
    assert done.returncode == 2 and "--seed: -1 is outside" in done.stderr
    done = _cli("batch", "sentient", "-p", "greedy,random", "-n", "0")
    assert done.returncode == 2 and "--games: 0 is outside" in done.stderr
