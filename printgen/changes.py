"""What changed since the last build, read from the two builds' manifests.

Each manifest records the rules used, every component with its printed values, a
signature of every page (sheets: the drawing of the faces on it; rulebooks: the texts and
pictures laid out on it) and every worked example's result, so comparing two manifests
says which components, pages and examples changed without opening a PDF.
"""

from __future__ import annotations

import difflib
import json
from typing import Any

PAGED_KINDS = ("sheets", "card-pdf", "rulebook", "player-aid")
BEFORE = "changes/before/"  # the last build's pictures of the faces that changed


def compare(old: dict[str, Any], new: dict[str, Any]) -> dict[str, Any]:
    """The changes from the `old` manifest to the `new` one (see changes.json)."""
    report: dict[str, Any] = {
        "game": new.get("game"),
        "rules": _rules(old.get("rules"), new.get("rules")),
        "components": [],
        "images": [],
        "files": [],
        "examples": [],
    }
    before = {c["id"]: c for c in old.get("components", []) if isinstance(c, dict)}
    after = {c["id"]: c for c in new.get("components", []) if isinstance(c, dict)}
    old_files = {f["path"]: f for f in old.get("files", []) if isinstance(f, dict)}
    new_files = {f["path"]: f for f in new.get("files", []) if isinstance(f, dict)}
    for cid, comp in after.items():
        was = before.get(cid)
        if was is None:
            report["components"].append(_entry(comp, "added"))
            continue
        entry = _entry(comp, "changed")
        values = _diff(was.get("values", {}), comp.get("values", {}))
        if values:
            entry["values"] = values
        fields = {
            key: [was.get(key), comp.get(key)]
            for key in ("count", "size_mm", "name", "kind", "deck")
            if _canon(was.get(key)) != _canon(comp.get(key))
        }
        if fields:
            entry["fields"] = fields
        images = []
        for face, path in sorted((comp.get("images") or {}).items()):
            # A face's PNG may be shared (copies, a deck's back) and may change its name
            # when it comes to be drawn like another face or no longer is: compare pictures.
            old_path = (was.get("images") or {}).get(face)
            old_sha = _sha(old_files, old_path) if isinstance(old_path, str) else None
            if path and old_sha and old_sha != _sha(new_files, path):
                images.append({"face": face, "before": f"{BEFORE}{old_path}", "after": path})
        if images:
            entry["images"] = images
            report["images"].extend(images)
        if len(entry) > 3:  # more than id, name and status
            report["components"].append(entry)
    for cid, comp in before.items():
        if cid not in after:
            report["components"].append(_entry(comp, "removed"))
    for path, entry in sorted(new_files.items()):
        if entry.get("kind") not in PAGED_KINDS:
            continue
        was = old_files.get(path)
        if was is None:
            report["files"].append({"path": path, "status": "added"})
            continue
        pages = _page_changes(_signatures(was), _signatures(entry))
        if pages:
            report["files"].append({"path": path, "status": "changed", **pages})
    for path, entry in sorted(old_files.items()):
        if entry.get("kind") in PAGED_KINDS and path not in new_files:
            report["files"].append({"path": path, "status": "removed"})
    old_examples = {e["file"]: e for e in old.get("examples", []) if isinstance(e, dict)}
    for ex in new.get("examples", []):
        was = old_examples.get(ex["file"])
        now = "ok" if ex.get("ok") else "fail"
        then = "new" if was is None else ("ok" if was.get("ok") else "fail")
        if then != now or (now == "fail" and was and was.get("detail") != ex.get("detail")):
            report["examples"].append(
                {"file": ex["file"], "before": then, "after": now, "detail": ex.get("detail", "")}
            )
    report["summary"] = summary(report)
    return report


def _entry(comp: dict[str, Any], status: str) -> dict[str, Any]:
    return {"id": comp["id"], "name": comp.get("name"), "status": status}


