"""`printgen preview`: the local web page of a build (printgen.preview), over real HTTP,
and once in a real browser (Debian's chromium driven by Selenium) for the live reload."""

from __future__ import annotations

import http.client
import json
import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PIL import Image
from tests_support import assert_other_addresses_refuse

from printgen.preview import PreviewServer, serve

# --------------------------------------------------------------------------- fixture out folder


def png(path: Path, colour: str, size: tuple[int, int] = (126, 176)) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    Image.new("RGB", size, colour).save(path)


def manifest(game: str = "sub", *, dice: int = 5, name_en: str = "Torpedo A") -> dict[str, Any]:
    return {
        "game": game,
        "title": {"ja": "サブマリン・アタック", "en": "Submarine Attack"},
        "rule_version": "1.1",
        "components": [
            {
                "id": "torpedo-a",
                "kind": "card",
                "count": 2,
                "size_mm": [63, 88],
                "name": {"ja": "魚雷A", "en": name_en},
                "deck": "blue",
                "source": "stated",
                "values": {"action": "torpedo", "grade": "A", "dice": dice},
                "images": {
                    "front": "png/torpedo-a.png",
                    "back": "png/backs/blue.png",
                },
            },
            {
                "id": "mat",
                "kind": "mat",
                "count": 1,
                "size_mm": [394, 280],
                "name": {"ja": "配置シート", "en": "Placement mat"},
                "deck": None,
                "source": "reconstructed",
                "values": {},
                "images": {"front": "png/mat.png", "back": None},
            },
        ],
        "examples": [
            {
                "file": "examples/01-pair.yaml",
                "title": "A pair sinks its column",
                "ok": True,
                "message": "ok   examples/01-pair.yaml  A pair sinks its column",
            },
            {
                "file": "examples/02-miss.yaml",
                "title": "A miss",
                "ok": False,
                "message": "FAIL examples/02-miss.yaml:9:5: step 2: sunk: expected 1, got 0",
            },
        ],
        "stale": [
            {"path": "rulebook-en.pdf", "reason": "kept from the previous build: 1 example fails"}
        ],
        "files": [
            {
                "path": "sheets-a4-duplex-long.pdf",
                "kind": "sheets",
                "paper": "a4",
                "mode": "duplex-long",
                "lang": "both",
                "sha256": "0" * 64,
                "pages": [
                    {"number": 1, "role": "checklist", "items": []},
                    {
                        "number": 2,
                        "role": "fronts",
                        "items": [
                            {"component": "torpedo-a", "copy": 1, "face": "front"},
                            {"component": "torpedo-a", "copy": 2, "face": "front"},
                        ],
                    },
                ],
            },
            {"path": "html/rulebook-en.html", "kind": "rulebook-html", "edition": "en"},
            {"path": "html/rulebook-ja.html", "kind": "rulebook-html", "edition": "ja"},
            {"path": "rulebook-en.pdf", "kind": "rulebook", "edition": "en", "paper": "a5"},
            {"path": "player-aid-en.pdf", "kind": "player-aid", "lang": "en", "paper": "a4"},
        ],
    }


def changes(old_dice: int = 5, new_dice: int = 6) -> dict[str, Any]:
    return {
        "game": "sub",
        "summary": [f"torpedo-a: values.dice {old_dice} -> {new_dice}"],
        "components": [
            {
                "id": "torpedo-a",
                "name": {"ja": "魚雷A", "en": "Torpedo A"},
                "status": "changed",
                "values": {"dice": [old_dice, new_dice]},
                "count": [2, 2],
                "images": [
                    {
                        "face": "front",
                        "before": "changes/before/png/torpedo-a.png",
                        "after": "png/torpedo-a.png",
                    }
                ],
            }
        ],
        "files": [
            {
                "path": "sheets-a4-duplex-long.pdf",
                "pages_changed": [2],
                "pages_added": [],
                "pages_removed": [],
            }
        ],
        "examples": [{"file": "examples/02-miss.yaml", "before": "ok", "after": "fail"}],
    }


def write_json(path: Path, data: dict[str, Any]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, ensure_ascii=False, indent=1), encoding="utf-8")


