"""The fuzz suite: every input boundary fed generated bad input, within a bounded budget.

Boundaries and what each must do with any input:
- the JSON APIs (``ginrummy.api``, ``ginview.api``): answer, never raise, with a coded error
  whose localized message is one short line, never ``internal_error``;
- card notation and moves: parse to a value that round-trips, or raise a coded error;
- share links: a state, or a coded error;
- page fences, lesson files and catalogs: build, or stop with one line naming the file (and
  the line where there is one);
- the browser: a crafted fragment or stored progress leaves the page working.

The budget: Hypothesis runs a fixed number of examples per test, derandomized, so a run is
repeatable and its length bounded (``FUZZ_EXAMPLES`` raises it for a longer hunt).
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "150"))

settings.register_profile(
    "fuzz",
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
        HealthCheck.filter_too_much,
    ],
)
FUZZ = settings.get_profile("fuzz")

# Values a careless or hostile writer might put anywhere: wrong types, huge numbers, long
# text, card-like text, names of real presets and kinds.
SPECIAL_TEXT = [
    "",
    " ",
    "AS 2S 3S",
    "10h, jc qc",
    "AS,2S",
    "ZZ",
    "A" * 3000,
    "standard",
    "oklahoma",
    "hollywood",
    "pagat",
    "melds",
    "knock",
    "score",
    "sheet",
    "A 25",
    "{card}",
    "<script>x</script>",
    "\x00",
    "🂡",
    "1e309",
    "-0",
    "NaN",
]
SPECIAL_NUMBERS = [0, -1, 1, 10, 11, 2**31, 2**63, 10**100, -(10**100), 200000]

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**30), max_value=10**30),
    st.sampled_from(SPECIAL_NUMBERS),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=30),
    st.sampled_from(SPECIAL_TEXT),
)
json_values = st.recursive(
    scalars,
    lambda children: st.one_of(
        st.lists(children, max_size=5), st.dictionaries(st.text(max_size=12), children, max_size=5)
    ),
    max_leaves=20,
)

PLACEHOLDER = re.compile(r"\{\w+(?::\w+)?\}")
RAW_KEY = re.compile(r"\b(?:error|step|ui|tutorial|rule|card|unit|player)\.[a-z_]+\b")


def check_message(message: str, limit: int = 600, quoted: list[str] = ()) -> None:
    """A localized error as a reader meets it: one short line, every placeholder filled, no
    raw catalog key. ``quoted``: the reader's own text the message may quote (cut short)."""
    assert isinstance(message, str) and message.strip(), repr(message)
    assert len(message) <= limit, (len(message), message[:200])
    assert "\n" not in message, message
    own = message
    for text in quoted:
        own = own.replace(text[:30], "")
    assert not PLACEHOLDER.search(own), message
    assert not RAW_KEY.search(own), message


def nested(depth: int, leaf="x") -> object:
    """A value nested ``depth`` levels deep, alternating lists and objects."""
    value: object = leaf
    for level in range(depth):
        value = [value] if level % 2 else {"a": value}
    return value
