"""The suite leaves nothing in the system's temp folder: everything goes under pytest's own
temporary tree (tmp_path, tmp_path_factory), which pytest prunes itself."""

from __future__ import annotations

import os
import subprocess
import sys

from conftest import REPO


def test_a_run_leaves_nothing_but_pytests_own_tree_in_the_temp_folder(tmp_path):
    """A few tests, among them one that opens the card index, the hostile corpus (whose
    parameters are computed at import) and one that starts a Dask cluster (whose scheduler
    and workers keep a scratch folder), run with TMPDIR pointing at an empty folder."""
    temp = tmp_path / "temp"
    temp.mkdir()
    env = {**os.environ, "TMPDIR": str(temp)}
    env.pop("DECKCLI_CACHE_DIR", None)
    r = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                        "-p", "no:xdist", "tests/test_packaging.py::test_version",
                        "tests/test_hostile.py::test_validate[empty.txt]",
                        "tests/test_simulate.py::test_a_dask_cluster_gives_the_same_report"],
                       cwd=REPO, env=env, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stdout + r.stderr
    assert sorted(p.name for p in temp.iterdir()) == [f"pytest-of-{_user()}"]


def _user() -> str:
    import getpass

    return getpass.getuser()
