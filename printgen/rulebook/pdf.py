"""Rendering to PDF: WeasyPrint reads the HTML through a fetcher that allows project files
only, and any warning it gives is an error; make_rulebooks turns a game's rulebook into
the PDF of each edition."""

from __future__ import annotations

import hashlib
import logging
import tempfile
from pathlib import Path
from typing import Any

from printgen.errors import PrintgenError
from printgen.layouts import LayoutLibrary
from printgen.rulebook.assemble import AIDS, EDITIONS, rulebook_html
from printgen.rulebook.book import Rulebook
from printgen.rulebook.diagrams import PICTURE_SCHEME


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
    try:
        document = weasyprint.HTML(
            string=html, base_url=str(layouts.resolve()), url_fetcher=_fetcher(layouts, pictures)
        ).render(**options)
        signatures = [_page_signature(page) for page in document.pages]
        pdf: bytes = document.write_pdf(**options)
    except (Exception, FatalURLFetchingError) as exc:  # the fatal fetch error is no Exception
        reason = exc.__cause__ if isinstance(exc, FatalURLFetchingError) and exc.__cause__ else exc
        raise PrintgenError(f"rulebook {title}: {reason}") from None
    finally:
        logger.removeHandler(trap)
        logger.propagate = propagate
    if trap.messages:
        raise PrintgenError(f"rulebook {title}: WeasyPrint warned: {trap.messages[0]}")
    return pdf, signatures


def _page_signature(page: Any) -> str:
    """What a reader sees on a laid-out page: its texts and pictures in order."""
    digest = hashlib.sha256()
    for box in page._page_box.descendants():
        text = getattr(box, "text", None)
        if isinstance(text, str):
            digest.update(b"T" + text.encode())
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
