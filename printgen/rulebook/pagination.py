"""Page references laid out once: WeasyPrint (70) resolves `target-counter(attr(href), page)`
by laying out every page that holds one three times, and the rulebook's cross-references
("(p. 17)", the contents' page numbers) are on most of its pages: that was half its time.

Why three times: WeasyPrint files each reference under the anchor name `None` (it names the
anchor from the `attr()` token before reading the attribute), so an anchor's page never
reaches the references to it; instead each reference is also listed as showing the page
counter of its own page (the list of the target's counters is bound to that name too), so
every page with a reference is laid out again whenever its own counters change: once after
the first pass (when backward references could have been right at once), and once more
after the second, because the total page count became known (which no reference shows).

`resolve_page_references` mends that for content made only of strings, leaders and target
counters (which is all the rulebook's CSS uses; anything else is left to WeasyPrint as it is):
- each reference is filed under the anchor it names, and shows no counter of its own page;
- a reference whose target was laid out before it is filled in before its page is laid
  out (WeasyPrint would lay the page out with a blank number, then again);
- a reference to a later page is laid out again once its target's page is known, as
  WeasyPrint intends, and only when a counter it shows changed.
The pages come out as WeasyPrint's last pass lays them out, from fewer passes: the same
bytes, but for one thing WeasyPrint got wrong: a target that moved to another page in its
last pass kept its old number in the references to it (they were never told); now they
follow it (the Japanese Susumuka & Modoruka book said 15 for a section on page 14).

Page numbers from the last build (as LaTeX keeps them in its .aux file): a reference to a
later page is laid out first showing 0, then again once its target is placed; the contents
page and every page that points forward were laid out twice, a fifth of all pages.
`expect_pages` gives this process's next document the page counters each anchor had when
the same book was laid out last (printgen keeps them in its cache folder, rulebook/pdf.py):
references show them from the first layout, and a page is laid out again only where a
target landed elsewhere. They are a guess and nothing more: a page is laid out until every
reference shows its target's page, from a right guess, a wrong one or none, and the bytes
are the same (tested with guesses off by one, random and absurd); `laid_out_pages` gives
what the document's anchors ended with, for the next build.
"""

from __future__ import annotations

import copy
from typing import Any

WEASYPRINT_MAJOR = "70"  # the version whose internals this mends (constraints.txt)
TARGET_COUNTERS = ("target-counter()", "target-counters()")
PAGE_FREE = ("string", "leader()")  # content tokens that show no counter
ANCHORS_LIMIT = 100_000  # anchors whose page counters are kept for a book

PageCounters = dict[str, list[int]]
_expected: list[dict[str, PageCounters]] = [{}]  # for the next document laid out here
_collector: list[Any] = [None]  # the target collector of the document laid out last


def resolve_page_references() -> None:
    """Install the mended reference handling in this process's WeasyPrint (once). It mends
    the internals of the WeasyPrint that constraints.txt pins (70): another major version is
    left as it is (slower, and its own page numbers)."""
    import weasyprint
    from weasyprint.css import targets
    from weasyprint.layout import page

    if weasyprint.__version__.split(".")[0] != WEASYPRINT_MAJOR:
        return
    collector = targets.TargetCollector
    if getattr(collector, "printgen_references", False):
        return
    check_pending = collector.check_pending_targets
    make_page = page.make_page

    def check_pending_targets(self: Any) -> None:
        check_pending(self)
        for (box, css_token), lookup in self.counter_lookup_items.items():
            if css_token == "content":
                _file_by_anchor(box, lookup)
        expected, _expected[0] = _expected[0], {}
        _expect(self, expected)

    def make_page_filled(context: Any, *args: Any, **kwargs: Any) -> Any:
        _collector[0] = context.target_collector
        _fill_backward_references(context.target_collector)
        return make_page(context, *args, **kwargs)

    collector.check_pending_targets = check_pending_targets
    collector.cache_target_page_counters = _cache_target_page_counters
    collector.printgen_references = True
    page.make_page = make_page_filled


def expect_pages(expected: dict[str, PageCounters]) -> None:
    """The page counters (`laid_out_pages` of the same book laid out before) that the next
    document laid out in this process starts its references with: a guess that saves a
    second layout of the pages that point forward when it is right; when it is wrong, the
    pages showing a wrong number are laid out again, as with no guess."""
    _expected[0] = expected


def laid_out_pages() -> dict[str, PageCounters]:
    """The page counters each anchor of the document laid out last ended with."""
    collector, _collector[0] = _collector[0], None
    if collector is None:
        return {}
    return {
        name: {k: list(v) for k, v in item.cached_page_counter_values.items()}
        for name, item in collector.target_lookup_items.items()
        if item.state == "up-to-date" and item.cached_page_counter_values
    }


