"""printgen's cache folder, kept between runs for what only costs time to make again.

`PRINTGEN_CACHE_DIR`, else `$XDG_CACHE_HOME/printgen`, else `~/.cache/printgen`.  It holds
the digests of large input files by where they lie and how they stand (`file_digest`),
reportlab's reading of each font and the rulebooks' font subsets (printgen/fonts.py), the
rulebooks' pictures (printgen/rulebook/diagrams.py), the pages each book's anchors were on
when it was laid out last and what the PDF writer compressed (printgen/rulebook/pdf.py),
the code compiled from each template text (printgen/sandbox.py), what each YAML file
was read as (printgen/source.py) and the phrases BudouX split each Japanese text into
(printgen/jatext.py).  Nothing in it changes an output: a build with an empty
cache, or with no cache folder at all (read-only, no HOME), writes the
same bytes, only later.  Each entry is checked before use, and written whole or not at all.
"""

from __future__ import annotations

import atexit
import contextlib
import hashlib
import json
import os
import tempfile
import time
from pathlib import Path

DIGESTS_KEPT = 5_000  # files whose digest is remembered between runs (the newest)
SETTLED_NS = 2_000_000_000  # a file unchanged this long is remembered by its size and times


def cache_dir() -> Path | None:
    """The user's cache folder for printgen, or None when there is no place for one."""
    chosen = os.environ.get("PRINTGEN_CACHE_DIR")
    if chosen:
        return Path(chosen)
    base = os.environ.get("XDG_CACHE_HOME")
    if base:
        return Path(base) / "printgen"
    home = os.environ.get("HOME")
    return Path(home) / ".cache" / "printgen" if home else None


def write_whole(path: Path, data: bytes) -> None:
    """Write `data` to `path` under a temporary name, then rename it into place: a reader
    finds the whole file or none.  A cache that cannot be written is no error (OSError is
    swallowed: the next run makes the entry again)."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}-", dir=path.parent)
        try:
            with os.fdopen(fd, "wb") as out:
                out.write(data)
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
    except OSError:
        return


def keep_newest(folder: Path, kept: int, kept_bytes: int | None = None) -> None:
    """Delete all but the `kept` newest files of a cache folder (by when they were last
    written or used), and with `kept_bytes` all but the newest that hold that many bytes
    together, so that the cache does not grow without end; errors are no error."""
    try:
        entries = [
            (st.st_mtime_ns, st.st_size, p)
            for p in folder.iterdir()
            if p.is_file()
            for st in (p.stat(),)
        ]
    except OSError:
        return
    entries.sort(key=lambda e: (e[0], e[2].name), reverse=True)
    total = 0
    for number, (_when, size, path) in enumerate(entries):
        total += size
        if number >= kept or (kept_bytes is not None and total > kept_bytes):
            path.unlink(missing_ok=True)


def read_entry(path: Path | None) -> bytes | None:
    """A cache entry's bytes, checked by the sha256 they were written with (`write_entry`),
    or None when there is none or it is damaged; a found entry is marked as just used (the
    cache keeps the entries used last)."""
    if path is None:
        return None
    try:
        stored = path.read_bytes()
    except OSError:
        return None
    if len(stored) <= 32 or hashlib.sha256(stored[32:]).digest() != stored[:32]:
        return None
    with contextlib.suppress(OSError):
        os.utime(path)
    return stored[32:]


def write_entry(path: Path | None, data: bytes) -> None:
    """Keep `data` at `path`, with its sha256 for `read_entry` to check, written whole."""
    if path is not None:
        write_whole(path, hashlib.sha256(data).digest() + data)


class KeptFolder:
    """A folder of the cache folder whose entries (`read_entry`, `write_entry`) are named
    by the caller, bounded in number and bytes: when the process ends, if it wrote one,
    all but the newest used go (`keep_newest`)."""

    def __init__(self, name: str, kept: int, kept_bytes: int) -> None:
        self.name = name
        self.kept = kept
        self.kept_bytes = kept_bytes
        self._trimmed: set[Path] = set()  # folders to trim when the process ends

    def path(self, entry: str) -> Path | None:
        """Where `entry` is kept, or None when there is no cache folder."""
        folder = cache_dir()
        return folder / self.name / entry if folder else None

    def read(self, entry: str) -> bytes | None:
        return read_entry(self.path(entry))

    def write(self, entry: str, data: bytes) -> None:
        where = self.path(entry)
        if where is None:
            return
        write_entry(where, data)
        self.trim_at_exit()

    def trim_at_exit(self) -> None:
        """Trim the folder when this process ends. A process whose worker processes write
        entries calls it for them: a worker ends without running exit handlers."""
        folder = cache_dir()
        if folder is None or folder / self.name in self._trimmed:
            return
        self._trimmed.add(folder / self.name)
        atexit.register(keep_newest, folder / self.name, self.kept, self.kept_bytes)


# --- file digests ------------------------------------------------------------------------------
#
# A build fingerprints what it is made from (the code, the layouts, the fonts: 18 MB) to know
# whether a game is up to date, and reads the same fonts for their cached reading: the bytes'
# sha256 is remembered by the file's path, size, change times and inode, in this process
# (`printgen watch` builds again and again) and in the cache folder for the next run.

_Stat = tuple[int, int, int, int]
_digests: dict[str, tuple[_Stat, str]] = {}
_stored: dict[str, tuple[_Stat, str]] | None = None
_changed: list[bool] = []


def _stat_of(path: Path) -> _Stat:
    st = path.stat()
    return (st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino)


def _store_path() -> Path | None:
    folder = cache_dir()
    return folder / "digests.json" if folder else None


def _load_store() -> dict[str, tuple[_Stat, str]]:
    global _stored
    if _stored is None:
        _stored = {}
        where = _store_path()
        try:
            raw = json.loads(where.read_text(encoding="utf-8")) if where else {}
        except (OSError, ValueError):
            raw = {}
        if isinstance(raw, dict):
            for name, entry in raw.items():
                ok = isinstance(entry, list) and len(entry) == 5
                if ok and all(isinstance(v, int) for v in entry[:4]):
                    digest = entry[4]
                    if isinstance(digest, str) and len(digest) == 64:
                        _stored[name] = ((entry[0], entry[1], entry[2], entry[3]), digest)
    return _stored


def _save_store() -> None:
    where = _store_path()
    if where is None or _stored is None:
        return
    newest = list(_stored.items())[-DIGESTS_KEPT:]
    data = {name: [*stat, digest] for name, (stat, digest) in newest}
    write_whole(where, json.dumps(data, separators=(",", ":")).encode("utf-8"))


def file_digest(path: Path) -> str:
    """The sha256 of the file's bytes (hex), read again only when the file has changed."""
    name = str(path.absolute())
    stat = _stat_of(path)
    found = _digests.get(name)
    if found is not None and found[0] == stat:
        return found[1]
    stored = _load_store()
    kept = stored.get(name)
    if kept is not None and kept[0] == stat:
        digest = kept[1]
    else:
        digest = hashlib.sha256(path.read_bytes()).hexdigest()
        # A file changed within the clock's grain of its last change could change again
        # with the same size and times: only a file left alone for a while is remembered.
        if time.time_ns() - stat[1] < SETTLED_NS:
            return digest
        stored.pop(name, None)
        stored[name] = (stat, digest)
        if not _changed:
            _changed.append(True)
            atexit.register(_save_store)
    _digests[name] = (stat, digest)
    return digest
