"""Configuration files: a repository's own defaults for deckcli's options, as ruff and black
read theirs.

deckcli reads ``[tool.deckcli]`` in a ``pyproject.toml``, or a ``deckcli.toml`` (its keys at
the top, no table). The file is looked for in the folder holding every path the command was
given (the current folder when it was given none), then in each folder above it; in each
folder ``deckcli.toml`` comes first, and a ``pyproject.toml`` without ``[tool.deckcli]`` is
passed over. The first found is the one used: files are not merged.

Keys: ``event`` (a path), ``game``, ``format``, ``players``, ``db`` (a list of folders),
``exclude`` (a list of globs) and ``output``. Paths are relative to the file's own folder. An
unknown key, a value of the wrong kind or a file that is not TOML is an error naming the file
and its line (exit 2): tomllib gives no line for a value, so the key's line is found in the
text (:func:`_key_line`).

Nothing here imports click; the command line applies what :func:`load` read
(``deckcli.cli.configured``): an option given on the command line wins over the file.
"""

from __future__ import annotations

import os
import re

from deckcli.errors import DeckcliError

#: looked for in every folder, in this order (ruff's order: the tool's own file first)
NAMES = ("deckcli.toml", "pyproject.toml")
KEYS = ("db", "event", "exclude", "format", "game", "output", "players")
FORMATS = ("casual", "championship")
OUTPUTS = ("text", "json", "github", "junit", "sarif")
PLAYERS = (2, 12)
_MAX_BYTES = 1 << 20  # as much as a decklist or an event file may hold

#: a pyproject.toml worth parsing: one that may hold a [tool.deckcli] table (most hold other
#: tools' tables only, and parsing them would cost every run its time). The patterns are
#: compiled when first used (by re's cache): a run that meets no pyproject.toml compiles none.
_MAYBE_OURS = (r"""(?m)^[ \t]*(?:\[[ \t]*tool[ \t]*\]|tool[ \t]*="""
               r"""|\[?[ \t]*tool[ \t]*\.[ \t]*["']?deckcli\b)""")
_HEADER = r"""^[ \t]*\[\[?[ \t]*([^\]]*?)[ \t]*\]\]?[ \t]*(?:#.*)?$"""


class ConfigError(DeckcliError):
    """A configuration file that cannot be used (exit 2): not TOML, an unknown key, a value of
    the wrong kind; with the file and the line."""


class Config:
    """What one configuration file says: ``values`` by key (paths made relative to the current
    folder, or absolute), the file's ``path`` and the ``folder`` its paths start from."""

    __slots__ = ("path", "folder", "values", "lines", "written", "_exclude")

    def __init__(self, path: str, folder: str, values: dict, lines: dict | None = None,
                 written: dict | None = None):
        self.path = path
        self.folder = folder
        self.values = values
        self.lines = lines or {}  # key -> its line in the file, where the text shows it
        self.written = written or {}  # key -> its value as the file writes it
        self._exclude = None

    def __repr__(self) -> str:
        return f"Config({self.path!r}, {self.values!r})"

    def exclude(self):
        """The :class:`Exclude` of the file's ``exclude`` globs, or None without any."""
        if self._exclude is None and self.values.get("exclude"):
            self._exclude = Exclude(self.folder, self.values["exclude"], self.path)
        return self._exclude


