"""Rules engines for the games in `components/`: they know rules, not paper and not files.

- `core`: the protocol every engine implements (Engine, State, chance as a player,
  joint actions for simultaneous steps, notation, views) and the drivers that work on
  any engine (replay, random play, parsing and formatting steps).
- `lazy_sequences`: legal-action lists too long to make (arrangements of a hand, their
  products), with a length, random access and membership; `core` re-exports them.
- `params`: what an engine is built from (`GameData`: rule parameters per version,
  players, rule options, the pieces' printed values); printgen makes it from the YAML.
- `examples`: replaying an in-memory worked example and reporting the first step and
  key that differ (printgen reads the files and places the report in them).
- `registry`: which engine plays which game (`engine_for("submarine-attack")`).
- `native`: the kernels of the search players' playouts compiled (mypyc) when the project is
  set up, loaded in place of their Python modules while they match their sources.
- One package per game, each with a map of its rooms in its `__init__`:
  `submarine_attack`, `squares2`, `subzero`, `susumuka_modoruka`, `kill_shot`.

Only the standard library is imported here, and nothing from printgen (a test checks).
"""

from rules_engine import native

native.install()
