"""Issue 23, "Safety": every OS error while writing a shard or the manifest (ENOSPC, EFBIG, EDQUOT, EIO,
EROFS) is one line naming the file and the OS error, exit status 2, and the run stays resumable: ``--resume``
afterwards completes it exactly (the same tables as a run never interrupted).

Real limits where this machine allows them: a file-size limit (``RLIMIT_FSIZE``, what ``ulimit -f`` sets),
a small tmpfs and a read-only bind mount (both in a private mount namespace, ``unshare -m``, so nothing
outlives the test); the other errnos by making the write raise them."""

from __future__ import annotations

import errno
import os
import resource
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import polars as pl
import pytest
from runner_helpers import assert_same_tables, tables

from simlab.core.errors import SimlabError
from simlab.runner.run import run_experiment
from simlab.runner.spec import load_spec
from simlab.runner.store import os_error

SPEC = """name = "w"
game = "sentient"
seed = 11
games = 160
shard_size = 40
workers = {workers}
[players]
seats = ["greedy", "random"]
rotation = "cyclic"
"""


def _spec(tmp_path: Path, workers: int = 1) -> Path:
    path = tmp_path / "w.toml"
    path.write_text(SPEC.format(workers=workers))
    return path


def _reference(spec: Path, tmp_path: Path) -> dict[str, pl.DataFrame]:
    return tables(run_experiment(load_spec(spec), tmp_path / "reference", show_progress=False).path)


def _cli(*args: str, preexec_fn=None, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "simlab.cli", *args], capture_output=True, text=True,
                          preexec_fn=preexec_fn, cwd=cwd, timeout=300)


def _one_error_line(stderr: str) -> str:
    lines = stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: cannot write "), stderr
    return lines[0]


def _resume_exactly(spec: Path, run_dir: Path, reference: dict[str, pl.DataFrame]) -> None:
    resumed = run_experiment(load_spec(spec), run_dir, resume=True, show_progress=False)
    assert resumed.manifest["status"] == "complete"
    assert_same_tables(reference, tables(run_dir))


def _namespace_or_skip(tmp_path: Path) -> None:
    """Skip unless this process may make mounts in a private mount namespace (root, unshare, mount)."""
    if sys.platform != "linux" or os.geteuid() != 0 or not shutil.which("unshare") or not shutil.which("mount"):
        pytest.skip("real disk limits need Linux, root, unshare and mount (a private mount namespace)")
    probe = tmp_path / "probe"
    probe.mkdir()
    done = subprocess.run(["unshare", "-m", "sh", "-c", f"mount -t tmpfs -o size=64k tmpfs '{probe}'"],
                          capture_output=True, text=True)
    if done.returncode != 0:
        pytest.skip(f"cannot mount in a private namespace here: {done.stderr.strip()}")


# ------------------------------------------------------------------ real limits


def test_file_size_limit_is_one_line_exit_2_and_resumes_exactly(tmp_path):
    """``ulimit -f`` (RLIMIT_FSIZE, SIGXFSZ ignored): polars reported the write as "ComputeError: parquet: ...
    Invalid thrift: transport error" or "... File too large (os error 27)" and a traceback; the workers (two
    processes) write the shards, so the error crosses the process boundary."""
    spec = _spec(tmp_path, workers=2)
    reference = _reference(spec, tmp_path)
    seats_shard = min(p.stat().st_size for p in (tmp_path / "reference" / "seats").rglob("*.parquet"))
    games_shard = max(p.stat().st_size for p in (tmp_path / "reference" / "games").rglob("*.parquet"))
    limit = (seats_shard + max(games_shard, (tmp_path / "reference" / "manifest.json").stat().st_size)) // 2
    assert limit < seats_shard  # the seats shard cannot be written; the manifest and the games shards can

    def limited() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    run_dir = tmp_path / "r"
    done = _cli("run", str(spec), "--out", str(run_dir), "-q", preexec_fn=limited)
    assert done.returncode == 2, done.stderr
    line = _one_error_line(done.stderr)
    assert f"{run_dir / 'seats' / 'base'}/shard-00000" in line and "File too large (EFBIG)" in line
    assert line.endswith(f"the run stays resumable: simlab run {spec} --out {run_dir} --resume")
    assert not list(run_dir.rglob(".*.tmp-*")) and not (run_dir / ".simlab.lock").exists()
    _resume_exactly(spec, run_dir, reference)


