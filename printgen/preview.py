"""`printgen preview`: a local web page of the build output in `out/`, for a designer.

`serve(out_root)` starts a small HTTP server on 127.0.0.1 (never another interface) that
shows, for every `out/<game>/manifest.json`:

- the components with their face and back images, names, counts and printed values;
- the sheets PDFs with a compact list of their pages; the rulebook editions' HTML in a
  frame and links to the rulebook and player-aid PDFs;
- the worked examples' check results and any files kept from an older build (`stale`);
- "What changed" from `out/<game>/changes.json`: values before and after, the images
  before and after side by side, the changed pages and examples.

The page asks `/api/version` every 500 ms and reloads itself when the version changes:
a hash of the bytes of every manifest.json and changes.json (builds are byte-identical
and carry no timestamps, so the bytes, not modification times, tell a rebuild apart).

Game data is untrusted: every page is rendered by Jinja2 with autoescape on, a game's
files are served only from inside `out/<game>/` (no `..`, no absolute paths, no link
that points elsewhere), and a request whose Host is not this machine is refused (DNS
rebinding). Any key of a manifest may be missing (older builds): what is missing is
simply not shown.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import mimetypes
import os
import secrets
import shutil
import socketserver
import sys
import threading
import traceback
from collections.abc import Mapping
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from types import TracebackType
from typing import Any, cast
from urllib.parse import quote, unquote

import jinja2
from jinja2.sandbox import ImmutableSandboxedEnvironment

__all__ = ["DEFAULT_PORT", "HOST", "PreviewServer", "serve", "version"]

HOST = "127.0.0.1"
DEFAULT_PORT = 8765
POLL_MS = 500

# The Japanese of the page is set in the cards' own font, BIZ UDPGothic: installed, or the
# vendored file when printgen runs from its source folder (else the system's fonts).
_UI_FONT = Path(__file__).resolve().parent.parent / "layouts" / "fonts" / "BIZUDPGothic-Regular.ttf"
_UI_FONT_URL = "/_preview/ui-font.ttf"

# Cards are shown 180 px wide (a 63 mm card); other pieces at the same scale, within bounds.
_PX_PER_MM = 180 / 63
_MIN_PX, _MAX_PX = 64, 480

_ALLOWED_HOSTS = frozenset({"127.0.0.1", "localhost"})


# --------------------------------------------------------------------------- data


def _load_json(path: Path) -> tuple[dict[str, Any] | None, str | None]:
    """The JSON object in `path`: (data, None), (None, None) when absent, (None, error)."""
    try:
        data = json.loads(path.read_bytes())
    except FileNotFoundError:
        return None, None
    except (OSError, ValueError) as exc:
        return None, f"{path.name} could not be read: {exc}"
    if not isinstance(data, dict):
        return None, f"{path.name} is not a JSON object"
    return data, None


def _games(out_root: Path) -> list[str]:
    """The games in the out folder: every folder with a manifest.json, by name."""
    try:
        entries = sorted(out_root.iterdir())
    except OSError:
        return []
    return [
        entry.name
        for entry in entries
        if not entry.name.startswith(".") and (entry / "manifest.json").is_file()
    ]


def version(out_root: Path) -> str:
    """A hash of the bytes of every manifest.json and changes.json in the out folder."""
    digest = hashlib.sha256()
    try:
        entries = sorted(out_root.iterdir())
    except OSError:
        entries = []
    for entry in entries:
        for name in ("manifest.json", "changes.json"):
            try:
                data = (entry / name).read_bytes()
            except OSError:  # absent, not a folder, or removed meanwhile
                continue
            digest.update(f"{entry.name}/{name}\0{len(data)}\0".encode())
            digest.update(data)
    return digest.hexdigest()


def _inside(root: Path, parts: list[str]) -> Path | None:
    """The regular file root/parts..., or None when a part is empty, `.`, `..` or holds a
    separator, or when the file (after following links) lies outside `root`."""
    if not parts or any(
        part in ("", ".", "..") or "/" in part or "\\" in part or "\0" in part for part in parts
    ):
        return None
    try:
        base = root.resolve(strict=True)
        target = base.joinpath(*parts).resolve(strict=True)
    except (OSError, RuntimeError):
        return None
    if not target.is_relative_to(base) or not target.is_file():
        return None
    return target


def _rel_parts(rel: object) -> list[str] | None:
    """A manifest's relative path split into parts, or None when it is not a plain
    relative path (absolute, `..`, backslashes)."""
    if not isinstance(rel, str) or not rel:
        return None
    parts = rel.split("/")
    if any(part in ("", ".", "..") or "\\" in part or "\0" in part for part in parts):
        return None
    return parts


def _png_size(path: Path) -> tuple[int, int] | None:
    try:
        with path.open("rb") as handle:
            head = handle.read(24)
    except OSError:
        return None
    if len(head) < 24 or head[:8] != b"\x89PNG\r\n\x1a\n" or head[12:16] != b"IHDR":
        return None
    return int.from_bytes(head[16:20], "big"), int.from_bytes(head[20:24], "big")


# --------------------------------------------------------------------------- view model


def _text(value: object) -> str:
    """A value as the page prints it: text as it is, numbers without a needless `.0`,
    lists and mappings as compact JSON."""
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, int | float):
        return str(value)
    try:
        return json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        return str(value)


def _dict(value: object) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _dicts(value: object) -> list[dict[str, Any]]:
    return [item for item in value if isinstance(item, dict)] if isinstance(value, list) else []


def _names(value: object) -> dict[str, str]:
    if isinstance(value, dict):
        return {"ja": _text(value.get("ja")), "en": _text(value.get("en"))}
    return {"ja": "", "en": _text(value)}


def _pages(value: object) -> list[int]:
    if not isinstance(value, list):
        return []
    return [page for page in value if isinstance(page, int) and not isinstance(page, bool)]


class _Game:
    """One game's folder: URLs and images for its page."""

    def __init__(self, game_id: str, folder: Path) -> None:
        self.id = game_id
        self.folder = folder
        self.base = f"/game/{quote(game_id, safe='')}/"

    def url(self, rel: object) -> str | None:
        parts = _rel_parts(rel)
        if parts is None:
            return None
        return self.base + "files/" + "/".join(quote(part, safe="") for part in parts)

    def image(self, rel: object, width: int) -> dict[str, Any] | None:
        url = self.url(rel)
        if url is None:
            return None
        parts = _rel_parts(rel) or []
        path = _inside(self.folder, parts)
        size = _png_size(path) if path is not None else None
        height = round(width * size[1] / size[0]) if size and size[0] else None
        return {
            "url": url,
            "path": _text(rel),
            "exists": path is not None,
            "width": width,
            "height": height,
        }


