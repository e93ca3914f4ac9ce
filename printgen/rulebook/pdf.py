"""Rendering to PDF: WeasyPrint reads the HTML through a fetcher that allows project files
only, and any warning it gives is an error; make_rulebooks turns a game's rulebook into
the PDF of each edition."""

from __future__ import annotations

import gc
import hashlib
import io
import json
import logging
import os
import signal
import tempfile
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures import wait as wait_for
from pathlib import Path
from typing import Any

from printgen.cache import KeptFolder
from printgen.errors import PrintgenError
from printgen.jatext import WORD_JOINER, joined_phrases
from printgen.layouts import LayoutLibrary
from printgen.rulebook.assemble import AIDS, EDITIONS, rulebook_html
from printgen.rulebook.book import Rulebook
from printgen.rulebook.diagrams import PICTURE_SCHEME
from printgen.rulebook.layout_speed import install as quicker_layout
from printgen.rulebook.pagination import (
    expect_pages,
    laid_out_pages,
    resolve_page_references,
    valid_pages,
)


class _WarningTrap(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        message = record.getMessage()
        # Subsetting with fontTools instead of HarfBuzz is slower, not wrong: not an error.
        if "HarfBuzz-Subset" not in message:
            self.messages.append(message)


def _fetcher(allowed: Path, extra: Path | None = None) -> Any:
    """WeasyPrint may read data: URIs and files under `allowed` (fonts), nothing else:
    no network, nothing outside the project."""
    from urllib.parse import unquote, urlparse

    from weasyprint.urls import URLFetcher, URLFetcherResponse

    roots = [allowed.resolve()] + ([extra.resolve()] if extra else [])

    class ProjectOnly(URLFetcher):  # type: ignore[misc]
        def fetch(self, url: str, headers: Any = None) -> Any:
            if url.startswith(f"{PICTURE_SCHEME}:") and extra is not None:
                name = url.split(":", 1)[1]
                path = extra / name
                if "/" in name or not path.is_file():
                    raise ValueError(f"no picture {name}")
                kind = {"png": "image/png", "ttf": "font/ttf"}.get(
                    name.rsplit(".", 1)[-1], "image/jpeg"
                )
                return URLFetcherResponse(url, path.read_bytes(), {"Content-Type": kind})
            if url.startswith("file:"):
                path = Path(unquote(urlparse(url).path)).resolve()
                if not (any(path.is_relative_to(r) for r in roots) and path.is_file()):
                    raise ValueError(f"refused to read {url}: outside the project's layouts/")
            elif not url.startswith("data:"):
                raise ValueError(f"refused to fetch {url}: rulebooks use project files only")
            return super().fetch(url, headers)

    return ProjectOnly(fail_on_errors=True, allowed_protocols=("file", "data", PICTURE_SCHEME))


GC_THRESHOLD = 100_000  # allocations between two runs of the youngest cycle collection


def render_pdf(html: str, layouts: Path, title: str, pictures: Path | None = None) -> bytes:
    """HTML to PDF with WeasyPrint; any warning (a missing glyph, a bad style) is an error."""
    return render_pdf_pages(html, layouts, title, pictures)[0]


def render_pdf_pages(
    html: str, layouts: Path, title: str, pictures: Path | None = None
) -> tuple[bytes, list[str]]:
    """The PDF and a signature of each page (its text and pictures, in order): two builds
    whose page signatures are equal show that page alike, whatever else moved in the file
    (a font subset that gained a character renumbers glyphs on every page)."""
    import weasyprint
    from weasyprint.urls import FatalURLFetchingError

    _keep_streams()
    _shared_streams[0] = pictures / STREAMS_FOLDER if pictures is not None else None
    resolve_page_references()
    quicker_layout()
    logger = logging.getLogger("weasyprint")
    trap = _WarningTrap()
    logger.addHandler(trap)
    propagate, logger.propagate = (
        logger.propagate,
        False,
    )  # reported by us, once, not as a traceback
    options = {
        # The identifier hashes the document, not where its picture files happen to be.
        "pdf_identifier": hashlib.sha256(html.encode()).hexdigest()[:32].encode(),
        "full_fonts": True,  # the fonts are subsets already (see embed_fonts)
    }
    # WeasyPrint makes some million short-lived objects: the cycle collector, run every 700
    # of them by default, took a tenth of the time; it runs less often while a book is laid
    # out (the bytes do not depend on it).
    thresholds = gc.get_threshold()
    gc.set_threshold(max(thresholds[0], GC_THRESHOLD), *thresholds[1:])
    expected = _last_pages(title)
    expect_pages(expected)
    try:
        document = weasyprint.HTML(
            string=joined_phrases(html),
            base_url=str(layouts.resolve()),
            url_fetcher=_fetcher(layouts, pictures),
        ).render(**options)
        laid_out = laid_out_pages()
        signatures = [_page_signature(page) for page in document.pages]
        pdf: bytes = document.write_pdf(**options)
    except (Exception, FatalURLFetchingError) as exc:  # the fatal fetch error is no Exception
        reason = exc.__cause__ if isinstance(exc, FatalURLFetchingError) and exc.__cause__ else exc
        raise PrintgenError(f"rulebook {title}: {reason}") from None
    finally:
        expect_pages({})
        gc.set_threshold(*thresholds)
        logger.removeHandler(trap)
        logger.propagate = propagate
    if trap.messages:
        raise PrintgenError(f"rulebook {title}: WeasyPrint warned: {trap.messages[0]}")
    if laid_out != expected:
        _keep_pages(title, laid_out)
    return pdf, signatures


# --- page numbers from the last build ---------------------------------------------------------

PAGES_FOLDER = "book-pages"  # in printgen's cache folder: one file per book title
_PAGES = KeptFolder(PAGES_FOLDER, 400, 64 * 2**20)  # books kept, and the bytes they may hold


def _pages_entry(title: str) -> str:
    return hashlib.sha256(title.encode()).hexdigest()[:32] + ".json"


def _last_pages(title: str) -> dict[str, dict[str, list[int]]]:
    """The page counters of the anchors of the book called `title` when it was laid out
    last (pagination.expect_pages: a guess, which changes no byte of the PDF), or {}."""
    data = _PAGES.read(_pages_entry(title))
    if data is None:
        return {}
    try:
        return valid_pages(json.loads(data))
    except ValueError:
        return {}


def _keep_pages(title: str, pages: dict[str, dict[str, list[int]]]) -> None:
    _PAGES.write(_pages_entry(title), json.dumps(pages, sort_keys=True).encode())


def _page_signature(page: Any) -> str:
    """What a reader sees on a laid-out page: its texts and pictures in order."""
    digest = hashlib.sha256()
    for box in page._page_box.descendants():
        text = getattr(box, "text", None)
        if isinstance(text, str):
            digest.update(b"T" + text.replace(WORD_JOINER, "").encode())
        image = getattr(box, "image", None)
        if image is not None:
            ident = getattr(image, "id", None) or getattr(image, "url", "")
            digest.update(b"I" + str(ident).encode())
    return digest.hexdigest()[:16]


def make_rulebooks(
    lib: LayoutLibrary, rb: Rulebook, editions: tuple[str, ...] = EDITIONS + AIDS
) -> dict[str, bytes]:
    """Editions of a game's rulebook as PDF (default all three, and the player aids)."""
    with tempfile.TemporaryDirectory(prefix="printgen-pictures-") as folder:
        pictures = Path(folder)
        pages = rulebook_html(lib, rb, editions, pictures)
        return {
            e: render_pdf(html, lib.root, f"{rb.game.id} ({e})", pictures)
            for e, html in pages.items()
        }


# --- what a process keeps between documents ---------------------------------------------------

IMAGE_STREAMS_LIMIT = 64 * 2**20  # bytes of images' PDF streams kept per process
_streams: OrderedDict[str, bytes] = OrderedDict()
_streams_size = [0]
_shared_streams: list[Path | None] = [None]  # the build's folder of streams, for every worker
STREAMS_FOLDER = ".streams"  # in the pictures folder


def _keep_image_streams() -> None:
    """WeasyPrint decodes every PNG and compresses it anew for each PDF it writes (most of
    the time spent on pictures).  A diagram's PNG already holds rows the PDF can take as they
    are (`_png_idat`); other pictures are compressed once: the same pixels give the same
    bytes, so a process keeps them, by a
    digest of the pixels, for the next document (the same diagrams in every rebuild), and
    leaves them in the build's pictures folder for its other worker processes (the
    editions of a game, made side by side, show the same diagrams)."""
    from weasyprint.images import RasterImage

    if getattr(RasterImage._get_png_data, "printgen_kept", False):
        return
    encode: Callable[[Any], bytes] = RasterImage._get_png_data

    def kept(pillow_image: Any) -> bytes:
        key = _image_key(pillow_image)
        data = _streams.get(key)
        if data is None:
            data = _shared_stream(key, lambda: _png_idat(pillow_image) or encode(pillow_image))
            _streams[key] = data
            _streams_size[0] += len(data)
            while _streams_size[0] > IMAGE_STREAMS_LIMIT and len(_streams) > 1:
                _streams_size[0] -= len(_streams.popitem(last=False)[1])
        else:
            _streams.move_to_end(key)
        return data

    kept.printgen_kept = True  # type: ignore[attr-defined]
    kept.__wrapped__ = encode  # type: ignore[attr-defined]
    RasterImage._get_png_data = staticmethod(kept)


def _png_idat(pillow_image: Any) -> bytes | None:
    """The compressed rows of a PNG file as they are, when they are what the PDF stream
    WeasyPrint describes holds (8-bit RGB or grey, not interlaced, opened and not converted:
    the rulebook's diagrams), instead of decoding the picture and compressing it again.
    None when the picture is another kind (WeasyPrint encodes it)."""
    source = getattr(pillow_image, "fp", None)
    if not isinstance(source, io.BytesIO) or pillow_image.format != "PNG":
        return None
    data = source.getbuffer()
    if bytes(data[:8]) != b"\x89PNG\r\n\x1a\n" or bytes(data[12:16]) != b"IHDR":
        return None
    depth, colour, _method, _filter, interlace = data[24], data[25], data[26], data[27], data[28]
    if depth != 8 or interlace != 0 or (colour, pillow_image.mode) not in ((2, "RGB"), (0, "L")):
        return None
    rows: list[bytes] = []
    at = 8
    while at + 8 <= len(data):
        length = int.from_bytes(data[at : at + 4], "big")
        kind = bytes(data[at + 4 : at + 8])
        if kind == b"IDAT":
            rows.append(bytes(data[at + 8 : at + 8 + length]))
        elif kind == b"IEND":
            break
        at += 12 + length
    return b"".join(rows) or None


def _image_key(pillow_image: Any) -> str:
    """What an image's stream is made from: the PNG file WeasyPrint opened it from, not
    decoded yet (no need to decode a picture whose stream is kept), else its pixels."""
    source = getattr(pillow_image, "fp", None)
    if isinstance(source, io.BytesIO) and pillow_image.format == "PNG":
        return "png-" + hashlib.sha256(source.getbuffer()).hexdigest()
    pixels = hashlib.sha256(pillow_image.tobytes())
    pixels.update(f"{pillow_image.mode}:{pillow_image.size}".encode())
    return pixels.hexdigest()


def _shared_stream(key: str, encode: Callable[[], bytes]) -> bytes:
    """The stream of `key` from the build's shared folder, or encoded now and left there
    (written whole under a temporary name, then renamed: another process reads it whole
    or not at all)."""
    folder = _shared_streams[0]
    if folder is None:
        return encode()
    path = folder / key
    try:
        return path.read_bytes()
    except OSError:
        pass
    data = encode()
    try:
        folder.mkdir(exist_ok=True)
        part = folder / f"{key}.{os.getpid()}.part"
        part.write_bytes(data)
        os.replace(part, path)
    except OSError:
        pass  # not shared: the other processes encode it themselves
    return data


# --- compressed streams kept between builds ---------------------------------------------------
#
# WeasyPrint's PDF writer (pydyf) compresses every page's drawing and every font file anew
# with zlib at level 9: 5% of a rulebook's time.  A rebuild after a change to one section
# makes the same bytes for the pages and fonts the change did not touch: what they compress
# to is kept in the cache folder by a digest of the bytes (and of zlib's version and level),
# and is what zlib makes of them again, byte for byte.

DEFLATED_FOLDER = "deflated"
_DEFLATED = KeptFolder(DEFLATED_FOLDER, 20_000, 256 * 2**20)  # streams kept, their bytes
DEFLATED_FROM_BYTES = 4096  # a smaller stream is compressed sooner than looked up


def deflated(data: bytes, level: int) -> bytes:
    """`data` compressed by zlib at `level` (what compressobj's compress and flush give), from
    the cache folder when it was compressed before."""
    import zlib

    if len(data) < DEFLATED_FROM_BYTES:
        kept = None
    else:
        digest = hashlib.sha256(data).hexdigest()
        kept = f"{level}-{zlib.ZLIB_RUNTIME_VERSION}-{digest}"
        found = _DEFLATED.read(kept)
        if found is not None:
            return found
    compressor = zlib.compressobj(level=level)
    out = compressor.compress(data) + compressor.flush()
    if kept is not None:
        _DEFLATED.write(kept, out)
    return out


class _KeptDeflate:
    """A zlib compressor for pydyf's streams: the bytes it is given, compressed at the end
    by `deflated` (pydyf hands a stream over in one piece, then flushes)."""

    def __init__(self, level: int) -> None:
        self.level = level
        self.parts: list[bytes] = []

    def compress(self, data: bytes) -> bytes:
        self.parts.append(bytes(data))
        return b""

    def flush(self, mode: int | None = None) -> bytes:
        import zlib

        if mode is not None and mode != zlib.Z_FINISH:
            raise ValueError("only a stream's end is flushed here")
        data = b"".join(self.parts)
        self.parts = []
        return deflated(data, self.level)


class _PydyfZlib:
    """zlib as pydyf sees it: the same module, but for compressobj (`_KeptDeflate`)."""

    def __init__(self, module: Any) -> None:
        self._module = module

    def compressobj(self, level: int = -1, *args: Any, **kwargs: Any) -> Any:
        if args or kwargs:  # another kind of stream: zlib's own compressor
            return self._module.compressobj(level, *args, **kwargs)
        return _KeptDeflate(level)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._module, name)


