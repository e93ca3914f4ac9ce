"""The bridge to the rules engines: a validated game becomes the engine's parameters.

`rules_engine` knows rules, not files: it is built from `rules_engine.params.GameData`
(rule parameters per version, players, rule options, the pieces' printed values).  This
module makes that from the game model printgen loaded and validated, and loads a game's
engine; arrows point from printgen to the engine, never back.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from printgen.memo import ByIdentity
from printgen.model import Game, Piece, Text
from rules_engine import params
from rules_engine.core import Bilingual, RuleOption
from rules_engine.registry import EngineEntry, engine_for


def _text(text: Text) -> Bilingual:
    return Bilingual(text.ja, text.en)


def _game_data(game: Game) -> params.GameData:
    """The engine's view of a game."""
    info = game.info
    options = tuple(
        RuleOption(
            spec.name,
            spec.default,
            tuple(spec.allowed),
            _text(spec.explain),
            {spec.value_of(key): _text(text) for key, text in spec.choices.items()},
        )
        for spec in info.options
    )
    decks = {
        deck_id: params.Deck(deck.id, _text(deck.name), dict(deck.values))
        for deck_id, deck in game.decks.items()
    }
    components: dict[tuple[str, str], params.Component] = {}

    def engine_pieces(pieces: list[Piece]) -> tuple[params.Piece, ...]:
        made = []
        for piece in pieces:
            comp = piece.component
            component = components.setdefault(
                (comp.id, repr(comp.values)),
                params.Component(comp.id, _text(comp.name), dict(comp.values)),
            )
            deck = decks[piece.deck.id] if piece.deck else None
            made.append(params.Piece(piece.id, piece.kind, piece.count, component, deck))
        return tuple(made)

    pieces = engine_pieces(game.pieces)
    now = game.current or game
    versions = now.info.rule_versions
    version_pieces = (
        {v.id: engine_pieces(now.at_version(v.id).pieces) for v in versions}
        if any(v.components for v in versions)  # else every version plays the same pieces
        else {}
    )
    version_ids = [v.id for v in info.rule_versions] or [info.rule_version]
    rules: dict[str, Mapping[str, Any]] = {v: game.rule_params(v) for v in version_ids}
    data = params.GameData(
        game.id,
        params.GameInfo(
            info.rule_version,
            tuple(params.Version(v.id) for v in info.rule_versions),
            params.Players(info.players.min, info.players.max),
            options,
        ),
        decks,
        pieces,
        rules,
        version_pieces,
    )
    return data


# The engine's view of a game, made once per loaded game (the last 64 kept).
game_data: ByIdentity[Game, params.GameData] = ByIdentity(_game_data, 64)


def engine_entry(game: Game) -> EngineEntry | None:
    """The engine that plays this game, or None when none does yet."""
    return engine_for(game.id)


def rule_options(game: Game) -> tuple[RuleOption, ...]:
    """The game's rule options as its engine plays them (a ValueError when the data and the
    engine disagree)."""
    entry = engine_for(game.id)
    return entry.options_for(game_data(game)) if entry else ()