def _display_width(size_mm: object) -> int:
    width = 63.0
    if isinstance(size_mm, list) and size_mm and isinstance(size_mm[0], int | float):
        width = float(size_mm[0])
    return max(_MIN_PX, min(_MAX_PX, round(width * _PX_PER_MM)))


def _fallback_images(files: list[dict[str, Any]]) -> dict[str, dict[str, tuple[int, str]]]:
    """component -> face -> (copy, path) of its first image among the manifest's files,
    for manifests written before components listed their `images`."""
    found: dict[str, dict[str, tuple[int, str]]] = {}
    for entry in files:
        component, face, path = entry.get("component"), entry.get("face"), entry.get("path")
        if entry.get("kind") != "card-image" or not isinstance(component, str):
            continue
        if not isinstance(face, str) or not isinstance(path, str):
            continue
        copy = entry.get("copy")
        rank = copy if isinstance(copy, int) else 1_000_000
        faces = found.setdefault(component, {})
        if face not in faces or rank < faces[face][0]:
            faces[face] = (rank, path)
    return found


def _page_items(items: object, role: str) -> str:
    """The components on a page, consecutive copies counted: `torpedo-a-red ×2, ...`."""
    implied = {"fronts": "front", "backs": "back"}.get(role, "front")
    groups: list[list[Any]] = []
    for item in _dicts(items):
        key = (_text(item.get("component")), _text(item.get("face")))
        if groups and groups[-1][0] == key:
            groups[-1][1] += 1
        else:
            groups.append([key, 1])
    words = []
    for (component, face), count in groups:
        word = component + (f" ×{count}" if count > 1 else "")
        if face and face != implied:
            word += f" ({face})"
        words.append(word)
    return ", ".join(words)


def _pair(value: object) -> tuple[object, object] | None:
    return (value[0], value[1]) if isinstance(value, list) and len(value) == 2 else None


def _shown(key: str, value: object) -> str:
    """A changed value as the page prints it (`none` when it was or is absent)."""
    if value is None:
        return "none"
    if key == "name" and isinstance(value, dict):
        names = _names(value)
        return " / ".join(name for name in (names["en"], names["ja"]) if name)
    if key == "size_mm" and isinstance(value, list) and len(value) == 2:
        return f"{_text(value[0])}×{_text(value[1])} mm"
    return _text(value)


def _diffs(*tables: object) -> list[dict[str, str]]:
    """Rows {key, before, after} of mappings {key: [before, after]}; a key once."""
    rows: dict[str, dict[str, str]] = {}
    for table in tables:
        for key, value in _dict(table).items():
            pair = _pair(value)
            if str(key) in rows or value is None or (pair is not None and pair[0] == pair[1]):
                continue
            if pair is None:
                rows[str(key)] = {"key": str(key), "before": "", "after": _text(value)}
            else:
                rows[str(key)] = {
                    "key": str(key),
                    "before": _shown(str(key), pair[0]),
                    "after": _shown(str(key), pair[1]),
                }
    return list(rows.values())


def _changes_view(game: _Game, changes: dict[str, Any]) -> dict[str, Any]:
    components = []
    for entry in _dicts(changes.get("components")):
        images = []
        for image in _dicts(entry.get("images")):
            images.append(
                {
                    "face": _text(image.get("face")),
                    "before": game.image(image.get("before"), 180),
                    "after": game.image(image.get("after"), 180),
                }
            )
        components.append(
            {
                "id": _text(entry.get("id")),
                "name": _names(entry.get("name")),
                "status": _text(entry.get("status")) or "changed",
                # printed values, then count, size, name, kind, deck
                "printed": _diffs(
                    entry.get("values"), {"count": entry.get("count")}, entry.get("fields")
                ),
                "images": images,
            }
        )
    files = []
    for entry in _dicts(changes.get("files")):
        files.append(
            {
                "path": _text(entry.get("path")),
                "url": game.url(entry.get("path")),
                "status": _text(entry.get("status")),
                "changed": _pages(entry.get("pages_changed")),
                "added": _pages(entry.get("pages_added")),
                "removed": _pages(entry.get("pages_removed")),
            }
        )
    examples = [
        {
            "file": _text(entry.get("file")),
            "before": _text(entry.get("before")),
            "after": _text(entry.get("after")),
            "detail": _text(entry.get("detail")),
        }
        for entry in _dicts(changes.get("examples"))
    ]
    summary = changes.get("summary")
    return {
        "summary": [_text(line) for line in summary] if isinstance(summary, list) else [],
        "rules": _diffs(changes.get("rules")),
        "components": components,
        "files": files,
        "examples": examples,
    }


