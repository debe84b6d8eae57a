"""The notebooks open in JupyterLab: a headless server on localhost lists all of them.

The server runs as ``python -m jupyterlab`` from the test's environment, with the
notebooks folder as its root, a random free port and a random token, and its config,
data and runtime folders in a temporary directory (nothing is written to the user's
Jupyter folders). The test asks its REST API for the folder's contents, then stops it
with SIGTERM and waits for it to exit.
"""

from __future__ import annotations

import json
import os
import secrets
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.notebooks.conftest import NOTEBOOK_DIR, NOTEBOOKS

START_TIMEOUT = 90.0
"""Seconds to wait for the server to answer (a cold start imports a lot)."""
STOP_TIMEOUT = 30.0


@dataclass(frozen=True)
class Server:
    url: str
    token: str
    process: subprocess.Popen[bytes]
    log: Path

    def get(self, path: str) -> Any:
        """GET ``path`` from the server's API with the token; the decoded JSON."""
        request = urllib.request.Request(
            self.url + path, headers={"Authorization": f"token {self.token}"}
        )
        with urllib.request.urlopen(request, timeout=10) as response:
            return json.loads(response.read().decode())


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def wait_until_up(server: Server) -> None:
    deadline = time.monotonic() + START_TIMEOUT
    while True:
        if server.process.poll() is not None:
            pytest.fail(
                f"jupyter lab exited with {server.process.returncode}:\n{server.log.read_text()}"
            )
        try:
            server.get("/api/status")
            return
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            if time.monotonic() > deadline:
                pytest.fail(f"jupyter lab did not answer in {START_TIMEOUT:.0f} s:\n"
                            f"{server.log.read_text()}")  # fmt: skip
            time.sleep(0.25)


def stop(process: subprocess.Popen[bytes]) -> int:
    """SIGTERM, then wait; kill only if the server does not stop in time."""
    if process.poll() is None:
        process.terminate()
        try:
            return process.wait(timeout=STOP_TIMEOUT)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
            pytest.fail(f"jupyter lab did not stop within {STOP_TIMEOUT:.0f} s of SIGTERM")
    return process.returncode


@pytest.fixture
def lab(tmp_path: Path) -> Iterator[Server]:
    port, token = free_port(), secrets.token_hex(16)
    env = dict(os.environ)
    for var, sub in (("JUPYTER_CONFIG_DIR", "config"), ("JUPYTER_DATA_DIR", "data"),
                     ("JUPYTER_RUNTIME_DIR", "runtime"), ("IPYTHONDIR", "ipython")):  # fmt: skip
        env[var] = str(tmp_path / sub)
    env["JUPYTER_PLATFORM_DIRS"] = "1"
    args = [
        sys.executable, "-m", "jupyterlab",
        "--no-browser",
        "--ServerApp.open_browser=False",
        "--ServerApp.ip=127.0.0.1",
        f"--ServerApp.port={port}",
        "--ServerApp.port_retries=0",
        f"--IdentityProvider.token={token}",
        f"--ServerApp.root_dir={NOTEBOOK_DIR}",
        "--ServerApp.allow_root=True",  # CI runs as root
        "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
    ]  # fmt: skip
    log = tmp_path / "jupyterlab.log"
    with log.open("wb") as out:
        process = subprocess.Popen(
            args, stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT, env=env,
            cwd=tmp_path,
        )  # fmt: skip
    server = Server(f"http://127.0.0.1:{port}", token, process, log)
    try:
        yield server
    finally:
        stop(process)


@pytest.mark.slow
def test_jupyterlab_lists_every_notebook(lab: Server) -> None:
    wait_until_up(lab)
    listing = lab.get("/api/contents/")
    # with jupytext installed, markdown files open as notebooks too: keep the .ipynb files
    listed = {
        item["name"]
        for item in listing["content"]
        if item["type"] == "notebook" and item["name"].endswith(".ipynb")
    }
    assert listed == {p.name for p in NOTEBOOKS}
    for path in NOTEBOOKS:  # each one opens as a notebook
        model = lab.get(f"/api/contents/{path.name}?content=1")
        assert model["type"] == "notebook"
        assert model["content"]["cells"], f"{path.name} opens with no cells"
    # the lab page itself is served
    request = urllib.request.Request(lab.url + f"/lab?token={lab.token}")
    with urllib.request.urlopen(request, timeout=10) as response:
        assert response.status == 200
    assert stop(lab.process) == 0, f"jupyter lab did not exit cleanly:\n{lab.log.read_text()}"
