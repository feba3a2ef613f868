"""The parameter types of the options and arguments that name a file, a folder or an address
(below both cli.common and cli.configured, which use them)."""

from __future__ import annotations

import click


class Named(click.ParamType):
    """The type of every option and argument that names a file, a folder or an address: any
    text but the empty one, which is a usage error naming the option (exit 2). ``--event=``,
    ``-o ""`` or ``--event "$EVENT"`` with the variable unset would otherwise read as the
    option left out, and the run would go on in silence without the event's house rules, on
    this machine rather than the cluster, writing nothing. ``tests/test_streams.py`` holds
    every such option of every command to this type."""

    name = "text"  # as click's own string type: --help reads the same

    def __init__(self, what: str):
        self.what = what

    def convert(self, value, param, ctx):
        if value == "":
            self.fail(f"an empty value names no {self.what} (is a variable in the command "
                      "line unset?)", param, ctx)
        return value


#: what an option or argument of each kind names
FILE, FOLDER, PATH, ADDRESS = (Named("file"), Named("folder"), Named("file or folder"),
                               Named("address"))