def write_game(out: Path, game: str = "sub", **kwargs: Any) -> Path:
    folder = out / game
    write_json(folder / "manifest.json", manifest(game, **kwargs))
    png(folder / "png" / "torpedo-a.png", "#c0392b")
    png(folder / "png" / "backs" / "blue.png", "#1f4e9c")
    png(folder / "png" / "mat.png", "#2e7d32", (400, 284))
    png(folder / "changes" / "before" / "png" / "torpedo-a.png", "#f1c40f")
    (folder / "html").mkdir(exist_ok=True)
    (folder / "html" / "rulebook-en.html").write_text("<p>Rules</p>", encoding="utf-8")
    (folder / "html" / "rulebook-ja.html").write_text("<p>ルール</p>", encoding="utf-8")
    (folder / "rulebook-en.pdf").write_bytes(b"%PDF-1.4\n")
    return folder


@pytest.fixture()
def out(tmp_path: Path) -> Path:
    root = tmp_path / "out"
    write_game(root)
    return root


@pytest.fixture()
def server(out: Path) -> Iterator[PreviewServer]:
    running = serve(out, port=0)
    try:
        yield running
    finally:
        running.shutdown()


def get(
    server: PreviewServer, path: str, host: str | None = None
) -> tuple[int, dict[str, str], bytes]:
    """GET the raw path as written (no client-side normalising of `..` or `%2e`)."""
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=5)
    try:
        connection.putrequest("GET", path, skip_host=host is not None)
        if host is not None:
            connection.putheader("Host", host)
        connection.endheaders()
        response = connection.getresponse()
        return response.status, dict(response.getheaders()), response.read()
    finally:
        connection.close()


def page(server: PreviewServer, path: str) -> str:
    status, headers, body = get(server, path)
    assert status == 200, (path, status, body[:500])
    assert headers["Content-Type"].startswith("text/html")
    return body.decode("utf-8")


# --------------------------------------------------------------------------- unit tests


def test_binds_loopback_only(server: PreviewServer) -> None:
    assert server.url == f"http://127.0.0.1:{server.port}/"
    assert server._httpd.socket.getsockname()[0] == "127.0.0.1"
    assert_other_addresses_refuse(server.port)


def test_port_zero_takes_a_free_port_and_shutdown_releases_it(out: Path) -> None:
    first = serve(out, port=0)
    try:
        assert first.port > 0
        with pytest.raises(OSError):
            PreviewServer(out, port=first.port)
    finally:
        first.shutdown()
        first.shutdown()  # twice: nothing
    again = PreviewServer(out, port=first.port)  # the port is free again
    again.shutdown()  # never started: nothing to wait for


def test_index_lists_games(out: Path, server: PreviewServer) -> None:
    write_game(out, "second")
    (out / "bench").mkdir()
    (out / "bench" / "print.json").write_text("{}", encoding="utf-8")
    html = page(server, "/")
    assert 'href="/game/sub/"' in html and 'href="/game/second/"' in html
    assert "Submarine Attack" in html and "サブマリン・アタック" in html
    assert "/game/bench/" not in html  # no manifest, no game
    assert "1 failing" in html and "1 stale file" in html


def test_game_page_shows_components_sheets_rulebook_examples(server: PreviewServer) -> None:
    html = page(server, "/game/sub/")
    # components: names, count, printed values, both faces
    assert "Torpedo A" in html and "魚雷A" in html and "×2" in html
    assert '<tr data-value="dice"><th>dice</th><td>5</td></tr>' in html
    assert 'src="/game/sub/files/png/torpedo-a.png"' in html
    assert 'src="/game/sub/files/png/backs/blue.png"' in html
    assert 'width="180" height="251"' in html  # a card at 180 px, its height from the PNG
    assert "reconstructed" in html and "Placement mat" in html
    # sheets: the file, paper and mode, its pages with their roles and components
    assert 'href="/game/sub/files/sheets-a4-duplex-long.pdf"' in html
    assert "a4 · duplex-long" in html and "checklist" in html and "torpedo-a ×2" in html
    # rulebook: each edition's HTML in the frame, the PDFs as links
    assert 'id="rulebook-frame"' in html and 'src="/game/sub/files/html/rulebook-en.html"' in html
    assert 'data-edition="ja" href="/game/sub/files/html/rulebook-ja.html"' in html
    assert 'href="/game/sub/files/rulebook-en.pdf"' in html
    assert 'href="/game/sub/files/player-aid-en.pdf"' in html
    # examples: a table, the failing one highlighted; the stale file a visible warning
    assert '<tr class="fail" data-example="examples/02-miss.yaml">' in html
    assert "step 2: sunk: expected 1, got 0" in html
    assert 'id="stale"' in html and "kept from the previous build: 1 example fails" in html
    assert "What changed" not in html  # no changes.json
    # live reload: the version in the page, the poll in the script
    assert 'data-version="' in html and "/api/version" in html and "location.reload()" in html


