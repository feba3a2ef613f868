"""Writes in a hostile or unlucky place (issue 24): a full disk, a read-only mount or folder,
concurrent edits, writes killed part-way. Every case runs against the real thing: a tmpfs
filled up or remounted read-only in a private mount namespace, a process the kernel checks
permissions for, real processes racing for one file."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import EXAMPLES, run_unprivileged

DECK = (EXAMPLES / "good" / "championship-deep-divers.txt").read_text()
MESSY = "4   walrus\n"  # fmt rewrites it
#: the folder under test: a deck, a deck fmt would rewrite, and an earlier report
BEFORE = {"deck.txt": DECK, "messy.txt": MESSY, "report.json": "the last report\n"}
WRITES = [  # every command that writes a file, each writing into the folder under test
    ["validate", "deck.txt", "-O", "json", "--output-file", "report.json"],
    ["sheet", "deck.txt", "-o", "sheet.html"],
    ["report", str(EXAMPLES / "event" / "event.yaml"), "-o", "report.html"],
    ["convert", "deck.txt", "--to", "json", "-o", "deck.json"],
    ["new", "new.txt"],
    ["add", "deck.txt", "Orca"],
    ["fmt", "messy.txt"],
]

# Run inside a private mount namespace: mount a small tmpfs, put the decks in it, fill it up
# or remount it read-only, run each command there, and say what each left behind.
INNER = r"""
import json, os, subprocess, sys
spec = json.loads(sys.argv[1])
mnt = spec["mount"]
subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", mnt], check=True)
for name, text in spec["files"].items():
    with open(os.path.join(mnt, name), "w") as fh:
        fh.write(text)
if spec["how"] == "full":
    fd = os.open(os.path.join(mnt, "filler"), os.O_WRONLY | os.O_CREAT)
    try:
        while True:
            os.write(fd, b"\0" * 4096)
    except OSError:
        os.close(fd)
else:
    subprocess.run(["mount", "-o", "remount,ro", mnt], check=True)
results = []
for args in spec["commands"]:
    p = subprocess.run([sys.executable, "-m", "deckcli", *args], capture_output=True,
                       text=True, cwd=mnt)
    left = {}
    for n in sorted(os.listdir(mnt)):
        if n != "filler":
            with open(os.path.join(mnt, n)) as fh:
                left[n] = fh.read()
    results.append({"code": p.returncode, "err": p.stderr, "left": left})
print(json.dumps(results))
"""


def in_private_mount(tmp_path: Path, how: str) -> list[dict]:
    unshare = shutil.which("unshare")
    if unshare is None:
        pytest.skip("needs util-linux's unshare to make a private mount namespace")
    prefix = [unshare, "--mount", "--propagation", "private"]
    if os.geteuid() != 0:
        prefix[1:1] = ["--user", "--map-root-user"]
    mount = tmp_path / "mnt"
    mount.mkdir()
    spec = {"mount": str(mount), "how": how, "commands": WRITES,
            "files": BEFORE}
    proc = subprocess.run([*prefix, sys.executable, "-c", INNER, json.dumps(spec)],
                          capture_output=True, text=True, timeout=300)
    if proc.returncode != 0 and ("unshare failed" in proc.stderr or "mount" in proc.stderr):
        pytest.skip(f"cannot mount a file system here: {proc.stderr.strip()[-200:]}")
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


@pytest.mark.parametrize("how, reason", [("full", "No space left on device"),
                                         ("read-only", "Read-only file system")])
def test_a_write_that_fails_is_a_clear_error_and_leaves_nothing(tmp_path, how, reason):
    """Issue 24, 5: on a full file system or a read-only mount every command that writes exits
    2 with one message naming the file and the reason, leaves every file as it was (the last
    report whole) and creates none: no 0-byte report, no temporary or lock file."""
    for args, result in zip(WRITES, in_private_mount(tmp_path, how)):
        shown = f"{args}: {result}"
        assert result["code"] == 2, shown
        err = result["err"]
        assert "internal error" not in err and "Traceback" not in err, shown
        assert f"could not write: {reason}" in err, shown
        assert result["left"] == BEFORE, shown


def test_a_read_only_folder_is_a_clear_error_for_a_normal_user(tmp_path):
    """Issue 24, 5, as a normal user (not root, whom permissions do not stop): a folder
    without write permission refuses every write, exit 2, and nothing is created."""
    folder = tmp_path / "ro"
    folder.mkdir()
    for name, text in BEFORE.items():
        (folder / name).write_text(text)
    folder.chmod(0o555)
    try:
        for args in WRITES:
            proc = run_unprivileged(*args, cwd=folder)
            shown = f"{args}: {proc}"
            assert proc.returncode == 2, shown
            assert "could not write: Permission denied (its folder cannot be written)" in \
                proc.stderr, shown
            assert "internal error" not in proc.stderr, shown
            assert {p.name: p.read_text() for p in folder.iterdir()} == BEFORE, shown
    finally:
        folder.chmod(0o755)
