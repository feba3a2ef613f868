"""A file's bytes read as text: the one reading of them for decklists, event files, game logs
and card database sources, so every one of them refuses UTF-16, Latin-1 and binary files alike.
"""

from __future__ import annotations


def decode_text(data: bytes, what: str) -> tuple[str | None, tuple[str, str, int] | None]:
    """UTF-8 text (BOM stripped), or None and why not: (code, message, line), the code
    ``encoding`` (UTF-16, Latin-1, ...) or ``binary`` (a NUL byte; ``what`` the file should
    be, for the message). The one reading of a file's bytes as text: decklists, event files,
    game logs, card database sources."""
    if data[:2] in (b"\xff\xfe", b"\xfe\xff"):
        return None, ("encoding", "file is UTF-16; save it as UTF-8", 1)
    if b"\x00" in data:
        from deckcli.yamlio import line_at  # (a file that is no text: off the usual path)

        line = line_at(data, data.index(b"\x00"))
        if data[:200].count(b"\x00") > 10 and (data[1:2] == b"\x00" or data[0:1] == b"\x00"):
            return None, ("encoding", "file looks like UTF-16 without a byte-order mark; "
                          "save it as UTF-8", 1)
        return None, ("binary", f"file holds a NUL byte: not {what}", line)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        from deckcli.yamlio import line_at

        return None, ("encoding", f"not UTF-8: byte 0x{data[exc.start]:02X} cannot be read "
                      "(is it Latin-1 or Windows-1252? save it as UTF-8)",
                      line_at(data, exc.start))
    if text.startswith("\ufeff"):
        text = text[1:]
    return text, None