def _game_view(
    game: _Game, manifest: dict[str, Any], changes: dict[str, Any] | None
) -> dict[str, Any]:
    files = _dicts(manifest.get("files"))
    fallback = _fallback_images(files)
    changed_status = {
        _text(entry.get("id")): _text(entry.get("status")) or "changed"
        for entry in _dicts((changes or {}).get("components"))
    }
    page_changes = {
        _text(entry.get("path")): entry for entry in _dicts((changes or {}).get("files"))
    }

    components = []
    for entry in _dicts(manifest.get("components")):
        component_id = _text(entry.get("id"))
        width = _display_width(entry.get("size_mm"))
        images: dict[str, Any] = {}
        if "images" in entry:
            for face in ("front", "back"):
                images[face] = game.image(_dict(entry.get("images")).get(face), width)
        else:
            for face in ("front", "back"):
                found = fallback.get(component_id, {}).get(face)
                images[face] = game.image(found[1], width) if found else None
        size = entry.get("size_mm")
        components.append(
            {
                "id": component_id,
                "kind": _text(entry.get("kind")),
                "name": _names(entry.get("name")),
                "count": _text(entry.get("count")),
                "deck": _text(entry.get("deck")),
                "source": _text(entry.get("source")),
                "size": (
                    f"{_text(size[0])}×{_text(size[1])} mm"
                    if isinstance(size, list) and len(size) == 2
                    else ""
                ),
                "printed": [
                    {"key": _text(key), "value": _text(value)}
                    for key, value in _dict(entry.get("values")).items()
                ],
                "front": images["front"],
                "back": images["back"],
                "width": width,
                "changed": changed_status.get(component_id, ""),
            }
        )

    sheets = []
    for entry in files:
        if entry.get("kind") != "sheets":
            continue
        path = _text(entry.get("path"))
        marks = page_changes.get(path, {})
        changed = set(_pages(marks.get("pages_changed")))
        added = set(_pages(marks.get("pages_added")))
        pages = []
        for page in _dicts(entry.get("pages")):
            number = page.get("number")
            role = _text(page.get("role"))
            pages.append(
                {
                    "number": _text(number),
                    "role": role,
                    "contents": _page_items(page.get("items"), role),
                    "changed": "added"
                    if number in added
                    else "changed"
                    if number in changed
                    else "",
                }
            )
        sheets.append(
            {
                "path": path,
                "url": game.url(entry.get("path")),
                "paper": _text(entry.get("paper")),
                "mode": _text(entry.get("mode")),
                "lang": _text(entry.get("lang")),
                "pages": pages,
                "removed": _pages(marks.get("pages_removed")),
                "changed": bool(changed or added or _pages(marks.get("pages_removed"))),
            }
        )

    def edition(entry: dict[str, Any]) -> str:
        label = entry.get("edition") or entry.get("lang")
        if isinstance(label, str) and label:
            return label
        stem = Path(_text(entry.get("path"))).stem
        return stem.removeprefix("rulebook-") or stem

    rulebook_html = [
        {
            "edition": edition(entry),
            "url": game.url(entry.get("path")),
            "path": _text(entry.get("path")),
        }
        for entry in files
        if entry.get("kind") == "rulebook-html" and game.url(entry.get("path"))
    ]
    pdfs = [
        {
            "kind": "Rulebook" if entry.get("kind") == "rulebook" else "Player aid",
            "edition": edition(entry),
            "paper": _text(entry.get("paper")),
            "path": _text(entry.get("path")),
            "url": game.url(entry.get("path")),
            "changed": _text(entry.get("path")) in page_changes,
            "draft": entry.get("draft") is True,
        }
        for entry in sorted(files, key=lambda entry: entry.get("kind") != "rulebook")
        if entry.get("kind") in ("rulebook", "player-aid")
    ]
    others = [
        {
            "kind": _text(entry.get("kind")),
            "path": _text(entry.get("path")),
            "url": game.url(entry.get("path")),
            "detail": " · ".join(
                _text(entry.get(key)) for key in ("paper", "mode", "lang") if entry.get(key)
            ),
        }
        for entry in files
        if entry.get("kind") in ("calibration", "card-pdf")
    ]

    examples = []
    for entry in _dicts(manifest.get("examples")):
        ok = entry.get("ok")
        message = _text(entry.get("message"))
        if not message and entry.get("detail"):
            line, column = entry.get("line"), entry.get("column")
            place = f":{_text(line)}:{_text(column)}" if line else ""
            message = f"{_text(entry.get('file'))}{place}: {_text(entry.get('detail'))}"
        examples.append(
            {
                "file": _text(entry.get("file")),
                "title": _names(entry.get("title")),
                "ok": ok if isinstance(ok, bool) else None,
                "message": message,
            }
        )
    stale = [
        {
            "path": _text(entry.get("path")),
            "reason": _text(entry.get("reason")),
            "url": game.url(entry.get("path")),
        }
        for entry in _dicts(manifest.get("stale"))
    ]
    title = _names(manifest.get("title"))
    return {
        "id": game.id,
        "base": game.base,
        "title": title,
        "rule_version": _text(manifest.get("rule_version")),
        "components": components,
        "sheets": sheets,
        "rulebook_html": rulebook_html,
        "pdfs": pdfs,
        "others": others,
        "examples": examples,
        "failing": sum(1 for example in examples if example["ok"] is False),
        "stale": stale,
        "draft": manifest.get("draft") is True,
        "changes": _changes_view(game, changes) if changes is not None else None,
    }


# --------------------------------------------------------------------------- templates