def _sha(files: dict[str, dict[str, Any]], path: str) -> Any:
    return files.get(path, {}).get("sha256")


def _rules(old: Any, new: Any) -> dict[str, list[Any]]:
    if not isinstance(old, dict) or not isinstance(new, dict):
        return {}
    return _diff(old, new)


def _diff(old: dict[str, Any], new: dict[str, Any]) -> dict[str, list[Any]]:
    """Keys whose value differs: {key: [old, new]} (a missing key is null)."""
    return {
        key: [old.get(key), new.get(key)]
        for key in sorted(set(old) | set(new), key=str)
        if _canon(old.get(key)) != _canon(new.get(key))
    }


def _canon(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False, default=str)


def _signatures(entry: dict[str, Any]) -> list[str]:
    if "page_signatures" in entry:
        return [str(s) for s in entry["page_signatures"]]
    return [str(p.get("sha256", "")) for p in entry.get("pages", [])]


def _page_changes(old: list[str], new: list[str]) -> dict[str, list[int]]:
    """Pages (numbered from 1 in the new file) changed or added, and old pages removed: a
    page inserted early does not make every later page 'changed'."""
    if old == new:
        return {}
    changed: list[int] = []
    added: list[int] = []
    removed: list[int] = []
    matcher = difflib.SequenceMatcher(a=old, b=new, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "replace":
            common = min(i2 - i1, j2 - j1)
            changed.extend(range(j1 + 1, j1 + common + 1))
            added.extend(range(j1 + common + 1, j2 + 1))
            removed.extend(range(i1 + common + 1, i2 + 1))
        elif tag == "insert":
            added.extend(range(j1 + 1, j2 + 1))
        elif tag == "delete":
            removed.extend(range(i1 + 1, i2 + 1))
    if not (changed or added or removed):
        return {}
    return {"pages_changed": changed, "pages_added": added, "pages_removed": removed}


def pages_text(pages: list[int]) -> str:
    """[3, 4, 5, 9] -> '3-5, 9'."""
    runs: list[list[int]] = []
    for n in sorted(set(pages)):
        if runs and n == runs[-1][-1] + 1:
            runs[-1].append(n)
        else:
            runs.append([n])
    return ", ".join(str(r[0]) if len(r) == 1 else f"{r[0]}-{r[-1]}" for r in runs)


def _value(value: Any) -> str:
    return "none" if value is None else _canon(value).strip('"')


def summary(report: dict[str, Any]) -> list[str]:
    """The report as short lines for the terminal: rules and components, pages, examples."""
    lines = data_summary(report)
    for f in report["files"]:
        if f["status"] != "changed":
            lines.append(f"{f['path']}: {f['status']}")
            continue
        bits = []
        for key, word in (
            ("pages_changed", "changed"),
            ("pages_added", "added"),
            ("pages_removed", "removed"),
        ):
            if f.get(key):
                n = len(f[key])
                bits.append(f"page{'s' if n > 1 else ''} {pages_text(f[key])} {word}")
        lines.append(f"{f['path']}: {'; '.join(bits)}")
    for ex in report["examples"]:
        lines.append(f"{ex['file']}: {ex['before']} -> {ex['after']}")
    return lines


def data_summary(report: dict[str, Any]) -> list[str]:
    """The lines of the rules and components that changed."""
    lines = []
    for key, (a, b) in report["rules"].items():
        lines.append(f"rules.{key}: {_value(a)} -> {_value(b)}")
    for comp in report["components"]:
        if comp["status"] != "changed":
            lines.append(f"{comp['id']}: {comp['status']}")
            continue
        parts = [f"{k} {_value(a)} -> {_value(b)}" for k, (a, b) in comp.get("values", {}).items()]
        parts += [f"{k} {_value(a)} -> {_value(b)}" for k, (a, b) in comp.get("fields", {}).items()]
        if not parts and comp.get("images"):
            parts.append("drawn differently")
        lines.append(f"{comp['id']}: {', '.join(parts)}")
    return lines
