"""Lazy sequences of actions: legal-action lists too long to make (Submarine Attack's 161
million placements) that still have a length, random access and membership, so a search
player can pick one by index.  `rules_engine.core` re-exports them with the protocol.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any, ClassVar, TypeVar, overload

A = TypeVar("A")
T = TypeVar("T")


class LazySequence(Sequence[T]):
    """A sequence that computes its items on demand: a subclass sets `_len` and gives
    `_item(index)` for `0 <= index < _len`; slices, negative indexes, the bounds check and
    iteration come from here."""

    _len: int

    def _item(self, index: int) -> T:
        raise NotImplementedError

    def __len__(self) -> int:
        return self._len

    @overload
    def __getitem__(self, index: int) -> T: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[T]: ...
    def __getitem__(self, index: int | slice) -> T | Sequence[T]:
        if isinstance(index, slice):
            return [self._item(i) for i in range(*index.indices(self._len))]
        if index < 0:
            index += self._len
        if not 0 <= index < self._len:
            raise IndexError(index)
        return self._item(index)

    def __iter__(self) -> Iterator[T]:
        for i in range(self._len):
            yield self._item(i)


class Arrangements(LazySequence[tuple[Any, ...]]):
    """Every distinct ordered choice of `k` items from a multiset, in sorted order, lazily.

    Placing 8 of 10 action cards face down in order has about 10^5 distinct outcomes when
    cards repeat; this sequence has their number, membership and random access without
    listing them.

    A search player builds one per hand and decision and picks one item, so both must be
    cheap: how many arrangements a multiset has depends only on its counts (not on what
    the items are), and the counts a hand passes through repeat across hands and games, so
    the counts and the branching of the unranking are kept once for the whole process
    (`_ArrangementTable`), and a small multiset's arrangements are listed once outright.
    """

    def __init__(self, items: Sequence[Any], k: int) -> None:
        kinds = sorted(set(items))
        self._kinds = tuple(kinds)
        self._counts = counts = tuple([list(items).count(x) for x in kinds])
        self._k = k
        self._table = table = _ArrangementTable.listing(counts, k)
        self._len = table.length

    def _item(self, index: int) -> tuple[Any, ...]:
        kinds = self._kinds
        return tuple([kinds[i] for i in self._table.unrank(index)])

    def __getitem__(self, index: int | slice) -> Any:
        # The bounds check of `LazySequence.__getitem__`, inlined: `rng.choice` calls this.
        if index.__class__ is int and 0 <= index < self._len:
            kinds = self._kinds
            return tuple([kinds[i] for i in self._table.unrank(index)])
        return super().__getitem__(index)

    def __iter__(self) -> Iterator[tuple[Any, ...]]:
        kinds = self._kinds
        unrank = self._table.unrank
        for index in range(self._len):
            yield tuple([kinds[i] for i in unrank(index)])

    def __contains__(self, value: object) -> bool:
        if not isinstance(value, tuple) or len(value) != self._k:
            return False
        for kind, count in zip(self._kinds, self._counts, strict=True):
            if value.count(kind) > count:
                return False
        return all(v in self._kinds for v in value)


class _ArrangementTable:
    """The arrangements of `k` items from a multiset with the given counts per kind, as
    kind indexes: their number, and the index -> arrangement map (unranking) in sorted
    order.  One table per (counts, k) for the whole process (`of`), shared by every
    `Arrangements` with those counts: the counts of the hands a game deals repeat."""

    __slots__ = ("_branches", "_listed", "length")

    _tables: ClassVar[dict[tuple[tuple[int, ...], int], _ArrangementTable]] = {}
    _LIST_UP_TO: ClassVar = 720
    """A hand's table with at most this many arrangements lists them all once (a hand of a
    few cards); larger ones (10^5 placements) unrank on demand, level by level..."""
    _LIST_SMALL: ClassVar = 24
    """... down to a table of at most this many, which every table lists (the last few
    levels of a walk; small enough that all of them together stay small)."""

    def __init__(self, counts: tuple[int, ...], k: int) -> None:
        # Per level: the kinds that can come next, each with the number of arrangements
        # that start with it and the counts left after it.
        self._branches: tuple[tuple[int, int, _ArrangementTable], ...] = ()
        self._listed: tuple[tuple[int, ...], ...] | None = None
        if k == 0:
            self.length = 1
            self._listed = ((),)
            return
        branches = []
        total = 0
        for i, c in enumerate(counts):
            if c:
                rest = _ArrangementTable.of((*counts[:i], c - 1, *counts[i + 1 :]), k - 1)
                branches.append((i, rest.length, rest))
                total += rest.length
        self._branches = tuple(branches)
        self.length = total
        if total <= self._LIST_SMALL:  # the last levels of a walk: listed, from the next
            self._listed = tuple([(i, *a) for i, _, rest in branches for a in rest._listed or ()])

    @classmethod
    def of(cls, counts: tuple[int, ...], k: int) -> _ArrangementTable:
        key = (counts, k)
        table = cls._tables.get(key)
        if table is None:
            table = cls._tables[key] = cls(counts, k)
        return table

    @classmethod
    def listing(cls, counts: tuple[int, ...], k: int) -> _ArrangementTable:
        """`of`, with a small table's arrangements listed (a whole hand's, not the tables
        of the counts it passes through: those would hold far more together)."""
        table = cls.of(counts, k)
        if table._listed is None and table.length <= cls._LIST_UP_TO:
            table._listed = tuple([table._walk(j) for j in range(table.length)])
        return table

    def unrank(self, index: int) -> tuple[int, ...]:
        """The arrangement at `index` (0 <= index < length), as kind indexes."""
        listed = self._listed
        if listed is not None:
            return listed[index]
        return self._walk(index)

    def _walk(self, index: int) -> tuple[int, ...]:
        out: list[int] = []
        table = self
        while table._branches:
            for i, n, rest in table._branches:
                if index < n:
                    out.append(i)
                    table = rest
                    break
                index -= n
            if table._listed is not None:
                return (*out, *table._listed[index])
        return tuple(out)


class Product(LazySequence[tuple[Any, ...]]):
    """The cartesian product of sequences, lazily (`itertools.product` with `len` and `[]`)."""

    def __init__(self, *parts: Sequence[Any]) -> None:
        self._parts = parts
        n = 1
        for p in parts:
            n *= len(p)
        self._len = n

    def _item(self, index: int) -> tuple[Any, ...]:
        out: list[Any] = []
        for part in reversed(self._parts):
            index, rest = divmod(index, len(part))
            out.append(part[rest])
        return tuple(reversed(out))

    def __contains__(self, value: object) -> bool:
        return (
            isinstance(value, tuple)
            and len(value) == len(self._parts)
            and all(v in p for v, p in zip(value, self._parts, strict=True))
        )

    def __iter__(self) -> Iterator[tuple[Any, ...]]:
        import itertools

        return itertools.product(*self._parts)


class Mapped(Sequence[A]):
    """A lazy sequence with a function applied to every item (and its inverse for `in`)."""

    def __init__(self, base: Sequence[Any], to: Any, back: Any) -> None:
        self._base = base
        self._to = to
        self._back = back

    def __len__(self) -> int:
        return len(self._base)

    @overload
    def __getitem__(self, index: int) -> A: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[A]: ...
    def __getitem__(self, index: int | slice) -> A | Sequence[A]:
        if isinstance(index, slice):
            return [self._to(x) for x in self._base[index]]
        result: A = self._to(self._base[index])
        return result

    def __contains__(self, value: object) -> bool:
        inner = self._back(value)
        return inner is not None and inner in self._base

    def __iter__(self) -> Iterator[A]:
        to = self._to
        for x in self._base:
            yield to(x)