def _keep_deflated_streams() -> None:
    """pydyf's streams compressed through `deflated` (once per process)."""
    import pydyf

    if not isinstance(pydyf.zlib, _PydyfZlib):
        pydyf.zlib = _PydyfZlib(pydyf.zlib)


def _keep_streams() -> None:
    """What WeasyPrint's PDFs are made of, kept for the next document and the next build:
    pictures' streams and compressed streams (once per process)."""
    _keep_image_streams()
    _keep_deflated_streams()


# --- worker processes kept between builds (printgen watch) ------------------------------------


def _worker_warm() -> None:
    """A worker loads WeasyPrint before the first book comes. A WeasyPrint that cannot be
    loaded (no Pango) is left for the first book to report, as a build's error."""
    try:
        import weasyprint  # noqa: F401
    except Exception:  # reported by render_pdf_pages (the first book), with what to do
        return
    _keep_streams()
    resolve_page_references()
    gc.freeze()  # what is loaded stays: the cycle collector need not look at it again


def _worker_start() -> None:
    """A kept worker: Ctrl-C is for the watching process (which stops the workers)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _worker_warm()


class KeptPool(ProcessPoolExecutor):
    """Worker processes that outlive a build: a build's `shutdown` waits for (or cancels)
    that build's own jobs and leaves the workers running for the next build; `close` stops
    them."""

    def __init__(self, jobs: int) -> None:
        super().__init__(max_workers=jobs, initializer=_worker_start)
        self.jobs = jobs
        self._pending: set[Future[Any]] = set()

    def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Future[Any]:
        future = super().submit(fn, *args, **kwargs)
        self._pending.add(future)
        future.add_done_callback(self._pending.discard)
        return future

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        pending = list(self._pending)
        if cancel_futures:
            for future in pending:
                future.cancel()
        if wait:
            wait_for(pending)

    def close(self) -> None:
        super().shutdown(wait=True, cancel_futures=True)

    @property
    def broken(self) -> bool:
        return bool(getattr(self, "_broken", False))


_kept: list[KeptPool] = []


def keep_pdf_workers(jobs: int) -> None:
    """From now on this process's builds share `jobs` PDF worker processes, started now
    (WeasyPrint loaded before the first book) and kept until `release_pdf_workers`."""
    if jobs <= 1:
        return
    if _kept and (_kept[0].jobs != jobs or _kept[0].broken):
        release_pdf_workers()
    if not _kept:
        pool = KeptPool(jobs)
        _kept.append(pool)
        for _ in range(jobs):
            pool.submit(_ready)


def _ready() -> None:
    """A job that only starts a worker."""


def release_pdf_workers() -> None:
    """Stop the kept worker processes."""
    while _kept:
        _kept.pop().close()


def end_pool(pool: ProcessPoolExecutor, at_once: bool) -> None:
    """The end of a build's use of `pool`: its jobs are done (or dropped); `at_once` (the
    build failed, or had no book for them), its own worker processes are stopped, not waited
    for (a worker still loading WeasyPrint held a card's error back by a third of a second).
    printgen watch's kept workers stay."""
    if at_once and not isinstance(pool, KeptPool):
        for process in list((getattr(pool, "_processes", None) or {}).values()):
            process.terminate()
    pool.shutdown(cancel_futures=True)


def pdf_pool(jobs: int, started: bool = False) -> ProcessPoolExecutor:
    """The worker processes of one build: the kept ones (printgen watch), else new ones
    that the build shuts down; `started`: new ones are started now, each loading WeasyPrint
    (the build starts them before it reads and draws the games, which leaves a core idle)."""
    for folder in (_PAGES, _DEFLATED):  # what the workers keep is trimmed when this one ends
        folder.trim_at_exit()
    if _kept and not _kept[0].broken and _kept[0].jobs == jobs:
        return _kept[0]
    pool = ProcessPoolExecutor(max_workers=jobs, initializer=_worker_warm)
    if started:
        for _ in range(jobs):
            pool.submit(_ready)
    return pool
