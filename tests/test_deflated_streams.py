"""What WeasyPrint's PDF writer compresses is kept in the cache folder by its bytes
(printgen/rulebook/pdf.py: `deflated`): the same bytes as zlib makes, from the cache or
anew, and a damaged entry is compressed again."""

from __future__ import annotations

import io
import os
import random
import zlib
from pathlib import Path

import pytest

from printgen.rulebook import pdf
from printgen.rulebook.pdf import DEFLATED_FOLDER, DEFLATED_FROM_BYTES, deflated


def _zlib(data: bytes, level: int) -> bytes:
    compressor = zlib.compressobj(level=level)
    return compressor.compress(data) + compressor.flush()


@pytest.fixture()
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("PRINTGEN_CACHE_DIR", str(tmp_path))
    return tmp_path / DEFLATED_FOLDER


def _samples() -> list[bytes]:
    rng = random.Random(7)
    text = b" ".join(
        b"q 1 0 0 1 %d %d cm BT /F1 9 Tf (word) Tj ET Q" % (i, i * 3) for i in range(3000)
    )
    return [
        b"",
        b"BT ET",
        os.urandom(DEFLATED_FROM_BYTES - 1),
        bytes(rng.randrange(4) for _ in range(DEFLATED_FROM_BYTES)),
        text,
        os.urandom(300_000),
    ]


def test_a_stream_is_what_zlib_makes_of_it_anew_or_from_the_cache(cache: Path) -> None:
    for level in (9, 6):
        for data in _samples():
            assert deflated(data, level) == _zlib(data, level)  # made and kept
            assert deflated(data, level) == _zlib(data, level)  # from the cache
            assert zlib.decompress(deflated(data, level)) == data
    kept = list(cache.iterdir())
    assert len(kept) == 2 * 3  # the streams of at least DEFLATED_FROM_BYTES, at each level


def test_a_damaged_entry_is_compressed_again(cache: Path) -> None:
    data = os.urandom(50_000)
    deflated(data, 9)
    (entry,) = cache.iterdir()
    entry.write_bytes(entry.read_bytes()[:-10])
    assert deflated(data, 9) == _zlib(data, 9)


def test_pydyf_compresses_through_the_cache_and_writes_the_same_bytes(cache: Path) -> None:
    import pydyf

    def document() -> bytes:
        out = pydyf.PDF()
        for i in range(3):
            out.add_object(
                pydyf.Stream([b"0 0 m %d %d l S" % (i, j) for j in range(900)], compress=True)
            )
        with io.BytesIO() as stream:
            out.write(stream, compress=True)
            return stream.getvalue()

    plain = document()
    pdf._keep_deflated_streams()
    assert document() == plain  # compressed and kept
    assert any(cache.iterdir())
    assert document() == plain  # from the cache
    assert pydyf.zlib.compress(b"abc") == zlib.compress(b"abc")  # the rest of zlib as it is
    with pytest.raises(ValueError):
        pydyf.zlib.compressobj(9).flush(zlib.Z_SYNC_FLUSH)


def test_what_worker_processes_keep_is_trimmed_when_the_build_ends(tmp_path: Path) -> None:
    """A worker process ends without running exit handlers: the build's own process trims
    the folders its workers write to (page guesses, compressed streams), when it ends."""
    import subprocess
    import sys

    code = (
        "import os, time\n"
        "from pathlib import Path\n"
        "from printgen.cache import KeptFolder, write_entry\n"
        "folder = KeptFolder('deflated', 2, 10**9)\n"
        "folder.trim_at_exit()\n"
        "for i in range(4):  # as a worker leaves them\n"
        "    write_entry(folder.path(f'e{i}'), b'x' * 10)\n"
        "    os.utime(folder.path(f'e{i}'), ns=(i * 10**9, i * 10**9))\n"
    )
    env = {**os.environ, "PRINTGEN_CACHE_DIR": str(tmp_path)}
    subprocess.run([sys.executable, "-c", code], check=True, env=env)
    assert sorted(p.name for p in (tmp_path / "deflated").iterdir()) == ["e2", "e3"]