_BASE = r"""<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<title>{% block title %}printgen preview{% endblock %}</title>
<style>
{% if ui_font %}
@font-face { font-family: "printgen-ja"; src: local("BIZ UDPGothic"), url("{{ ui_font }}") format("truetype");
  unicode-range: U+3000-30FF, U+3400-4DBF, U+4E00-9FFF, U+F900-FAFF, U+FF00-FFEF; }
{% endif %}
:root { --fg: #1d2327; --muted: #5f6b73; --line: #d8dee3; --bg: #f6f7f8; --card: #fff;
  --bad: #b42318; --bad-bg: #fdecea; --warn: #8a5a00; --warn-bg: #fff4d6; --good: #1a7f37;
  --new: #0b5cad; --new-bg: #e8f1fb; }
* { box-sizing: border-box; }
body { margin: 0; color: var(--fg); background: var(--bg); line-height: 1.45;
  font: 15px/1.45 "printgen-ja", system-ui, -apple-system, "Segoe UI", "Hiragino Sans", "Yu Gothic UI",
  Meiryo, "Noto Sans CJK JP", sans-serif; }
header { position: sticky; top: 0; z-index: 2; background: #fff; border-bottom: 1px solid var(--line);
  padding: 8px 20px; display: flex; gap: 16px; align-items: baseline; flex-wrap: wrap; }
header h1 { font-size: 19px; margin: 0; }
header nav a { margin-right: 12px; }
header .live { margin-left: auto; color: var(--muted); font-size: 12px; }
main { padding: 12px 20px 40px; max-width: 1500px; }
section { margin: 22px 0; scroll-margin-top: 60px; }
h2 { font-size: 17px; margin: 0 0 10px; border-bottom: 2px solid var(--line); padding-bottom: 3px; }
h3 { font-size: 15px; margin: 0; }
a { color: #0b5cad; }
.muted { color: var(--muted); }
.ja { color: var(--muted); }
.banner { border-radius: 6px; padding: 8px 12px; margin: 10px 0; }
.banner.bad { background: var(--bad-bg); color: var(--bad); border: 1px solid #f3b8b2; }
.banner.warn { background: var(--warn-bg); color: var(--warn); border: 1px solid #f0d58c; }
.banner ul { margin: 4px 0 0; padding-left: 20px; }
table { border-collapse: collapse; background: var(--card); }
th, td { text-align: left; padding: 3px 8px; border-bottom: 1px solid var(--line); vertical-align: top; }
th { font-weight: 600; background: #eef1f3; }
tr.fail td { background: var(--bad-bg); color: var(--bad); }
tr.changed td, tr.added td { background: var(--new-bg); }
.ok { color: var(--good); font-weight: 600; }
.bad { color: var(--bad); font-weight: 600; }
.badge { display: inline-block; font-size: 11px; padding: 0 6px; border-radius: 9px;
  background: #eef1f3; color: var(--muted); margin-left: 4px; vertical-align: middle; }
.badge.changed, .badge.added { background: var(--new); color: #fff; }
.badge.removed { background: var(--bad); color: #fff; }
.grid { display: flex; flex-wrap: wrap; gap: 14px; align-items: flex-start; }
.component { background: var(--card); border: 1px solid var(--line); border-radius: 8px; padding: 10px; }
.component.changed, .component.added { border: 2px solid var(--new); }
.faces { display: flex; gap: 6px; margin-bottom: 6px; }
.faces img, .pair img { display: block; height: auto; border-radius: 4px; box-shadow: 0 1px 3px rgba(0,0,0,.25);
  background: repeating-conic-gradient(#eee 0% 25%, #fff 0% 50%) 50% / 16px 16px; }
.missing { display: flex; align-items: center; justify-content: center; text-align: center;
  border: 1px dashed var(--bad); color: var(--bad); font-size: 12px; padding: 6px; min-height: 60px; }
.meta { font-size: 13px; color: var(--muted); }
.count { font-size: 16px; font-weight: 700; color: var(--fg); }
.values { margin-top: 6px; font-size: 13px; }
.values th { background: none; font-weight: normal; color: var(--muted); }
.values td { font-weight: 600; }
.pair { display: flex; gap: 10px; align-items: flex-start; margin: 6px 0; }
.pair figure { margin: 0; }
.pair figcaption { font-size: 12px; color: var(--muted); text-align: center; }
.pair .arrow { align-self: center; font-size: 22px; color: var(--muted); }
.change { background: var(--card); border: 1px solid var(--line); border-radius: 8px; padding: 10px; margin-bottom: 10px; }
del { color: var(--bad); }
ins { color: var(--good); text-decoration: none; font-weight: 700; }
.sheet { margin-bottom: 12px; }
.sheet table { font-size: 13px; }
details summary { cursor: pointer; }
.tabs a { display: inline-block; padding: 4px 12px; border: 1px solid var(--line); border-bottom: none;
  border-radius: 6px 6px 0 0; background: #eef1f3; text-decoration: none; }
.tabs a.active { background: #fff; font-weight: 600; }
iframe.rulebook { width: 100%; height: 80vh; border: 1px solid var(--line); background: #fff; }
ul.games { list-style: none; padding: 0; }
ul.games li { background: var(--card); border: 1px solid var(--line); border-radius: 8px; padding: 10px 14px; margin: 8px 0; }
</style>
</head>
<body data-version="{{ version }}">
{% block body %}{% endblock %}
<script nonce="{{ nonce }}">
(function () {
  var version = document.body.getAttribute("data-version");
  function poll() {
    fetch("/api/version", {cache: "no-store"})
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (data) {
        if (data && data.version !== version) { location.reload(); return; }
        setTimeout(poll, {{ poll_ms }});
      })
      .catch(function () { setTimeout(poll, {{ poll_ms }}); });
  }
  setTimeout(poll, {{ poll_ms }});

  var frame = document.getElementById("rulebook-frame");
  if (!frame) { return; }
  var key = "printgen-preview-edition:" + location.pathname;
  var tabs = Array.prototype.slice.call(document.querySelectorAll("a.edition"));
  function select(tab, remember) {
    tabs.forEach(function (t) { t.classList.toggle("active", t === tab); });
    if (frame.getAttribute("src") !== tab.getAttribute("href")) { frame.setAttribute("src", tab.getAttribute("href")); }
    if (remember) { try { sessionStorage.setItem(key, tab.getAttribute("data-edition")); } catch (e) {} }
  }
  var saved = null;
  try { saved = sessionStorage.getItem(key); } catch (e) {}
  tabs.forEach(function (tab) {
    tab.addEventListener("click", function (event) { event.preventDefault(); select(tab, true); });
    if (saved !== null && tab.getAttribute("data-edition") === saved) { select(tab, false); }
  });
})();
</script>
</body>
</html>
"""