def test_full_tmpfs_is_one_line_exit_2_and_resumes_exactly(tmp_path):
    """A real full disk: the run on a 48 KiB tmpfs fails (a shard or the manifest, whichever write meets the
    full disk), the tmpfs is grown, and ``--resume`` completes the run exactly."""
    _namespace_or_skip(tmp_path)
    spec = _spec(tmp_path)
    reference = _reference(spec, tmp_path)
    disk, kept = tmp_path / "disk", tmp_path / "kept"
    disk.mkdir()
    run_dir = disk / "r"
    cli = f"'{sys.executable}' -m simlab.cli run '{spec}' --out '{run_dir}' -q"
    script = (f"mount -t tmpfs -o size=48k tmpfs '{disk}' || exit 90\n"
              f"{cli} 2> '{tmp_path}/err1'; echo $? > '{tmp_path}/rc1'\n"
              f"mount -o remount,size=16m '{disk}' || exit 91\n"
              f"{cli} --resume > /dev/null 2> '{tmp_path}/err2'; echo $? > '{tmp_path}/rc2'\n"
              f"cp -a '{run_dir}' '{kept}'\n")
    done = subprocess.run(["unshare", "-m", "sh", "-c", script], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "rc1").read_text().strip() == "2", (tmp_path / "err1").read_text()
    line = _one_error_line((tmp_path / "err1").read_text())
    assert f"cannot write {run_dir}/" in line and "No space left on device (ENOSPC)" in line
    assert line.endswith(f"the run stays resumable: simlab run {spec} --out {run_dir} --resume")
    assert (tmp_path / "rc2").read_text().strip() == "0", (tmp_path / "err2").read_text()
    assert_same_tables(reference, tables(kept))


def test_read_only_folder_is_one_line_exit_2_and_resumes_exactly(tmp_path):
    """A real read-only folder (a read-only bind mount; chmod does not stop root): a resume that must redo
    two shards cannot write their seats files; once the folder is writable again the resume is exact."""
    _namespace_or_skip(tmp_path)
    spec = _spec(tmp_path)
    reference = _reference(spec, tmp_path)
    run_dir = tmp_path / "r"
    shutil.copytree(tmp_path / "reference", run_dir)
    for shard in (2, 3):
        (run_dir / "seats" / "base" / f"shard-{shard:06d}.parquet").unlink()
    seats = run_dir / "seats" / "base"
    cli = f"'{sys.executable}' -m simlab.cli run '{spec}' --out '{run_dir}' --resume -q"
    script = (f"mount --bind '{seats}' '{seats}' && mount -o remount,bind,ro '{seats}' || exit 90\n"
              f"{cli} 2> '{tmp_path}/err'; echo $? > '{tmp_path}/rc'\n")
    done = subprocess.run(["unshare", "-m", "sh", "-c", script], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "rc").read_text().strip() == "2", (tmp_path / "err").read_text()
    line = _one_error_line((tmp_path / "err").read_text())
    assert line.startswith(f"error: cannot write {seats / 'shard-000002.parquet'}: Read-only file system (EROFS)")
    _resume_exactly(spec, run_dir, reference)


# ------------------------------------------------------------------ every errno, shard and manifest

CODES = [errno.ENOSPC, errno.EFBIG, errno.EDQUOT, errno.EIO, errno.EROFS]


def _failing_write(monkeypatch, method: str, marker: str, code: int, after: int) -> None:
    """``Path.<method>`` raises ``code`` on the ``after``-th write of a temporary file whose name holds ``marker``."""
    real = getattr(Path, method)
    calls = {"n": 0}

    def write(self, *args, **kwargs):
        if marker in self.name and ".tmp-" in self.name:
            calls["n"] += 1
            if calls["n"] == after:
                raise OSError(code, os.strerror(code), str(self))
        return real(self, *args, **kwargs)

    monkeypatch.setattr(Path, method, write)


@pytest.mark.parametrize("code", CODES, ids=[errno.errorcode[c] for c in CODES])
@pytest.mark.parametrize("target", ["shard", "manifest"])
def test_every_os_error_is_one_line_naming_the_file_and_resumes(tmp_path, monkeypatch, code, target):
    spec = _spec(tmp_path)
    reference = _reference(spec, tmp_path)
    run_dir = tmp_path / "r"
    if target == "shard":  # the third shard's games file
        _failing_write(monkeypatch, "write_bytes", "shard-000002", code, after=2)
        named = run_dir / "games" / "base" / "shard-000002.parquet"
    else:  # the manifest after the second shard
        _failing_write(monkeypatch, "write_text", "manifest.json", code, after=3)
        named = run_dir / "manifest.json"
    with pytest.raises(SimlabError) as info:
        run_experiment(load_spec(spec), run_dir, show_progress=False)
    message = str(info.value)
    assert "\n" not in message
    assert message.startswith(f"cannot write {named}: {os.strerror(code)} ({errno.errorcode[code]}); "
                              f"the run stays resumable: simlab run {spec} --out {run_dir} --resume")
    assert not list(run_dir.rglob(".*.tmp-*")) and not (run_dir / ".simlab.lock").exists()
    monkeypatch.undo()
    _resume_exactly(spec, run_dir, reference)


def test_polars_wrapped_os_error_is_mapped_to_its_errno(tmp_path):
    """Polars reports an OS error as ``ComputeError: ... (os error N)``: it becomes an OSError naming the file."""
    target = tmp_path / "shard.parquet"
    wrapped = pl.exceptions.ComputeError("parquet: File out of specification: underlying IO error: "
                                         "File too large (os error 27)")
    mapped = os_error(wrapped, target)
    assert isinstance(mapped, OSError) and mapped.errno == errno.EFBIG and mapped.filename == str(target)
    assert os_error(ValueError("not an OS error"), target) is None
    temporary = OSError(errno.EIO, "Input/output error", str(tmp_path / ".shard.parquet.tmp-1"))
    assert os_error(temporary, target).filename == str(target)  # the file the user knows, not the temporary
