"""The balance lab: play a game thousands of times with players that try to win, measure
what a designer asks (seat advantage, length, which cards decide games), test the
designer's claims and write a report.

- `run`: the sweep (settings, bots, seeded games on a process pool or a Dask cluster);
- `stats`: estimates with 95% intervals, per setting and between settings;
- `claims`: the `claims:` of a game's data, checked;
- `report`: `out/<game>/balance/report.html` and `.pdf` with plots.
"""
