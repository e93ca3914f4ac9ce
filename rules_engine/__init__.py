"""Rules engines for the games in `components/`: one module per game behind one protocol
(`rules_engine.core`), worked-example checking (`rules_engine.examples`) and the registry of
engines by game id (`rules_engine.registry.engine_for`)."""
