"""Values worked out once per object of this process (a game, a face), found again by the
object itself: by its identity, with the object kept beside its value so that its id is not
reused by another while the value is kept."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from typing import Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")


class ByIdentity(Generic[K, V]):
    """`make(obj)` once per object, the `limit` objects used last kept."""

    def __init__(self, make: Callable[[K], V], limit: int) -> None:
        self.make, self.limit = make, limit
        self._kept: OrderedDict[int, tuple[K, V]] = OrderedDict()

    def __call__(self, obj: K) -> V:
        found = self._kept.get(id(obj))
        if found is not None and found[0] is obj:
            self._kept.move_to_end(id(obj))
            return found[1]
        value = self.make(obj)
        self._kept[id(obj)] = (obj, value)
        if len(self._kept) > self.limit:
            self._kept.popitem(last=False)
        return value
