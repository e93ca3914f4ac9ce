"""The authoring reference (docs/) and the JSON Schemas (schemas/): generated from the
models, described field by field, committed, and never stale."""

from __future__ import annotations

import json
import subprocess
import sys
import typing
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml
from pydantic import BaseModel, Field
from tests_support import run_printgen

from printgen import reference
from printgen.errors import PrintgenError
from printgen.layouts import Element
from printgen.source import load_yaml

ROOT = Path(__file__).resolve().parent.parent


@cache
def committed_docs() -> dict[str, bytes]:
    return reference.doc_files(ROOT / "layouts")


def schema(key: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((ROOT / "schemas" / f"{key}.schema.json").read_text())
    return data


def test_every_field_a_designer_writes_has_a_description() -> None:
    missing = reference.undescribed()
    assert not missing, (
        "these fields have no description (add a docstring under the field, or "
        f"Field(description=...)): {', '.join(missing)}"
    )


def test_the_walk_reaches_nested_models() -> None:
    names = {m.__name__ for m in reference.all_models()}
    for name in ("GameInfo", "Players", "RuleVersion", "ComponentChange", "OptionSpec", "Limits"):
        assert name in names
    for name in ("Deck", "Component", "Element", "LayoutString", "FontSpec", "IconShape"):
        assert name in names
    for name in ("SheetSettings", "StepSpec", "Entry", "PrintedExample", "Term", "SectionText"):
        assert name in names


def test_an_undescribed_field_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    class Inner(BaseModel):
        depth: int

    class Outer(BaseModel):
        inner: list[Inner] = Field(description="described")

    kind = reference.FileKind("x", "x", "X", "x.yaml", dict[str, Outer], "")
    monkeypatch.setattr(reference, "FILE_KINDS", (kind,))
    assert reference.undescribed() == ["Inner.depth"]


def test_docs_are_up_to_date() -> None:
    differ = reference.differences(ROOT / "docs", committed_docs())
    assert not differ, (
        f"docs/ differs from what the models make now ({', '.join(differ)}): run "
        "`.venv/bin/printgen docs` and commit docs/"
    )


def test_schemas_are_up_to_date() -> None:
    differ = reference.differences(ROOT / "schemas", reference.schema_files())
    assert not differ, (
        f"schemas/ differs from what the models make now ({', '.join(differ)}): run "
        "`.venv/bin/printgen schema` and commit schemas/"
    )


def test_the_schemas_have_the_names_printgen_new_points_at() -> None:
    names = set(reference.schema_files())
    kinds = ["game", "components", "layout", "presets", "fonts", "icons", "example", "book"]
    assert names == {f"{k}.schema.json" for k in [*kinds, "section", "glossary", "vendor"]}
    for name in names:
        data = json.loads((ROOT / "schemas" / name).read_text())
        jsonschema.Draft202012Validator.check_schema(data)
        assert data["$schema"] == reference.SCHEMA_DIALECT


def shipped_yaml() -> list[str]:
    return sorted(
        p.relative_to(ROOT).as_posix()
        for top in ("components", "layouts")
        for p in (ROOT / top).rglob("*.yaml")
    )


@pytest.mark.parametrize("rel", shipped_yaml())
def test_every_shipped_yaml_file_fits_its_schema(rel: str) -> None:
    kind = reference.kind_of(rel)
    assert kind is not None, f"{rel}: no file kind (printgen/reference.py kind_of)"
    data = load_yaml(ROOT / rel).data
    if data is None:
        return
    validator = jsonschema.Draft202012Validator(schema(kind.key))
    errors = sorted(validator.iter_errors(data), key=lambda e: list(e.absolute_path))
    assert not errors, (
        f"{rel} does not fit schemas/{kind.schema_name}: at "
        f"{'/'.join(str(p) for p in errors[0].absolute_path) or 'the top'}: {errors[0].message}"
    )


def test_schema_says_what_is_wrong() -> None:
    layout = jsonschema.Draft202012Validator(schema("layout"))
    assert layout.is_valid({"bleed": "3mm", "safe": 2.5, "elements": [{"type": "rect"}]})
    assert not layout.is_valid({"bleed": "3px"})  # lengths: mm, cm, in, pt or a number
    assert not layout.is_valid({"elements": [{"type": "circle"}]})
    assert not layout.is_valid({"elemnts": []})  # unknown keys are errors, as in printgen
    game = jsonschema.Draft202012Validator(schema("game"))
    assert not game.is_valid({"id": "x"})  # title, designer, players... are required
    components = schema("components")
    size = components["$defs"]["Component"]["properties"]["size"]
    text = json.dumps(size)
    assert "mm|cm|in|pt" in text and '"number"' in text
    assert "preset" in size["description"]


def test_kinds_of_files() -> None:
    kind = reference.kind_of
    assert kind("components/g/game.yaml").key == "game"  # type: ignore[union-attr]
    assert kind("components/g/cards.yaml").key == "components"  # type: ignore[union-attr]
    assert kind("components/g/examples/01.yaml").key == "example"  # type: ignore[union-attr]
    assert kind("components/g/rulebook/book.yaml").key == "book"  # type: ignore[union-attr]
    assert kind("components/g/rulebook/glossary.yaml").key == "glossary"  # type: ignore[union-attr]
    assert kind("components/g/rulebook/setup.yaml").key == "section"  # type: ignore[union-attr]
    assert kind("layouts/icons.yaml").key == "icons"  # type: ignore[union-attr]
    assert kind("layouts/g/card.yaml").key == "layout"  # type: ignore[union-attr]
    assert kind("layouts/rulebook/book.html.j2") is None


def test_the_reference_lists_every_key_type_and_name() -> None:
    pages = {k: v.decode() for k, v in committed_docs().items() if k.endswith(".md")}
    layouts = pages["layouts.md"]
    for name in Element.model_fields:
        assert f"| `{name}` |" in layouts
    for kind in typing.get_args(typing.get_args(Element.model_fields["type"].annotation)[0]):
        assert f"### `{kind}`" in layouts and f"pictures/{kind}.png" in layouts
    for name in ("t", "s", "values", "deck_values", "rules", "i", "item", "by_id"):
        assert f"| `{name}` |" in layouts
    sections = pages["sections.md"]
    for name in ("rules", "values", "count", "per_deck", "components", "name", "versions"):
        assert f"| `{name}` |" in sections
    book = pages["book.md"]
    for block in typing.get_args(reference.BlockKind):
        assert f"### `{block}`" in book
    index = pages["README.md"]
    for kind_ in reference.FILE_KINDS:
        assert f"({kind_.page}.md)" in index
    assert "| `players` | [Players](#players) | required |" in pages["game.md"]


def test_each_picture_is_the_yaml_shown_drawn_the_same_every_time() -> None:
    for text in reference.DEMOS.values():
        Element.model_validate(yaml.safe_load(text))
        assert f"- {text}" in committed_docs()["layouts.md"].decode()
    again = reference.pictures(ROOT / "layouts")
    pictures = {k: v for k, v in committed_docs().items() if k.startswith("pictures/")}
    assert again == pictures
    assert all(data.startswith(b"\x89PNG") for data in pictures.values())
    assert len(set(pictures.values())) == len(pictures)  # each demo draws something else


def test_a_template_name_without_a_description_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    names = dict(reference.CARD_NAMES)
    del names["deck_values"]
    monkeypatch.setattr(reference, "CARD_NAMES", names)
    with pytest.raises(PrintgenError, match="deck_values"):
        reference.doc_files(ROOT / "layouts")


def test_a_block_type_without_a_description_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    blocks = dict(reference.BLOCKS)
    del blocks["glossary"]
    monkeypatch.setattr(reference, "BLOCKS", blocks)
    with pytest.raises(PrintgenError, match="glossary"):
        reference.doc_files(ROOT / "layouts")


def printgen(*args: str) -> subprocess.CompletedProcess[str]:
    return run_printgen(ROOT, *args)


def test_the_commands_write_then_leave_alone_and_clear_leftovers(tmp_path: Path) -> None:
    out = tmp_path / "schemas"
    first = printgen("schema", "--out", str(out))
    assert first.returncode == 0, first.stderr
    assert "11 written" in first.stdout
    assert {p.name for p in out.iterdir()} == set(reference.schema_files())
    (out / "old.schema.json").write_text("{}")
    (out / "notes.txt").write_text("mine")
    again = printgen("schema", "--out", str(out))
    assert "0 written, 1 removed, 11 unchanged" in again.stdout
    assert (out / "notes.txt").is_file() and not (out / "old.schema.json").exists()
    docs = tmp_path / "docs"
    made = printgen("docs", "--out", str(docs))
    assert made.returncode == 0, made.stderr
    assert reference.differences(docs, committed_docs()) == []
    assert (docs / "pictures" / "text.png").is_file()


def test_a_broken_layouts_folder_is_an_error_not_a_traceback(tmp_path: Path) -> None:
    (tmp_path / "layouts").mkdir()
    (tmp_path / "layouts" / "presets.yaml").write_text("sizes: [\n")
    result = subprocess.run(
        [sys.executable, "-m", "printgen", "--root", str(tmp_path), "docs"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        check=False,
    )
    assert result.returncode == 1
    assert "error:" in result.stderr and "presets.yaml" in result.stderr
    assert "Traceback" not in result.stderr


def test_the_preview_serves_the_reference_at_help(tmp_path: Path) -> None:
    import urllib.error
    import urllib.request

    from printgen.preview import serve

    server = serve(tmp_path, 0, ROOT / "docs")
    try:

        def get(path: str) -> tuple[int, str, bytes]:
            try:
                with urllib.request.urlopen(server.url + path) as response:
                    return response.status, response.headers["Content-Type"], response.read()
            except urllib.error.HTTPError as exc:
                return exc.code, "", b""

        status, kind, body = get("help/")
        assert status == 200 and kind.startswith("text/html")
        assert b'href="layouts.md"' in body and b"<table>" in body
        status, _kind, body = get("help/layouts.md")
        assert status == 200 and b'<h3 id="element">' in body
        assert b'src="pictures/rect.png"' in body
        status, kind, body = get("help/pictures/rect.png")
        assert status == 200 and kind == "image/png" and body.startswith(b"\x89PNG")
        for bad in ("help/../pyproject.toml", "help/%2e%2e/pyproject.toml", "help/missing.md"):
            assert get(bad)[0] == 404
        assert b'href="/help/"' in get("")[2]
    finally:
        server.shutdown()
