"""Input limits (rule DL-1.3), in one place so docs/safety.md and the checks never disagree."""

MAX_FILE_BYTES = 1 << 20  # 1 MiB per decklist or event file
MAX_LINE_CHARS = 4096
MAX_COUNT = 999  # copies in one entry
MAX_ENTRIES = 5000  # entries in one deck
MAX_DEPTH = 32  # YAML/JSON nesting (see deckcli.yamlio)
MEMO_LINES = 200_000  # lines a run remembers per memo before it starts again (a batch)