def test_untrusted_names_and_values_are_escaped(out: Path, server: PreviewServer) -> None:
    data = manifest(name_en="<script>alert(1)</script>")
    data["components"][0]["values"]["note"] = '"><img src=x onerror=alert(2)>'
    data["components"][0]["id"] = 'x" onmouseover="alert(3)'
    write_json(out / "sub" / "manifest.json", data)
    html = page(server, "/game/sub/")
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "<script>alert" not in html
    assert "<img src=x" not in html and "&#34;&gt;&lt;img src=x onerror=alert(2)&gt;" in html
    assert 'onmouseover="alert(3)' not in html
    _, headers, _ = get(server, "/game/sub/")
    assert "script-src 'nonce-" in headers["Content-Security-Policy"]


def test_changes_show_values_images_pages_and_examples(out: Path, server: PreviewServer) -> None:
    write_json(out / "sub" / "changes.json", changes())
    html = page(server, "/game/sub/")
    assert 'id="changes"' in html and "torpedo-a: values.dice 5 -&gt; 6" in html
    assert "<del>5</del> → <ins>6</ins>" in html
    before = html.index('src="/game/sub/files/changes/before/png/torpedo-a.png"')
    after = html.index('src="/game/sub/files/png/torpedo-a.png"', before)
    assert html.rfind('class="pair"', 0, before) == html.rfind('class="pair"', 0, after)
    assert '<tr class="changed"><td>2 <span class="badge changed">changed</span>' in html
    assert '<tr class="fail"><td>examples/02-miss.yaml</td><td>ok</td><td>fail</td>' in html
    assert 'class="component changed" data-component="torpedo-a"' in html


def test_the_builds_own_fields_are_shown(out: Path, server: PreviewServer) -> None:
    """What printgen.build and printgen.changes write beyond the brief's contract: example
    titles in both languages with `detail` instead of `message`, `draft` rulebooks, changed
    rules, changed component fields, added or removed files."""
    data = manifest()
    data["draft"] = True
    data["examples"] = [
        {
            "file": "examples/02-miss.yaml",
            "line": 9,
            "column": 5,
            "title": {"ja": "外れ", "en": "A miss"},
            "version": "1.1",
            "ok": False,
            "detail": "step 2: sunk: expected 1, got 0",
        }
    ]
    write_json(out / "sub" / "manifest.json", data)
    report = changes()
    report["rules"] = {"target_points": [10, 12]}
    report["components"][0]["fields"] = {
        "count": [2, 3],
        "size_mm": [[63, 88], [59, 92]],
        "name": [{"ja": "魚雷A", "en": "Torpedo A"}, {"ja": "魚雷A", "en": "Torpedo Alpha"}],
    }
    report["files"].append({"path": "rulebook-ja.pdf", "status": "removed"})
    report["examples"][0]["detail"] = "step 2: sunk: expected 1, got 0"
    write_json(out / "sub" / "changes.json", report)
    html = page(server, "/game/sub/")
    assert 'id="draft"' in html
    assert 'A miss <span class="ja">外れ</span>' in html
    assert "examples/02-miss.yaml:9:5: step 2: sunk: expected 1, got 0" in html
    assert (
        '<tr data-value="target_points"><th>target_points</th><td><del>10</del> → <ins>12</ins>'
        in html
    )
    assert "<del>2</del> → <ins>3</ins>" in html
    assert "<del>63×88 mm</del> → <ins>59×92 mm</ins>" in html
    assert "<del>Torpedo A / 魚雷A</del> → <ins>Torpedo Alpha / 魚雷A</ins>" in html
    assert 'rulebook-ja.pdf <span class="badge removed">removed</span>' in html
    assert "<td>fail</td><td>step 2: sunk: expected 1, got 0</td>" in html


