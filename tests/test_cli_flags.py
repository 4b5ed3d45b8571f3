"""Issue 23, "Command line": ``--version``, shell completion, help texts that keep their brackets and
show flags as plain switches, "did you mean" for spec values and ``--data`` file names, and
``--resume`` on an empty folder."""

from __future__ import annotations

import re
from importlib.metadata import version

import pytest
from typer.testing import CliRunner

from simlab.cli import app

runner = CliRunner()


def invoke(*args: str):
    return runner.invoke(app, list(args), terminal_width=100)


def test_version_prints_the_package_version():
    result = invoke("--version")
    assert result.exit_code == 0, result.output
    assert result.output.strip() == f"simlab {version('simlab')}"


def test_shell_completion_is_offered():
    result = invoke("--help")
    assert "--install-completion" in result.output
    assert "--show-completion" in result.output


@pytest.mark.parametrize("command, text", [
    ("tune", "with a [tune] section"),
    ("report", "A spec with a [tune] section"),
])
def test_help_keeps_square_brackets(command, text):
    """Rich markup read "[tune]" as a style tag and dropped it ("a spec with a  section")."""
    output = " ".join(invoke(command, "--help").output.split())
    assert text in output


@pytest.mark.parametrize("command", ["run", "tune", "report", "batch", "play"])
def test_help_shows_flags_as_switches(command):
    """A bool option is a switch (``--quiet``, not ``--quiet true``): no ``<bool>`` in the help."""
    result = invoke(command, "--help")
    assert result.exit_code == 0, result.output
    assert "<bool>" not in result.output
    assert re.search(r"-q, --quiet\s+no ", result.output) or re.search(r"--quiet\s+no ", result.output)


# ---------------------------------------------------------------- did you mean


def _spec(**players) -> dict:
    return {"name": "tiny", "game": "sentient", "seed": 1, "games": 10, "shard_size": 10, "workers": 1,
            "record": [], "players": {"seats": ["random", "random"], **players}}


def test_misspelt_rotation_gets_a_did_you_mean():
    """docs/experiments.md, [players] rotation: one of none, cyclic, all."""
    from simlab.core.errors import SimlabError
    from simlab.runner.spec import parse_spec

    with pytest.raises(SimlabError, match=r"'cyclical' is not one of .*; did you mean 'cyclic'\?"):
        parse_spec(_spec(rotation="cyclical"))


def test_data_names_the_unknown_file_before_the_missing_path(tmp_path):
    """``--data cardz=nope.csv``: the misspelt file name is the error, not the path that does not exist."""
    result = runner.invoke(app, ["batch", "sentient", "-p", "random,random", "-n", "2",
                                 "--data", f"cardz={tmp_path / 'nope.csv'}"], terminal_width=200)
    assert result.exit_code != 0
    message = " ".join(str(result.exception).split())
    assert "no data file 'cardz'" in message
    assert "did you mean 'cards'?" in message
    assert "file not found" not in message


# ---------------------------------------------------------------- --resume on an empty folder


def _spec_file(tmp_path):
    path = tmp_path / "tiny.toml"
    path.write_text('name = "tiny"\ngame = "sentient"\nseed = 3\ngames = 20\nshard_size = 10\nworkers = 1\n'
                    'record = []\n[players]\nseats = ["random", "random"]\n', encoding="utf-8")
    return path


def test_resume_on_a_folder_left_before_the_manifest_starts_the_run(tmp_path):
    """A run killed before it wrote its manifest leaves an empty folder (or just its lock and a temporary
    manifest): ``--resume`` there starts the run, which is what the user asked for."""
    from simlab.runner.lock import LOCK_NAME
    from simlab.runner.store import RunStore

    out = tmp_path / "run"
    out.mkdir()
    (out / LOCK_NAME).write_text("", encoding="utf-8")
    (out / ".manifest.json.tmp-123").write_text("{", encoding="utf-8")
    result = invoke("run", str(_spec_file(tmp_path)), "--resume", "--out", str(out), "-q")
    assert result.exit_code == 0, result.output
    manifest = RunStore(out).read_manifest()
    assert manifest["status"] == "complete"
    assert not list(out.glob(".*.tmp-*"))


@pytest.mark.parametrize("setup", ["missing", "foreign"])
def test_resume_still_refuses_a_folder_that_is_no_run(tmp_path, setup):
    """A folder that never existed (a mistyped --out) or that holds other files is not resumed."""
    out = tmp_path / "run"
    if setup == "foreign":
        out.mkdir()
        (out / "notes.txt").write_text("mine", encoding="utf-8")
    result = invoke("run", str(_spec_file(tmp_path)), "--resume", "--out", str(out), "-q")
    assert result.exit_code != 0
    assert "not a run directory" in str(result.exception)
    if setup == "foreign":
        assert (out / "notes.txt").read_text(encoding="utf-8") == "mine"