class Exclude:
    """``exclude`` globs, as ruff reads its own: a glob without ``/`` matches the name of a
    file or a folder at any depth (``drafts``, ``*.bak.txt``); one with ``/`` matches a path
    from the configuration file's folder (``decks/old/*``, ``archive/2025``), and a folder it
    matches takes everything under it. ``*`` and ``?`` match within a name, ``**`` across
    folders; matching is case-sensitive."""

    __slots__ = ("folder", "names", "paths", "source")

    def __init__(self, folder: str, globs: list[str], source: str):
        self.folder = os.path.abspath(folder)
        self.names = [_glob(g) for g in globs if "/" not in g.strip("/")]
        self.paths = [_glob(g.strip("/")) for g in globs if "/" in g.strip("/")]
        self.source = source  # the configuration file, for a note

    def __call__(self, path: str) -> bool:
        """Whether ``path`` (a file or a folder, as the command has it) is excluded."""
        full = os.path.abspath(path)
        rel = os.path.relpath(full, self.folder) if _inside(full, self.folder) else None
        parts = [p for p in (rel if rel is not None else os.path.normpath(path))
                 .replace(os.sep, "/").split("/") if p not in ("", ".", "..")]
        for pattern in self.names:
            if any(pattern.fullmatch(part) for part in parts):
                return True
        if rel is None:
            return False
        return any(pattern.fullmatch("/".join(parts[:i]))
                   for pattern in self.paths for i in range(1, len(parts) + 1))


def _glob(glob: str) -> re.Pattern:
    """A glob as a regular expression: ``*`` and ``?`` within a name, ``**`` across names,
    ``[...]`` one of a set of characters (``[!...]`` one not in it)."""
    out, i = [], 0
    while i < len(glob):
        if glob.startswith("**/", i):
            out.append("(?:[^/]*/)*")
            i += 3
        elif glob.startswith("**", i):
            out.append(".*")
            i += 2
        elif glob[i] in "*?":
            out.append("[^/]*" if glob[i] == "*" else "[^/]")
            i += 1
        elif glob[i] == "[" and glob.find("]", i + 2) != -1:
            end = glob.find("]", i + 2)
            inner = glob[i + 1:end]
            inner = "^" + inner[1:] if inner.startswith("!") else inner
            out.append("[" + inner.replace("\\", "\\\\") + "]")
            i = end + 1
        else:
            out.append(re.escape(glob[i]))
            i += 1
    return re.compile("".join(out))


def _inside(path: str, folder: str) -> bool:
    try:
        return os.path.commonpath([folder, path]) == folder
    except ValueError:  # another drive
        return False


# -- finding ------------------------------------------------------------------------------

def start_folder(paths) -> str:
    """Where the search starts: the folder holding every path given (a folder given is its own
    start), else the current folder (no path, or only ``-``)."""
    folders = []
    for p in paths:
        if not p or p == "-":
            continue
        full = os.path.abspath(p)
        folders.append(full if os.path.isdir(full) else os.path.dirname(full))
    if not folders:
        return os.getcwd()
    try:
        return os.path.commonpath(folders)
    except ValueError:  # paths on different drives: no folder holds them all
        return os.getcwd()


def find(paths) -> Config | None:
    """The configuration for a command given ``paths`` (the first file found upwards from
    :func:`start_folder`), or None."""
    folder = start_folder(paths)
    while True:
        for name in NAMES:
            candidate = os.path.join(folder, name)
            if os.path.isfile(candidate):
                found = _read(candidate)
                if found is not None:
                    return found
        parent = os.path.dirname(folder)
        if parent == folder:
            return None
        folder = parent


def load(path: str) -> Config:
    """The configuration in ``path`` (``--config FILE``): a ``pyproject.toml`` must hold a
    ``[tool.deckcli]`` table; any other name is read as a ``deckcli.toml``."""
    if not os.path.isfile(path):
        why = "is a folder, not a file" if os.path.isdir(path) else "no such file"
        raise ConfigError(f"cannot read the configuration file: {why}", path=path)
    found = _read(os.path.abspath(path), shown=path)
    if found is None:
        raise ConfigError("has no [tool.deckcli] table: nothing in it is deckcli's", path=path)
    return found


