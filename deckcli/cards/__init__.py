"""Cards and printings: the source models, the compiled index and search.

:func:`open_index` is how every command gets the card index: the cached one when it is whole
and its sources unchanged, else the index shipped in the package when it fits
(:mod:`deckcli.cards.bundled`), else one compiled from the sources
(:func:`deckcli.cards.build.build_index`). The pieces it uses sit below it
(:mod:`deckcli.cards.cache`: source files, keys, index files); they are imported when it is
called, so importing any module of this package costs nothing more.
"""

from __future__ import annotations


def open_index(extra_dirs=(), *, rebuild: bool = False, reuse: bool = True):
    """The :class:`~deckcli.cards.index.CardIndex` for the built-in database plus extra
    folders, rebuilt if any source changed or the index file is damaged (``rebuild``: now).
    A rebuild parses only the source files whose bytes changed (``reuse=False``: every one),
    and where it can, replaces only their rows in the last index (:mod:`deckcli.cards.patch`).
    """
    from deckcli.cards.cache import (
        content_key,
        dirs_key,
        in_memory,
        index_path,
        load,
        mark_used,
        save,
        source_dirs,
        source_files,
        stat_key,
    )
    from deckcli.cards.index import CardIndex

    dirs = source_dirs(list(extra_dirs))
    files = source_files(dirs)
    path = index_path(dirs)
    stamp = stat_key(files)
    loaded = None if rebuild else load(path)
    if loaded is not None:
        conn, meta, modified = loaded
        if meta.get("dirs") == dirs_key(dirs):
            if meta.get("stat_key") == stamp:
                mark_used(path, modified)
                return CardIndex(conn, dirs, path)
            if meta.get("content_key") == content_key(dirs, files):
                conn = in_memory(conn)  # the file is opened read-only: change a copy
                conn.execute("UPDATE meta SET value=? WHERE key='stat_key'", (stamp,))
                on_disk = save(path, conn)  # the new times, for the next run
                return CardIndex(conn, dirs, on_disk)
        conn.close()
    if not rebuild:  # most runs never get here: neither module is imported then
        from deckcli.cards.bundled import from_bundled

        index = from_bundled(dirs, files, path, stamp)
        if index is not None:
            return index
    if reuse:  # the last index with the changed files' rows replaced, where that is enough
        from deckcli.cards.patch import patch_index

        index = patch_index(dirs, files, path, stamp)
        if index is not None:
            return index
    from deckcli.cards.build import build_index

    return build_index(dirs, files, path, stamp, reuse=reuse)
