"""The suite's own schedule: `make test` runs the tests on two processes with `--dist
loadgroup`, which keeps the tests of one `xdist_group` on one process (the five games' books
built once for all the rulebook-text checks, the README tour and the live preview never
side by side). pytest-xdist tells a test's group by a name it adds to the end of the test's
node id; a pytest that ignores that name (9.2 with pytest-xdist 3.8:
pytest-dev/pytest-xdist#1386) spreads every group over both processes without a word, so
constraints.txt pins a pytest that keeps it, and this test says when that no longer holds."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.xdist_group("suite")


def test_a_group_is_kept_together(request: pytest.FixtureRequest) -> None:
    if not getattr(request.config.option, "loadgroup", False):
        pytest.skip("runs under `make test` (pytest -n 2 --dist loadgroup)")
    assert request.node.nodeid.endswith("@suite"), (
        f"pytest-xdist's group is not in the node id ({request.node.nodeid}): the tests of a "
        "group are spread over the processes (see constraints.txt's pytest)"
    )
