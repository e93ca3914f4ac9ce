"""printgen: printable components and bilingual rulebooks from one YAML description.

Data flows one way: `components/<game>/*.yaml` -> `model` (validated, every value with
its file:line) -> cards and sheets, rulebooks, and the rules engine's parameters.

- Reading: `source` (YAML with places, plain core schema, bounded), `model` (the game),
  `layouts` (layouts, presets, fonts, icons), `files` (files only from inside the
  project, images checked), `units`, `errors`.
- Faces: `templating` (the one sandbox every template renders in), `render` (a layout
  and a piece's data to drawing operations), `textlayout` (fitting text, kinsoku, type
  size floors), `jatext` (Japanese for print: folded-line spaces removed, phrases),
  `geometry` (what can be printed), `ops`, `fonts`.
- Output: `pdfdraw` and `raster` (the two renderers), `imposition` and `sheets`
  (pieces on pages, crop marks, duplex backs), `exports` (card pages, PNGs), `build`
  (orchestration: each output rebuilt only when what it reads changed, the failing-example
  fork, atomic output), `changes` (what changed since the last build, from the two
  manifests), `rulebook/` (the rulebook renderer, a package).
- The designer's loop: `watch` (rebuild on save, components first), `preview` (a local
  web page of the build that reloads itself).
- The engines: `engines` (the model as `rules_engine.params.GameData`), `examples`
  (worked-example files, checked by the engine).
- `cli`: the `printgen` command.
"""