def _read(path: str, shown: str | None = None) -> Config | None:
    """The file at ``path`` (absolute) read and checked; None for a pyproject.toml that holds
    no [tool.deckcli]."""
    shown = shown or _shown(path)
    text = _text(path, shown)
    pyproject = _is_pyproject(path)
    if pyproject and not re.search(_MAYBE_OURS, text):
        return None
    import tomllib

    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        message, line = _toml_error(str(exc), text)
        raise ConfigError(f"not valid TOML: {message}", path=shown, line=line) from None
    if pyproject:
        tool = data.get("tool")
        table = tool.get("deckcli") if isinstance(tool, dict) else None
        if table is None:
            return None
        if not isinstance(table, dict):
            line = next((n for n, text_line in enumerate(text.split("\n"), 1)
                         if re.match(r"[ \t]*(?:tool[ \t]*\.[ \t]*)?deckcli[ \t]*=", text_line)),
                        None)
            raise ConfigError("tool.deckcli should be a table ([tool.deckcli]), not "
                              f"{_kind(table)}", path=shown, line=line)
        data = table
    folder = os.path.dirname(shown) or "."
    lines = {key: _key_line(text, key, pyproject) for key in data}
    return Config(shown, folder, _values(data, lines, shown, folder, pyproject), lines, data)


def _text(path: str, shown: str) -> str:
    """The file's text: a regular file, UTF-8, at most 1 MiB (never a blocking open: a FIFO
    named like a configuration file would hang every run)."""
    import stat

    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as exc:
        raise ConfigError(f"cannot read the configuration file: {exc.strerror}",
                          path=shown) from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise ConfigError("cannot read the configuration file: not a regular file",
                              path=shown)
        data = os.read(fd, _MAX_BYTES + 1)
    except OSError as exc:
        raise ConfigError(f"cannot read the configuration file: {exc.strerror}",
                          path=shown) from None
    finally:
        os.close(fd)
    if len(data) > _MAX_BYTES:
        raise ConfigError("the configuration file is larger than 1 MiB", path=shown)
    try:
        return data.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError as exc:
        line = data[:exc.start].count(b"\n") + 1
        raise ConfigError("not UTF-8 text (TOML files are UTF-8)", path=shown,
                          line=line) from None


def _toml_error(message: str, text: str) -> tuple[str, int | None]:
    """tomllib's message without its '(at line N, column M)', and N."""
    m = re.search(r"\s*\(at line (\d+), column \d+\)$", message)
    if m:
        return message[:m.start()], int(m.group(1))
    m = re.search(r"\s*\(at end of document\)$", message)
    if m:
        return message[:m.start()], text.count("\n") + (not text.endswith("\n"))
    return message, None


# -- checking -----------------------------------------------------------------------------

def _values(data: dict, lines: dict, path: str, folder: str, pyproject: bool) -> dict:
    """The checked values, paths joined to ``folder``."""
    from deckcli.games import get, ids

    out = {}
    for key, value in data.items():
        where = {"path": path, "line": lines.get(key)}
        if key not in KEYS:
            table = "[tool.deckcli]" if pyproject else "the configuration"
            hint = _close(key)
            raise ConfigError(f"unknown key '{key}' in {table}{hint} (the keys: "
                              f"{', '.join(KEYS)})", **where)
        if key == "event":
            out[key] = os.path.normpath(os.path.join(folder, _path(key, value, where)))
        elif key in ("db", "exclude"):
            items = _strings(key, value, where)
            out[key] = [os.path.normpath(os.path.join(folder, v)) for v in items] \
                if key == "db" else items
        elif key == "players":
            low, high = PLAYERS
            if type(value) is not int or not low <= value <= high:
                raise ConfigError(f"players: should be a number from {low} to {high}, not "
                                  f"{_shown_value(value)}", **where)
            out[key] = value
        else:
            choices = {"game": tuple(ids()), "format": FORMATS, "output": OUTPUTS}[key]
            if not isinstance(value, str) or value not in choices:
                raise ConfigError(f"{key}: should be one of {', '.join(choices)}, not "
                                  f"{_shown_value(value)}", **where)
            out[key] = value
    if "format" in out and "game" in out and out["format"] not in get(out["game"]).formats:
        raise ConfigError(f"format: {out['game']} has no format '{out['format']}'", path=path,
                          line=lines.get("format"))
    return out


