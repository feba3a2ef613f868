"""Audit of simulate, build and suggest against the interface (CONTRACT.md, docs/simulate.md):
each test here failed before the fix it came with."""

from __future__ import annotations

import json

import pytest
from conftest import EXAMPLES, run

GOOD = EXAMPLES / "good"
DEEP = GOOD / "championship-deep-divers.txt"
SAVANNA = GOOD / "casual-savanna.yaml"


def test_until_ci_on_a_dask_cluster_gives_the_same_report(tmp_path):
    """--until-ci plays batch after batch on the same cluster: each batch's games are sent
    the same game spec, and a later batch must not lose it when the earlier one lets go."""
    distributed = pytest.importorskip("distributed")
    import dask

    args = ["simulate", DEEP, SAVANNA, "--games", "400", "--seed", "11", "--until-ci", "0.1",
            "-O", "json"]
    local = run(*args, "--jobs", "1")
    with dask.config.set({"temporary-directory": str(tmp_path)}), distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
            dashboard_address=None) as cluster:
        remote = run(*args, "--scheduler", cluster.scheduler_address)
    assert local.code == remote.code == 0, remote
    assert json.loads(local.out)["games"] > 100  # more than one batch was played
    assert remote.out == local.out