def test_old_or_broken_manifests_degrade(out: Path, server: PreviewServer) -> None:
    # a manifest from before components listed images and values: the card-image files
    old = out / "old"
    write_json(
        old / "manifest.json",
        {
            "game": "old",
            "components": [{"id": "c", "kind": "card", "count": 3, "name": {"en": "Card"}}],
            "files": [
                {
                    "path": "png/c-2.png",
                    "kind": "card-image",
                    "component": "c",
                    "copy": 2,
                    "face": "front",
                },
                {
                    "path": "png/c-1.png",
                    "kind": "card-image",
                    "component": "c",
                    "copy": 1,
                    "face": "front",
                },
            ],
        },
    )
    png(old / "png" / "c-1.png", "#888888")
    html = page(server, "/game/old/")
    assert "Card" in html and "×3" in html and 'src="/game/old/files/png/c-1.png"' in html
    assert "No worked examples" in html and "What changed" not in html
    # the barest manifest, and one caught half-written
    write_json(out / "bare" / "manifest.json", {})
    assert "No components" in page(server, "/game/bare/")
    (out / "half").mkdir()
    (out / "half" / "manifest.json").write_text('{"game": "ha', encoding="utf-8")
    html = page(server, "/game/half/")
    assert "manifest.json could not be read" in html and "/api/version" in html
    assert "could not be read" in page(server, "/")
    # wrong types everywhere: still a page
    write_json(
        out / "odd" / "manifest.json",
        {"components": [1, {"id": 2, "values": [1], "images": "x", "size_mm": "big"}], "files": {}},
    )
    write_json(out / "odd" / "changes.json", {"components": [{"values": {"a": 1}, "images": [{}]}]})
    assert page(server, "/game/odd/")
    # a missing image is named, not a broken picture
    (out / "sub" / "png" / "mat.png").unlink()
    assert "png/mat.png is missing" in page(server, "/game/sub/")


def test_api_game_returns_the_manifest(out: Path, server: PreviewServer) -> None:
    status, headers, body = get(server, "/api/game/sub")
    assert status == 200 and headers["Content-Type"] == "application/json"
    assert json.loads(body) == manifest()
    assert get(server, "/api/game/nope")[0] == 404


def test_version_follows_the_bytes_of_manifests_and_changes(
    out: Path, server: PreviewServer
) -> None:
    def version() -> str:
        status, _, body = get(server, "/api/version")
        assert status == 200
        value = json.loads(body)["version"]
        assert isinstance(value, str) and int(value, 16) >= 0
        return value

    first = version()
    path = out / "sub" / "manifest.json"
    path.write_bytes(path.read_bytes())  # rewritten with the same bytes: same version
    assert version() == first
    stat = path.stat()
    write_json(path, manifest(dice=6))
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))  # the same mtime: still seen
    second = version()
    assert second != first
    write_json(out / "sub" / "changes.json", changes())
    third = version()
    assert third not in (first, second)
    write_game(out, "another")
    assert version() != third
    (out / "sub" / "changes.json").unlink()
    (out / "another" / "manifest.json").unlink()
    assert version() == second


@pytest.mark.parametrize(
    "path",
    [
        "/game/sub/files/../../etc/passwd",
        "/game/sub/files/%2e%2e/%2e%2e/etc/passwd",
        "/game/sub/files/%2E%2E/%2E%2E/%2E%2E/etc/passwd",
        "/game/sub/files/png/%2e%2e%2f%2e%2e%2fsecret.txt",
        "/game/sub/files/..%2fsecret.txt",
        "/game/sub/files//etc/passwd",
        "/game/sub/files/%2fetc%2fpasswd",
        "/game/sub/files/png/../../../secret.txt",
        "/game/sub/files/./manifest.json",
        "/game/sub/files/",
        "/game/sub/files/png",
        "/game/sub/files/link-out.txt",
        "/game/sub/files/link-dir/secret.txt",
        "/game/%2e%2e/files/secret.txt",
        "/game/../files/secret.txt",
        "/game/sub/files/%00",
        "/game/sub/files/%ff",
        "/game/sub/files/png%5c..%5c..%5csecret.txt",
        "/game/nope/",
        "/game/nope/files/manifest.json",
        "/nothing",
    ],
)
def test_paths_outside_the_game_folder_are_404(out: Path, server: PreviewServer, path: str) -> None:
    (out.parent / "secret.txt").write_text("secret", encoding="utf-8")
    (out / "secret.txt").write_text("secret", encoding="utf-8")
    (out / "sub" / "link-out.txt").symlink_to(out.parent / "secret.txt")
    (out / "sub" / "link-dir").symlink_to(out.parent, target_is_directory=True)
    status, _, body = get(server, path)
    assert status == 404, (path, status)
    assert b"secret" not in body