def missing(found: Config, key: str) -> None:
    """ConfigError (exit 2) when the file or folder ``key`` names is not there: said on the
    configuration's line, as it is written there."""
    for value, written in zip(_listed(found.values[key]), _listed(found.written[key])):
        if key == "event" and not os.path.isfile(value):
            what = "is a folder, not an event file" if os.path.isdir(value) else "no such file"
        elif key == "db" and not os.path.isdir(value):
            what = "not a folder" if os.path.exists(value) else "no such folder"
        else:
            continue
        raise ConfigError(f"{key}: {written!r}: {what} (looked for {value})", path=found.path,
                          line=found.lines.get(key))


def _listed(value) -> list:
    return value if isinstance(value, list) else [value]


def _path(key: str, value, where: dict) -> str:
    if not isinstance(value, str) or not value.strip() or "\x00" in value:
        raise ConfigError(f"{key}: should be a file's path (a string), not "
                          f"{_shown_value(value)}", **where)
    return value


def _strings(key: str, value, where: dict) -> list[str]:
    what = "folders" if key == "db" else "globs"
    example = '["cards"]' if key == "db" else '["drafts", "decks/old/*"]'
    if not isinstance(value, list) or not all(
            isinstance(v, str) and v.strip() and "\x00" not in v for v in value):
        raise ConfigError(f"{key}: should be a list of {what}, as in {key} = {example}, not "
                          f"{_shown_value(value)}", **where)
    return value


def _close(key: str) -> str:
    import difflib

    near = difflib.get_close_matches(key, KEYS, n=1)
    return f"; did you mean '{near[0]}'?" if near else ""


def _kind(value) -> str:
    return {dict: "a table", list: "a list", bool: "true/false"}.get(type(value), "a value")


def _shown_value(value) -> str:
    if isinstance(value, dict):
        return "a table"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return repr(value)
    if isinstance(value, list):
        return "a list" if len(repr(value)) > 60 else repr(value)
    return str(value)


def _key_line(text: str, key: str, pyproject: bool) -> int | None:
    """The line of ``key`` among deckcli's settings: in a deckcli.toml before its first table
    (or the table ``[key]``), in a pyproject.toml under ``[tool.deckcli]`` (or a dotted
    ``tool.deckcli.key``, or the table ``[tool.deckcli.key]``); else the line of
    ``[tool.deckcli]``, or None when the text does not show it plainly."""
    name = rf"""(?:{re.escape(key)}|"{re.escape(key)}"|'{re.escape(key)}')"""
    assign = re.compile(rf"^[ \t]*{name}[ \t]*[=.]")
    dotted_assign = re.compile(rf"""^[ \t]*tool[ \t]*\.[ \t]*["']?deckcli["']?[ \t]*\.[ \t]*"""
                               rf"{name}[ \t]*[=.]")
    own = f"tool.deckcli.{key}" if pyproject else key
    ours = not pyproject  # among deckcli's settings: a deckcli.toml's top, or [tool.deckcli]
    table_line = None
    for number, line in enumerate(text.split("\n"), 1):
        header = re.match(_HEADER, line)
        if header:
            dotted = re.sub(r"""[ \t"']""", "", header.group(1))
            if dotted == own or dotted.startswith(own + "."):
                return number
            ours = pyproject and dotted == "tool.deckcli"
            if ours:
                table_line = number
            continue
        if ours and assign.match(line) or pyproject and dotted_assign.match(line):
            return number
    return table_line


# -- showing paths ------------------------------------------------------------------------

def _shown(path: str) -> str:
    """An absolute path as messages show it: from the current folder when it is below it."""
    try:
        rel = os.path.relpath(path)
    except ValueError:  # another drive
        return path
    return path if rel.startswith(os.pardir) else rel


def _is_pyproject(path: str) -> bool:
    return os.path.basename(path).lower() == "pyproject.toml"