def valid_pages(data: object) -> dict[str, PageCounters]:
    """`data` (read back from JSON) as anchors' page counters, or {} if it is not that."""
    if not isinstance(data, dict) or len(data) > ANCHORS_LIMIT:
        return {}
    for name, counters in data.items():
        if not (isinstance(name, str) and isinstance(counters, dict)):
            return {}
        for counter, values in counters.items():
            if not (isinstance(counter, str) and isinstance(values, list)):
                return {}
            if not all(type(v) is int for v in values):
                return {}
    return data


def _expect(collector: Any, expected: dict[str, PageCounters]) -> None:
    """Give the anchors their expected page counters before the first page is laid out;
    the references to them are filled in before their page is (_fill_backward_references)."""
    if not expected:
        return
    named: dict[str, list[Any]] = {}
    for (_box, css_token), lookup in collector.counter_lookup_items.items():
        if css_token == "content":
            for name in lookup.missing_target_counters:
                named.setdefault(name, []).append(lookup)
    for name, counters in expected.items():
        item = collector.target_lookup_items.get(name)
        if item is None or item.state != "up-to-date" or name not in named:
            continue
        item.cached_page_counter_values = copy.deepcopy(counters)
        for lookup in named[name]:
            lookup.pending = True


def _anchor_names(box: Any) -> list[str] | None:
    """The anchors a box's content refers to, or None if the content shows anything but
    strings, leaders and target counters (or an anchor it cannot name)."""
    from weasyprint.css.targets import anchor_name_from_token
    from weasyprint.urls import get_url_tuple

    content = box.style["content"]
    if not isinstance(content, (list, tuple)) or box.element is None:
        return None
    names = []
    for kind, value in content:
        if kind in PAGE_FREE:
            continue
        if kind not in TARGET_COUNTERS:
            return None
        token = value[0]
        if token[0] == "attr()":  # as TargetCollector.lookup_target reads it
            attr_name, attr_type, fallback = token[1]
            attr_value = box.element.get(attr_name, fallback)
            if attr_type == "string":
                token = ("string", attr_value)
            elif attr_type == "url":
                token = ("url", get_url_tuple(attr_value, box.style.base_url))
            else:
                return None
        name = anchor_name_from_token(token)
        if not isinstance(name, str):
            return None
        names.append(name)
    return names


def _file_by_anchor(box: Any, lookup: Any) -> None:
    names = _anchor_names(box)
    if not names:
        return
    shown = sorted({c for counters in lookup.missing_target_counters.values() for c in counters})
    lookup.missing_target_counters = {name: list(shown) for name in names}
    lookup.missing_counters = []


def _fill_backward_references(collector: Any) -> None:
    """Before a page is laid out: references not laid out yet whose targets are (on earlier
    pages) get their numbers now, so their page is laid out right the first time."""
    for lookup in collector.counter_lookup_items.values():
        if lookup.pending and lookup.page_maker_index is None and not lookup.missing_counters:
            lookup.parse_again(None)
            lookup.pending = False


def _cache_target_page_counters(
    self: Any,
    anchor_name: str,
    page_counter_values: dict[str, list[int]],
    page_maker_index: int,
    page_maker: list[Any],
) -> None:
    """WeasyPrint's TargetCollector.cache_target_page_counters, telling only the references
    that show a counter whose value changed (its own note: 'Is the item at all interested
    in the new page_counter_values?')."""
    if self.collecting:
        return
    item = self.target_lookup_items.get(anchor_name)
    if not (item and item.state == "up-to-date"):
        return
    item.page_maker_index = page_maker_index
    old = item.cached_page_counter_values
    if old == page_counter_values:
        return
    changed = {
        k
        for k in old.keys() | page_counter_values.keys()
        if old.get(k) != page_counter_values.get(k)
    }
    item.cached_page_counter_values = copy.deepcopy(page_counter_values)
    for (_box, css_token), lookup in self.counter_lookup_items.items():
        if css_token != "content":
            continue
        missing = lookup.missing_target_counters.get(anchor_name)
        if missing is None or changed.isdisjoint(missing):
            continue
        if lookup.page_maker_index is None or lookup.page_maker_index >= len(page_maker):
            lookup.pending = True  # for make_page, or for _fill_backward_references
            continue
        for counter_name in missing:
            if page_counter_values.get(counter_name) is not None:
                page_maker[lookup.page_maker_index][-1]["content_changed"] = True
                lookup.parse_again(item.cached_page_counter_values)
                break