_INDEX = r"""{% extends "base.html" %}
{% block body %}
<header><h1>printgen preview</h1><span class="muted">{{ out_root }}</span>
<a href="/help/">Authoring reference</a>
<span class="live">reloads after each build</span></header>
<main>
{% if not games %}
<p>No games built yet in this folder: run <code>printgen build</code>.</p>
{% else %}
<ul class="games">
{% for game in games %}
<li data-game="{{ game.id }}">
  <h3><a href="{{ game.url }}">{{ game.title.en or game.id }}</a>
  {% if game.title.ja %}<span class="ja">{{ game.title.ja }}</span>{% endif %}</h3>
  <div class="meta">{{ game.id }}{% if game.rule_version %} · rules {{ game.rule_version }}{% endif %}
  · {{ game.components }} component{{ "" if game.components == 1 else "s" }}
  {% if game.examples %} · {{ game.examples }} examples{% endif %}
  {% if game.failing %} · <span class="bad">{{ game.failing }} failing</span>{% endif %}
  {% if game.stale %} · <span class="bad">{{ game.stale }} stale file{{ "" if game.stale == 1 else "s" }}</span>{% endif %}
  {% if game.changed %} · <span class="badge changed">changed</span>{% endif %}
  {% if game.error %} · <span class="bad">{{ game.error }}</span>{% endif %}
  </div>
</li>
{% endfor %}
</ul>
{% endif %}
</main>
{% endblock %}
"""

