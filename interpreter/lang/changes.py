"""Constructs of the rules language that changed, and the hint naming each one's new form: content
written before a change fails with a message that says how to write it now. The list for designers
is docs/language-changes.md (tests/test_validate_types.py checks that each entry is there)."""
from __future__ import annotations

# `count(xs)` counted the items of a list; it counts true values now, and `length` counts items
COUNT_OF_ITEMS = ("`count` counts true values: write `length(...)` to count items, or "
                  "`count(CONDITION for x in ...)` (`count(list)` is now `length(list)`)")

# `range(n)` gave 0..n-1; `range(first, last)` now gives both ends
RANGE_OF_ONE = "`range(first, last)` includes both ends: `range(3)` is now `range(1, 3)` or `range(0, 2)`"

# a built-in function, called with an old number of arguments -> the hint naming its new form
ARITY_CHANGES = {("range", 1): RANGE_OF_ONE}

__all__ = ["ARITY_CHANGES", "COUNT_OF_ITEMS", "RANGE_OF_ONE"]
