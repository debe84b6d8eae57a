"""A damaged weights file is refused with one line naming it, never read as a network.

Each way of spoiling the shipped file (empty, cut short, bits flipped, a bare array,
arrays missing, no provenance, strings or NaN or infinite weights) is refused by
``load_networks`` with a :class:`NetworkError`; the commands that play or advise with
``PINASTATS_NETWORK`` naming such a file end with one error line, and ``table`` refuses it
before the game instead of falling back to points.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from pinastats.agents.network import NetworkError, load_networks, network_path


def _arrays() -> dict[str, np.ndarray]:
    with np.load(network_path(), allow_pickle=False) as data:
        return {k: data[k] for k in data.files}


def _save(path: Path, arrays: dict[str, np.ndarray]) -> Path:
    np.savez(path, **arrays)  # type: ignore[arg-type]
    return path


def _spoil(kind: str, path: Path) -> Path:
    good = network_path().read_bytes()
    arrays = _arrays()
    if kind == "empty":
        path.write_bytes(b"")
    elif kind == "truncated":
        path.write_bytes(good[: len(good) // 2])
    elif kind == "bits flipped":
        bad = bytearray(good)
        for i in range(len(bad) // 3, len(bad) // 3 + 64):
            bad[i] ^= 0xFF
        path.write_bytes(bytes(bad))
    elif kind == "a bare array":
        np.save(path.with_suffix(".npy"), arrays["p2_w0"])
        path.with_suffix(".npy").rename(path)
    elif kind == "a layer missing":
        del arrays["p2_b0"]
        _save(path, arrays)
    elif kind == "no provenance":
        del arrays["provenance"]
        _save(path, arrays)
    elif kind == "provenance not JSON":
        arrays["provenance"] = np.array("{not json")
        _save(path, arrays)
    elif kind == "string weights":
        arrays["p2_w0"] = arrays["p2_w0"].astype(str)
        _save(path, arrays)
    elif kind in ("NaN weights", "infinite weights"):
        arrays["p2_w1"] = arrays["p2_w1"].copy()
        arrays["p2_w1"][0, 0] = np.nan if kind == "NaN weights" else np.inf
        _save(path, arrays)
    elif kind == "no network":
        _save(path, {k: v for k, v in arrays.items() if not k.startswith("p")})
    return path


KINDS = ["empty", "truncated", "bits flipped", "a bare array", "a layer missing",
         "no provenance", "provenance not JSON", "string weights", "NaN weights",
         "infinite weights", "no network"]  # fmt: skip


@pytest.mark.parametrize("kind", KINDS)
def test_a_spoiled_weights_file_is_refused_naming_it(kind: str, tmp_path: Path) -> None:
    path = _spoil(kind, tmp_path / "net.npz")
    with pytest.raises(NetworkError) as refused:
        load_networks(path)
    message = str(refused.value)
    assert str(path) in message
    assert "\n" not in message


def test_the_shipped_file_still_loads(tmp_path: Path) -> None:
    copy = _save(tmp_path / "copy.npz", _arrays())
    assert set(load_networks(copy).networks) == set(load_networks().networks)


def _pinastats(env_file: Path, *args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PINASTATS_NETWORK": str(env_file)}
    return subprocess.run([sys.executable, "-m", "pinastats.cli.main", *args], input=stdin,
                          capture_output=True, text=True, env=env, check=False,
                          timeout=600)  # fmt: skip


@pytest.mark.parametrize("kind", ["truncated", "NaN weights"])
def test_commands_refuse_a_spoiled_network_with_one_line(kind: str, tmp_path: Path) -> None:
    path = _spoil(kind, tmp_path / "net.npz")
    position = "pc1 P3,DP,LS,S9/P6,OD,P4,T3/P1,T4,P2,S26/S21,T2,FH,5K 1 players=3"
    for argv, stdin in (
        (["advise", "--position", position, "--dice", "1", "2", "2", "5", "5",
          "--rolls-left", "1"], ""),
        (["table", "--players", "3", "--seed", "1"], "quit\n"),
    ):  # fmt: skip
        done = _pinastats(path, *argv, stdin=stdin)
        assert done.returncode == 2, (argv, done.stdout[-500:], done.stderr[-2000:])
        lines = done.stderr.strip().splitlines()
        assert len(lines) == 1, done.stderr
        assert lines[0].startswith("pinastats: error: ")
        assert str(path) in lines[0]
        assert "Traceback" not in done.stderr