_GAME = r"""{% extends "base.html" %}
{% macro picture(image, label) -%}
{% if image is none %}{% elif image.exists -%}
<a href="{{ image.url }}" target="_blank" rel="noopener"><img src="{{ image.url }}" alt="{{ label }}" title="{{ image.path }}"
  loading="lazy" width="{{ image.width }}"{% if image.height %} height="{{ image.height }}"{% endif %}
  style="width: {{ image.width }}px"></a>
{%- else -%}
<div class="missing" style="width: {{ image.width }}px">{{ label }}: {{ image.path }} is missing</div>
{%- endif %}
{%- endmacro %}
{% block title %}{{ game.title.en or game.id }} · printgen preview{% endblock %}
{% block body %}
<header>
  <h1><a href="/">All games</a> / {{ game.title.en or game.id }}
  {% if game.title.ja %}<span class="ja">{{ game.title.ja }}</span>{% endif %}</h1>
  {% if game.rule_version %}<span class="muted">rules {{ game.rule_version }}</span>{% endif %}
  <nav>
    {% if game.changes %}<a href="#changes">What changed</a>{% endif %}
    <a href="#components">Components</a><a href="#sheets">Sheets</a><a href="#rulebook">Rulebook</a>
    <a href="#examples">Examples</a>
  </nav>
  <span class="live">reloads after each build</span>
</header>
<main>
{% if error %}
<div class="banner bad" id="manifest-error">{{ error }}</div>
{% endif %}
{% if game.stale %}
<div class="banner warn" id="stale"><strong>Stale files: kept from an older build.</strong>
<ul>{% for entry in game.stale %}<li>{% if entry.url %}<a href="{{ entry.url }}">{{ entry.path }}</a>{% else %}{{ entry.path }}{% endif %}{% if entry.reason %}: {{ entry.reason }}{% endif %}</li>{% endfor %}</ul>
</div>
{% endif %}
{% if game.draft %}
<div class="banner warn" id="draft">The rulebooks of this build are drafts (marked DRAFT).</div>
{% endif %}
{% if game.failing %}
<div class="banner bad"><a href="#examples">{{ game.failing }} of {{ game.examples|length }} worked examples fail.</a></div>
{% endif %}

{% if game.changes %}{% set changes = game.changes %}
<section id="changes">
<h2>What changed</h2>
{% if changes.summary %}<ul class="summary">{% for line in changes.summary %}<li>{{ line }}</li>{% endfor %}</ul>{% endif %}
{% if changes.rules %}
<div class="change" data-change-rules><h3>Rules</h3>
<table class="values">{% for v in changes.rules %}<tr data-value="{{ v.key }}"><th>{{ v.key }}</th><td>{% if v.before %}<del>{{ v.before }}</del> → {% endif %}<ins>{{ v.after }}</ins></td></tr>{% endfor %}</table>
</div>
{% endif %}
{% for c in changes.components %}
<div class="change" data-change="{{ c.id }}">
  <h3>{{ c.name.en or c.id }} {% if c.name.ja %}<span class="ja">{{ c.name.ja }}</span>{% endif %}
  <span class="muted">{{ c.id }}</span> <span class="badge {{ c.status }}">{{ c.status }}</span></h3>
  {% if c.printed %}
  <table class="values">
  {% for v in c.printed %}<tr data-value="{{ v.key }}"><th>{{ v.key }}</th><td>{% if v.before %}<del>{{ v.before }}</del> → {% endif %}<ins>{{ v.after }}</ins></td></tr>{% endfor %}
  </table>
  {% endif %}
  {% for image in c.images %}
  <div class="pair" data-face="{{ image.face }}">
    <figure class="before">{% if image.before %}{{ picture(image.before, "before") }}{% else %}<div class="missing" style="width: 180px">none before</div>{% endif %}<figcaption>before{% if image.face %} · {{ image.face }}{% endif %}</figcaption></figure>
    <span class="arrow">→</span>
    <figure class="after">{% if image.after %}{{ picture(image.after, "after") }}{% else %}<div class="missing" style="width: 180px">none after</div>{% endif %}<figcaption>after{% if image.face %} · {{ image.face }}{% endif %}</figcaption></figure>
  </div>
  {% endfor %}
</div>
{% endfor %}
{% if changes.files %}
<table class="changed-files">
<tr><th>File</th><th>Pages changed</th><th>Added</th><th>Removed</th></tr>
{% for f in changes.files %}
<tr><td>{% if f.url and f.status != "removed" %}<a href="{{ f.url }}" target="_blank" rel="noopener">{{ f.path }}</a>{% else %}{{ f.path }}{% endif %}{% if f.status and f.status != "changed" %} <span class="badge {{ f.status }}">{{ f.status }}</span>{% endif %}</td>
<td>{{ f.changed|join(", ") }}</td><td>{{ f.added|join(", ") }}</td><td>{{ f.removed|join(", ") }}</td></tr>
{% endfor %}
</table>
{% endif %}
{% if changes.examples %}
<h3 style="margin-top: 10px">Examples whose result changed</h3>
<table class="changed-examples">
<tr><th>Example</th><th>Before</th><th>After</th><th></th></tr>
{% for e in changes.examples %}
<tr class="{{ 'fail' if e.after not in ('ok', '') else '' }}"><td>{{ e.file }}</td><td>{{ e.before }}</td><td>{{ e.after }}</td><td>{{ e.detail }}</td></tr>
{% endfor %}
</table>
{% endif %}
{% if not (changes.summary or changes.rules or changes.components or changes.files or changes.examples) %}<p class="muted">Nothing recorded.</p>{% endif %}
</section>
{% endif %}

<section id="components">
<h2>Components <span class="muted">({{ game.components|length }})</span></h2>
<div class="grid">
{% for c in game.components %}
<article class="component {{ c.changed }}" data-component="{{ c.id }}">
  {% if c.front or c.back %}
  <div class="faces">{{ picture(c.front, "front") }}{{ picture(c.back, "back") }}</div>
  {% endif %}
  <h3><span class="name-en">{{ c.name.en or c.id }}</span>{% if c.changed %} <span class="badge {{ c.changed }}">{{ c.changed }}</span>{% endif %}</h3>
  {% if c.name.ja %}<div class="ja name-ja">{{ c.name.ja }}</div>{% endif %}
  <div class="meta">{% if c.count %}<span class="count">×{{ c.count }}</span> · {% endif %}{{ c.kind }}{% if c.deck %} · {{ c.deck }}{% endif %}{% if c.size %} · {{ c.size }}{% endif %}
    {% if c.source and c.source != "stated" %}<span class="badge">{{ c.source }}</span>{% endif %}</div>
  <div class="meta">{{ c.id }}</div>
  {% if c.printed %}
  <table class="values">{% for v in c.printed %}<tr data-value="{{ v.key }}"><th>{{ v.key }}</th><td>{{ v.value }}</td></tr>{% endfor %}</table>
  {% endif %}
</article>
{% else %}
<p class="muted">No components in the manifest.</p>
{% endfor %}
</div>
</section>

<section id="sheets">
<h2>Sheets</h2>
{% for s in game.sheets %}
<div class="sheet" data-sheet="{{ s.path }}">
  <h3>{% if s.url %}<a href="{{ s.url }}" target="_blank" rel="noopener">{{ s.path }}</a>{% else %}{{ s.path }}{% endif %}
  {% if s.changed %}<span class="badge changed">changed</span>{% endif %}</h3>
  <div class="meta">{{ s.paper }}{% if s.mode %} · {{ s.mode }}{% endif %}{% if s.lang %} · {{ s.lang }}{% endif %} · {{ s.pages|length }} pages
  {% if s.removed %} · <span class="bad">pages removed: {{ s.removed|join(", ") }}</span>{% endif %}</div>
  {% if s.pages %}
  <details open><summary>Pages</summary>
  <table><tr><th>Page</th><th>Role</th><th>Components</th></tr>
  {% for p in s.pages %}<tr class="{{ p.changed }}"><td>{{ p.number }}{% if p.changed %} <span class="badge changed">{{ p.changed }}</span>{% endif %}</td><td>{{ p.role }}</td><td>{{ p.contents }}</td></tr>{% endfor %}
  </table></details>
  {% endif %}
</div>
{% else %}
<p class="muted">No sheets in this build.</p>
{% endfor %}
{% if game.others %}
<div class="meta">Also: {% for o in game.others %}{% if o.url %}<a href="{{ o.url }}" target="_blank" rel="noopener">{{ o.path }}</a>{% else %}{{ o.path }}{% endif %} ({{ o.kind }}{% if o.detail %}, {{ o.detail }}{% endif %}){{ "" if loop.last else " · " }}{% endfor %}</div>
{% endif %}
</section>

<section id="rulebook">
<h2>Rulebook</h2>
{% if game.pdfs %}
<p>{% for p in game.pdfs %}<a href="{{ p.url }}" target="_blank" rel="noopener">{{ p.kind }} {{ p.edition }}{% if p.paper %} ({{ p.paper }}){% endif %}</a>{% if p.draft %} <span class="badge">draft</span>{% endif %}{% if p.changed %} <span class="badge changed">changed</span>{% endif %}{{ "" if loop.last else " · " }}{% endfor %}</p>
{% endif %}
{% if game.rulebook_html %}
<div class="tabs">{% for r in game.rulebook_html %}<a class="edition{{ ' active' if loop.first else '' }}" data-edition="{{ r.edition }}" href="{{ r.url }}" target="rulebook-frame">{{ r.edition }}</a>{% endfor %}</div>
<iframe class="rulebook" id="rulebook-frame" name="rulebook-frame" src="{{ game.rulebook_html[0].url }}"
  sandbox="allow-same-origin allow-popups" title="Rulebook"></iframe>
{% elif not game.pdfs %}
<p class="muted">No rulebook in this build.</p>
{% endif %}
</section>

<section id="examples">
<h2>Worked examples</h2>
{% if game.examples %}
<table class="examples">
<tr><th>Example</th><th>Result</th><th>Message</th></tr>
{% for e in game.examples %}
<tr class="{{ 'fail' if e.ok is false else '' }}" data-example="{{ e.file }}">
<td>{{ e.title.en or e.title.ja or e.file }}{% if e.title.en and e.title.ja %} <span class="ja">{{ e.title.ja }}</span>{% endif %}
{% if e.title.en or e.title.ja %}<div class="meta">{{ e.file }}</div>{% endif %}</td>
<td>{% if e.ok is true %}<span class="ok">ok</span>{% elif e.ok is false %}<span class="bad">FAIL</span>{% else %}?{% endif %}</td>
<td>{{ e.message }}</td></tr>
{% endfor %}
</table>
{% else %}
<p class="muted">No worked examples recorded in the manifest.</p>
{% endif %}
</section>
</main>
{% endblock %}
"""

