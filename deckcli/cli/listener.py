"""What a library run (``simulate``, ``build``, ``suggest``) tells while it goes, written on
stderr as every command's status lines are, with the progress of its games under the
command's name."""

from __future__ import annotations

import click

from deckcli.cli.common import echo_status, echo_warning
from deckcli.sim.request import Listener


class Stderr(Listener):
    def __init__(self, command: str):
        self.command = command

    def warning(self, message: str, rule: str | None = None) -> None:
        echo_warning(message, rule=rule)

    def note(self, message: str) -> None:
        echo_status(f"deckcli: note: {message}")

    def wrote(self, path: str) -> None:
        from deckcli.diagnostics import visible_name

        click.echo(f"deckcli: wrote {visible_name(path)}", err=True)

    def progress(self, total: int | None):
        from deckcli.cli.progress import Progress

        return Progress(self.command, None, total)