def test_files_inside_the_game_folder_are_served(out: Path, server: PreviewServer) -> None:
    (out / "sub" / "link-in.png").symlink_to(out / "sub" / "png" / "torpedo-a.png")
    expected = (out / "sub" / "png" / "torpedo-a.png").read_bytes()
    for path in (
        "/game/sub/files/png/torpedo-a.png",
        "/game/sub/files/link-in.png",
        "/game/sub/files/png/torpedo%2Da.png",
    ):
        status, headers, body = get(server, path)
        assert (status, headers["Content-Type"], body) == (200, "image/png", expected), path
    status, headers, body = get(server, "/game/sub/files/html/rulebook-en.html")
    assert status == 200 and body == b"<p>Rules</p>"
    assert "script-src 'none'" in headers["Content-Security-Policy"]  # a game's HTML runs no script
    status, headers, _ = get(server, "/game/sub")
    assert status == 301 and headers["Location"] == "/game/sub/"


def test_other_hosts_are_refused(server: PreviewServer) -> None:
    """A web page elsewhere that rebinds its own name to 127.0.0.1 reads nothing."""
    assert get(server, "/api/version", host="evil.example")[0] == 403
    assert get(server, "/game/sub/", host=f"evil.example:{server.port}")[0] == 403
    assert get(server, "/api/version", host=f"localhost:{server.port}")[0] == 200


# --------------------------------------------------------------------------- real browser


@pytest.mark.browser
def test_page_reloads_itself_after_a_rebuild(
    out: Path, server: PreviewServer, browser: Any, tmp_path: Path
) -> None:
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    dice = '[data-component="torpedo-a"] tr[data-value="dice"] td'
    browser.get(server.url + "game/sub/")
    assert browser.find_element(By.CSS_SELECTOR, dice).text == "5"
    assert (
        browser.find_element(By.CSS_SELECTOR, '[data-component="torpedo-a"] .name-en').text
        == "Torpedo A"
    )
    browser.execute_script("window.beforeRebuild = true;")

    # the rebuild: a new manifest and what changed, the test never touches the page
    png(out / "sub" / "png" / "torpedo-a.png", "#8e44ad")
    write_json(out / "sub" / "changes.json", changes(5, 6))
    write_json(out / "sub" / "manifest.json", manifest(dice=6))
    started = time.monotonic()
    # the page reloads under the wait: an element found just before is stale, so look again
    WebDriverWait(
        browser, 5, poll_frequency=0.1, ignored_exceptions=(StaleElementReferenceException,)
    ).until(lambda driver: driver.find_element(By.CSS_SELECTOR, dice).text == "6")
    assert time.monotonic() - started < 5
    assert browser.execute_script("return window.beforeRebuild === undefined;")  # reloaded

    # before and after side by side, both loaded
    before = browser.find_element(By.CSS_SELECTOR, '[data-change="torpedo-a"] figure.before img')
    after = browser.find_element(By.CSS_SELECTOR, '[data-change="torpedo-a"] figure.after img')
    WebDriverWait(browser, 5, poll_frequency=0.1).until(
        lambda driver: driver.execute_script(
            "return arguments[0].complete && arguments[0].naturalWidth > 0"
            " && arguments[1].complete && arguments[1].naturalWidth > 0;",
            before,
            after,
        )
    )
    assert before.get_attribute("src").endswith("/changes/before/png/torpedo-a.png")
    assert after.get_attribute("src").endswith("/files/png/torpedo-a.png")
    assert abs(before.rect["y"] - after.rect["y"]) < 2
    assert before.rect["x"] + before.rect["width"] < after.rect["x"]
    assert before.rect["width"] == after.rect["width"] == 180
    row = browser.find_element(
        By.CSS_SELECTOR, '[data-change="torpedo-a"] tr[data-value="dice"] td'
    )
    assert row.text == "5 → 6"

    # the rulebook frame switches edition without leaving the page
    browser.find_element(By.CSS_SELECTOR, 'a.edition[data-edition="ja"]').click()
    frame = browser.find_element(By.ID, "rulebook-frame")
    assert frame.get_attribute("src").endswith("/html/rulebook-ja.html")
    assert browser.current_url == server.url + "game/sub/"

    browser.execute_script("window.scrollTo(0, 0);")
    browser.save_screenshot(str(tmp_path / "preview.png"))
    if shot := os.environ.get("PRINTGEN_PREVIEW_SCREENSHOT"):
        browser.save_screenshot(shot)