_ERROR = r"""{% extends "base.html" %}
{% block body %}
<header><h1><a href="/">All games</a></h1><span class="live">reloads after each build</span></header>
<main><div class="banner bad">{{ message }}</div></main>
{% endblock %}
"""

# The page's own templates, sandboxed all the same: what they show comes from game folders
# (names, values, example texts), which are untrusted input.
_ENV = ImmutableSandboxedEnvironment(
    loader=jinja2.DictLoader(
        {"base.html": _BASE, "index.html": _INDEX, "game.html": _GAME, "error.html": _ERROR}
    ),
    autoescape=True,
    undefined=jinja2.StrictUndefined,
    trim_blocks=True,
    lstrip_blocks=True,
)


# --------------------------------------------------------------------------- server


class _HTTPServer(ThreadingHTTPServer):
    daemon_threads = True
    block_on_close = False

    def __init__(self, out_root: Path, port: int) -> None:
        self.out_root = out_root
        self.ui_font = _UI_FONT if _UI_FONT.is_file() else None
        self.docs_root: Path | None = None  # the reference served at /help/
        super().__init__((HOST, port), _Handler)

    def server_bind(self) -> None:
        # HTTPServer.server_bind would also look the host name up (getfqdn): not needed
        socketserver.TCPServer.server_bind(self)
        self.server_name = HOST
        self.server_port = int(self.socket.getsockname()[1])

    def handle_error(self, request: Any, client_address: Any) -> None:
        if isinstance(sys.exc_info()[1], ConnectionError):
            return  # the browser went away (a reload while an image loaded)
        super().handle_error(request, client_address)


