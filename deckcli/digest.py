"""SHA-256 without importing hashlib.

hashlib starts OpenSSL on import, which costs more than a whole deck check (11M instructions,
measured with valgrind). The interpreter's own SHA-2 module gives the same digest; hashlib is
the fallback where that module is missing.
"""

from __future__ import annotations

_impl = None


def sha256(data: bytes = b""):
    global _impl
    if _impl is None:
        try:
            from _sha256 import sha256 as found  # Python 3.11
        except ImportError:
            try:
                from _sha2 import sha256 as found  # Python 3.12 and later
            except ImportError:
                from hashlib import sha256 as found
        _impl = found
    return _impl(data)
