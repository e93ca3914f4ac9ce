"""Every rule demonstrated: `printgen check --coverage`, the examples the engine drafts
(`printgen examples suggest`), the event log (`printgen examples log`), exact probabilities,
and the rulebook's links between rules and examples."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import yaml
from tests_support import run_printgen

from printgen.model import load_game

ROOT = Path(__file__).resolve().parent.parent
GAMES = ("subzero", "squares2", "submarine-attack", "susumuka-modoruka", "kill-shot")


def _copy(root: Path, *games: str) -> Path:
    for game in games:
        shutil.copytree(ROOT / "components" / game, root / "components" / game)
    shutil.copytree(ROOT / "layouts", root / "layouts")
    return root


def test_every_rule_of_every_game_is_shown_by_a_checked_example() -> None:
    done = run_printgen(ROOT, "check", "--coverage", "--strict", "--no-claims")
    assert done.returncode == 0, done.stderr
    for game in GAMES:
        clauses = load_game(ROOT / "components" / game).info.clauses
        assert clauses, game
        n = len(clauses)
        assert f"{game}: {n} of {n} rules shown by a worked example" in done.stdout
        for clause in clauses:  # each listed with the examples that show it
            line = next(x for x in done.stdout.splitlines() if x.startswith(f"  {clause.id} "))
            assert re.search(r": \d\d(, \d\d)*$", line), line
    assert re.search(r"^(\d+) of \1 rules shown by a worked example$", done.stdout, re.M)


def test_an_uncovered_rule_fails_strict_at_its_line(tmp_path: Path) -> None:
    root = _copy(tmp_path, "subzero")
    game_yaml = root / "components" / "subzero" / "game.yaml"
    text = game_yaml.read_text(encoding="utf-8")
    text = text.replace(
        "clauses:\n",
        "clauses:\n  - id: hop\n    title: {ja: 跳ぶ, en: A pawn may hop}\n    section: moving\n",
        1,
    )
    game_yaml.write_text(text, encoding="utf-8")
    line = text.splitlines().index("  - id: hop") + 1
    loose = run_printgen(root, "check", "subzero", "--coverage", "--no-claims")
    assert loose.returncode == 0, loose.stderr
    assert "  hop " in loose.stdout and "none: printgen examples suggest subzero --rule hop" in (
        loose.stdout
    )
    strict = run_printgen(root, "check", "subzero", "--coverage", "--strict", "--no-claims")
    assert strict.returncode == 1
    assert (
        f"error: components/subzero/game.yaml:{line}:5: rule hop (A pawn may hop) is shown by "
        "no worked example" in strict.stderr
    )


def test_a_rule_the_engine_applies_but_the_data_does_not_declare_is_an_error(
    tmp_path: Path,
) -> None:
    root = _copy(tmp_path, "subzero")
    game_yaml = root / "components" / "subzero" / "game.yaml"
    data = yaml.safe_load(game_yaml.read_text(encoding="utf-8"))
    dropped = data["clauses"][0]["id"]
    text = game_yaml.read_text(encoding="utf-8")
    text = re.sub(rf"\n  - id: {re.escape(dropped)}\n(    .*\n)+?(?=  - id:)", "\n", text, count=1)
    game_yaml.write_text(text, encoding="utf-8")
    done = run_printgen(root, "check", "subzero", "--coverage", "--no-claims")
    assert done.returncode == 1
    assert f"the rules engine applied rule '{dropped}'" in done.stderr
    assert "which clauses: does not declare" in done.stderr


def test_the_event_log_names_each_rule_in_words() -> None:
    done = run_printgen(ROOT, "examples", "log", "subzero", "01")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("ok   components/subzero/examples/01-")
    lines = [x.strip() for x in done.stdout.splitlines() if x.strip().startswith("rule ")]
    assert lines and all(re.match(r"rule [\w().-]+ \([^)]+\): \S", x) for x in lines)
    unknown = run_printgen(ROOT, "examples", "log", "subzero", "99")
    assert unknown.returncode == 1 and "subzero has no example '99'" in unknown.stderr


def test_suggest_writes_a_draft_that_holds_as_written(tmp_path: Path) -> None:
    root = _copy(tmp_path, "subzero")
    folder = root / "components" / "subzero" / "examples"
    before = sorted(p.name for p in folder.glob("*.yaml"))
    printed = run_printgen(root, "examples", "suggest", "subzero", "--rule", "roll-max", "--print")
    assert printed.returncode == 0, printed.stderr
    done = run_printgen(root, "examples", "suggest", "subzero", "--rule", "roll-max")
    assert done.returncode == 0, done.stderr
    [new] = sorted(set(p.name for p in folder.glob("*.yaml")) - set(before))
    assert new == f"{len(before) + 1:02d}-rule-roll-max.yaml"
    assert f"wrote components/subzero/examples/{new}: rule roll-max in " in done.stdout
    text = (folder / new).read_text(encoding="utf-8")
    assert text.strip() == printed.stdout.strip()  # the same search finds the same play
    data = yaml.safe_load(text)
    assert data["title"] == {"ja": "手に持てる雪玉は2個まで", "en": "At most two snowballs in hand"}
    for step in data["steps"]:
        assert step["say"]["ja"] and step["say"]["en"] and step["expect"]
        assert "Rule " not in step["say"]["en"]  # every event had a phrase
    check = run_printgen(root, "check", "subzero", "--no-claims")
    assert check.returncode == 0, check.stderr
    assert f"ok   components/subzero/examples/{new}" in check.stdout
    log = run_printgen(root, "examples", "log", "subzero", new)
    assert "rule roll-max (" in log.stdout
    # a second draft for the same rule gets the next number: nothing is overwritten
    again = run_printgen(root, "examples", "suggest", "subzero", "--rule", "roll-max")
    assert again.returncode == 0, again.stderr
    assert (folder / f"{len(before) + 2:02d}-rule-roll-max.yaml").exists()
    assert (folder / new).read_text(encoding="utf-8") == text


def test_suggest_refuses_an_unknown_rule_and_says_when_all_are_shown(tmp_path: Path) -> None:
    root = _copy(tmp_path, "subzero")
    before = sorted((root / "components" / "subzero" / "examples").iterdir())
    bad = run_printgen(root, "examples", "suggest", "subzero", "--rule", "roll-maxx")
    assert bad.returncode == 1
    assert "subzero has no rule 'roll-maxx'; did you mean 'roll-max'?" in bad.stderr
    none = run_printgen(root, "examples", "suggest", "subzero")
    assert none.returncode == 0
    assert "every rule is shown by a worked example" in none.stdout
    assert sorted((root / "components" / "subzero" / "examples").iterdir()) == before


def test_a_broken_phrase_is_an_error_at_its_line_when_the_game_loads(tmp_path: Path) -> None:
    root = _copy(tmp_path, "subzero")
    game_yaml = root / "components" / "subzero" / "game.yaml"
    lines = game_yaml.read_text(encoding="utf-8").splitlines()
    at = next(i for i, x in enumerate(lines) if x.strip().startswith("en: ") and "{{" in x)
    lines[at] = lines[at].replace("{{", "{{ name(", 1)
    game_yaml.write_text("\n".join(lines) + "\n", encoding="utf-8")
    done = run_printgen(root, "check", "subzero", "--no-claims")
    assert done.returncode == 1
    assert f"error: components/subzero/game.yaml:{at + 1}:" in done.stderr
    assert "template syntax error" in done.stderr


def test_bad_rule_ids_are_errors_at_their_line(tmp_path: Path) -> None:
    root = _copy(tmp_path, "submarine-attack")
    game_yaml = root / "components" / "submarine-attack" / "game.yaml"
    text = game_yaml.read_text(encoding="utf-8")
    lines = text.splitlines()
    first = lines.index('  - id: "2-1"') + 1
    second = lines.index('  - id: "2-2"') + 1
    game_yaml.write_text(text.replace('  - id: "2-1"', '  - id: "2 1"'), encoding="utf-8")
    done = run_printgen(root, "check", "submarine-attack", "--no-claims")
    assert done.returncode == 1
    assert f"game.yaml:{first}:9: id must be the rulebook's numbering" in done.stderr
    game_yaml.write_text(text.replace('  - id: "2-1"', '  - id: "2-2"'), encoding="utf-8")
    done = run_printgen(root, "check", "submarine-attack", "--no-claims")
    assert done.returncode == 1
    assert f"game.yaml:{second}:9: rule 2-2 is listed twice under clauses" in done.stderr
    assert "Traceback" not in done.stderr