class _Handler(BaseHTTPRequestHandler):
    server_version = "printgen-preview"
    _head = False
    _responded = False

    def log_message(self, format: str, *args: Any) -> None:  # the page polls twice a second
        pass

    def do_GET(self) -> None:
        self._safely(head=False)

    def do_HEAD(self) -> None:
        self._safely(head=True)

    def _safely(self, head: bool) -> None:
        self._head = head
        self._responded = False
        try:
            self._handle()
        except ConnectionError:
            raise
        except Exception as exc:
            traceback.print_exc(file=sys.stderr)
            if not self._responded:  # a page that still reloads after the next build
                self._render(
                    HTTPStatus.INTERNAL_SERVER_ERROR,
                    "error.html",
                    message=f"preview failed: {type(exc).__name__}: {exc}",
                )

    # -- routing

    @property
    def _server(self) -> _HTTPServer:
        return cast(_HTTPServer, self.server)

    def _handle(self) -> None:
        if not self._host_allowed():
            self._plain(HTTPStatus.FORBIDDEN, "preview serves this machine only")
            return
        raw = self.path.split("?", 1)[0].split("#", 1)[0]
        if not raw.startswith("/"):
            self._plain(HTTPStatus.BAD_REQUEST, "bad request")
            return
        try:
            parts = [unquote(part, errors="strict") for part in raw[1:].split("/")]
        except UnicodeDecodeError:
            self._not_found()
            return
        out_root = self._server.out_root
        match parts:
            case [""]:
                self._index()
            case ["api", "version"]:
                body = json.dumps({"version": version(out_root)}).encode()
                self._send(HTTPStatus.OK, "application/json", body)
            case ["api", "game", game_id]:
                folder = self._game_folder(game_id)
                manifest: bytes | None = None
                with contextlib.suppress(OSError):
                    manifest = (folder / "manifest.json").read_bytes() if folder else None
                if manifest is None:
                    self._not_found()
                else:
                    self._send(HTTPStatus.OK, "application/json", manifest)
            case ["game", game_id] if self._game_folder(game_id):
                self._responded = True
                self.send_response(HTTPStatus.MOVED_PERMANENTLY)
                self.send_header("Location", f"/game/{quote(game_id, safe='')}/")
                self.send_header("Content-Length", "0")
                self.end_headers()
            case ["game", game_id, ""]:
                self._game_page(game_id)
            case ["game", game_id, "files", *rest]:
                folder = self._game_folder(game_id)
                target = _inside(folder, rest) if folder else None
                if target is None:
                    self._not_found()
                else:
                    self._file(target, cache="no-store")
            case ["help", *rest] if self._server.docs_root is not None:
                self._help("/".join(rest))
            case ["_preview", "ui-font.ttf"] if self._server.ui_font:
                self._file(self._server.ui_font, cache="max-age=86400")
            case _:
                self._not_found()

    def _host_allowed(self) -> bool:
        host = self.headers.get("Host")
        if host is None:
            return True
        name = host.rsplit(":", 1)[0] if not host.endswith("]") else host
        return name.lower() in _ALLOWED_HOSTS

    def _game_folder(self, game_id: str) -> Path | None:
        out_root = self._server.out_root
        if game_id not in _games(out_root):
            return None
        folder = out_root / game_id
        try:
            if not folder.resolve().is_relative_to(out_root.resolve()):
                return None
        except (OSError, RuntimeError):
            return None
        return folder

    # -- pages

    def _render(self, status: HTTPStatus, template: str, **context: Any) -> None:
        nonce = secrets.token_urlsafe(16)
        context.setdefault("version", version(self._server.out_root))
        html = _ENV.get_template(template).render(
            nonce=nonce,
            poll_ms=POLL_MS,
            ui_font=_UI_FONT_URL if self._server.ui_font else None,
            **context,
        )
        csp = (
            "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; "
            f"script-src 'nonce-{nonce}'; object-src 'none'; base-uri 'none'; "
            "frame-ancestors 'self'; form-action 'none'"
        )
        self._send(
            status,
            "text/html; charset=utf-8",
            html.encode("utf-8"),
            {"Content-Security-Policy": csp},
        )

    def _help(self, name: str) -> None:
        """The authoring reference (docs/), its Markdown pages as HTML."""
        from printgen.reference import help_file

        docs = self._server.docs_root
        found = help_file(docs, name) if docs is not None else None
        if found is None:
            self._not_found()
            return
        csp = "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'"
        self._send(HTTPStatus.OK, found[0], found[1], {"Content-Security-Policy": csp})

    def _index(self) -> None:
        out_root = self._server.out_root
        current = version(out_root)  # before reading: a change meanwhile reloads once more
        games = []
        for game_id in _games(out_root):
            manifest, error = _load_json(out_root / game_id / "manifest.json")
            manifest = manifest or {}
            examples = _dicts(manifest.get("examples"))
            games.append(
                {
                    "id": game_id,
                    "url": f"/game/{quote(game_id, safe='')}/",
                    "title": _names(manifest.get("title")),
                    "rule_version": _text(manifest.get("rule_version")),
                    "components": len(_dicts(manifest.get("components"))),
                    "examples": len(examples),
                    "failing": sum(1 for example in examples if example.get("ok") is False),
                    "stale": len(_dicts(manifest.get("stale"))),
                    "changed": (out_root / game_id / "changes.json").is_file(),
                    "error": error or "",
                }
            )
        self._render(
            HTTPStatus.OK, "index.html", version=current, games=games, out_root=str(out_root)
        )

    def _game_page(self, game_id: str) -> None:
        folder = self._game_folder(game_id)
        current = version(self._server.out_root)
        if folder is None:
            self._render(
                HTTPStatus.NOT_FOUND,
                "error.html",
                version=current,
                message=f"No build of {game_id!r} in this folder (yet).",
            )
            return
        manifest, error = _load_json(folder / "manifest.json")
        changes, changes_error = _load_json(folder / "changes.json")
        game = _game_view(_Game(game_id, folder), manifest or {}, changes)
        errors = [message for message in (error, changes_error) if message]
        self._render(
            HTTPStatus.OK, "game.html", version=current, game=game, error="; ".join(errors)
        )

    # -- responses

    def _send(
        self,
        status: HTTPStatus,
        content_type: str,
        body: bytes,
        headers: Mapping[str, str] | None = None,
    ) -> None:
        self._responded = True
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("Referrer-Policy", "no-referrer")
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        if not self._head:
            self.wfile.write(body)

    def _plain(self, status: HTTPStatus, message: str) -> None:
        self._send(status, "text/plain; charset=utf-8", (message + "\n").encode())

    def _not_found(self) -> None:
        self._plain(HTTPStatus.NOT_FOUND, "not found")

    def _file(self, path: Path, cache: str) -> None:
        content_type = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
        try:
            handle = path.open("rb")
        except OSError:
            self._not_found()
            return
        with handle:
            size = os.fstat(handle.fileno()).st_size
            self._responded = True
            self.send_response(HTTPStatus.OK)
            if content_type.startswith("text/") or content_type.endswith(
                ("+xml", "/json", "/javascript")
            ):
                content_type += "; charset=utf-8"
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(size))
            self.send_header("Cache-Control", cache)
            self.send_header("X-Content-Type-Options", "nosniff")
            self.send_header("Referrer-Policy", "no-referrer")
            if content_type.startswith(("text/html", "image/svg", "application/xhtml", "text/xml")):
                # a game's own HTML (its rulebook) shows, but runs no script
                self.send_header(
                    "Content-Security-Policy",
                    "script-src 'none'; object-src 'none'; base-uri 'none'; frame-ancestors 'self'",
                )
            self.end_headers()
            if not self._head:
                shutil.copyfileobj(handle, self.wfile)


class PreviewServer:
    """The preview web server for one out folder, bound to 127.0.0.1.

    Construct (binds the port; `port=0` takes any free one, an OSError when it is taken),
    `start()` to serve in a daemon thread, `shutdown()` to stop and release the port. Also
    a context manager (start on enter, shutdown on exit)."""

    url: str
    port: int
    out_root: Path

    def __init__(
        self, out_root: Path, port: int = DEFAULT_PORT, docs_root: Path | None = None
    ) -> None:
        self.out_root = Path(out_root)
        self._httpd = _HTTPServer(self.out_root, port)
        self._httpd.docs_root = docs_root
        self.port = int(self._httpd.socket.getsockname()[1])
        self.url = f"http://{HOST}:{self.port}/"
        self._thread: threading.Thread | None = None
        self._closed = False
        self._lock = threading.Lock()

    def start(self) -> None:
        """Serve in a daemon thread (again: nothing)."""
        with self._lock:
            if self._thread is not None or self._closed:
                return
            self._thread = threading.Thread(
                target=self._httpd.serve_forever,
                kwargs={"poll_interval": 0.1},
                name="printgen-preview",
                daemon=True,
            )
            self._thread.start()

    def shutdown(self) -> None:
        """Stop serving and release the port (again: nothing)."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            if self._thread is not None:
                self._httpd.shutdown()
                self._thread.join()
            self._httpd.server_close()

    def __enter__(self) -> PreviewServer:
        self.start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.shutdown()


def serve(out_root: Path, port: int = DEFAULT_PORT, docs_root: Path | None = None) -> PreviewServer:
    """Bind 127.0.0.1:`port` (0: any free port), start serving `out_root` in a daemon
    thread and return the running server (its `url` to open, `shutdown()` to stop); with
    `docs_root`, the authoring reference at /help/."""
    server = PreviewServer(out_root, port, docs_root)
    server.start()
    return server
