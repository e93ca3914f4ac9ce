"""The engine's event log in words: each event told by the game's phrase templates.

An engine reports each rule it applies as an `Event` (rule id, what happened, facts). A
game's `narration:` (game.yaml) gives the players' names and one sentence template per
kind of event, in both languages; this module renders them (sandboxed, like every
template of a game folder) into a step's narration, and into the log lines `printgen
examples log` prints (`rule 2-3-1 (Torpedoes roll their dice): Red rolls 3, 3, 5 and 6.`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from printgen.errors import PrintgenError
from printgen.model import Game
from printgen.rulebook.worked import clause_title
from printgen.templating import render_field
from rules_engine.core import Event

LANGS = ("ja", "en")


def player_name(game: Game, word: str, lang: str) -> str:
    """A word an event carries, named in `lang`: `narration.names`, else the deck of that id,
    else a component of that id, else a `{ja, en}` mapping found under that key in the rule
    parameters or a component's values (`rules.colours.red`, a skill of the skill sheet),
    else the word itself."""
    named = game.info.narration.names.get(word)
    if named is not None:
        return named[lang]
    deck = game.decks.get(word)
    if deck is not None:
        return deck.name[lang]
    for piece in game.defined or game.pieces:
        if piece.component.id == word or piece.id == word:
            return piece.component.name[lang]
    found = _bilingual(word, lang, [game.info.rules] + [p.component.values for p in game.pieces])
    return found if found is not None else word


def _bilingual(word: str, lang: str, places: list[Any], depth: int = 0) -> str | None:
    """The `lang` text of a `{ja, en}` mapping stored under the key `word` (or a mapping
    with `id: word`), searched a few levels deep."""
    if depth > 4:
        return None
    for place in places:
        if isinstance(place, Mapping):
            value = place.get(word)
            if isinstance(value, Mapping):
                named = value if {"ja", "en"} <= value.keys() else value.get("name")
                text = named.get(lang) if isinstance(named, Mapping) else None
                if isinstance(text, str):
                    return text
            if place.get("id") == word and isinstance(place.get("name"), Mapping):
                text = place["name"].get(lang)
                if isinstance(text, str):
                    return text
            deeper = _bilingual(word, lang, list(place.values()), depth + 1)
            if deeper is not None:
                return deeper
        elif isinstance(place, list):
            deeper = _bilingual(word, lang, place, depth + 1)
            if deeper is not None:
                return deeper
    return None


def join_and(items: Iterable[Any], lang: str) -> str:
    """`3, 3 and 5` / `3、3、5`."""
    words = [str(x) for x in items]
    if lang == "ja":
        return "、".join(words)
    if len(words) <= 2:
        return " and ".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


def _context(game: Game, event: Event, lang: str) -> dict[str, Any]:
    def name(value: Any) -> str:
        if isinstance(value, list | tuple):
            return join_and((name(v) for v in value), lang)
        return player_name(game, str(value), lang)

    data: dict[str, Any] = {
        k: list(v) if isinstance(v, tuple) else v for k, v in event.data.items()
    }
    data.update(
        name=name,
        join_and=lambda items: join_and(items, lang),
        rule=event.rule,
        lang=lang,
    )
    return data


def missing_phrases(game: Game, events: Iterable[Event]) -> list[str]:
    """Kinds of event with no phrase under narration.events (in order, each once)."""
    phrases = game.info.narration.events
    return list(dict.fromkeys(e.what for e in events if e.what not in phrases))


def sentence(game: Game, event: Event, lang: str) -> str:
    """One event told in `lang` (its clause's title when the game has no phrase for it)."""
    phrase = game.info.narration.events.get(event.what)
    if phrase is None:
        clause = next((c for c in game.info.clauses if c.id == event.rule), None)
        title = clause_title(game, clause, lang) if clause else event.what
        return f"（{event.rule}：{title}）" if lang == "ja" else f"(Rule {event.rule}: {title}.)"
    where = game.where("narration", "events", event.what, lang)
    said = render_field(phrase[lang], _context(game, event, lang), where, f"phrase '{event.what}'")
    return said.strip()


def narrate(game: Game, events: Sequence[Event], lang: str) -> str:
    """A step's events told as one paragraph (a refused action is told by its rule)."""
    parts = [sentence(game, e, lang) for e in events if e.what != "exhausted"]
    return ("" if lang == "ja" else " ").join(p for p in parts if p)


def log_line(game: Game, event: Event) -> str:
    """`rule 2-3-1 (title): sentence`: one line of the event log."""
    clause = next((c for c in game.info.clauses if c.id == event.rule), None)
    head = f"rule {event.rule}" + (
        f" ({clause_title(game, clause, 'en')})" if clause else " (undeclared)"
    )
    if event.what == "refused":
        return f"{head}: refused: {event.data.get('action')}: {event.data.get('message')}"
    if event.what == "exhausted":
        return f"{head}: applied {event.data.get('times'):,} times over the enumeration"
    try:
        told = sentence(game, event, "en")
    except PrintgenError as exc:
        told = f"{event} [phrase error: {exc.message}]"
    return f"{head}: {told}"
