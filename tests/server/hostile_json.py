"""Hostile JSON for hypothesis, shared by the fuzz tests of every endpoint (test_server_hostile.py,
tests/learn/test_learn_fuzz.py): texts with lone surrogates and every category of character, integers
far past 64 bits, nesting thousands deep, NaN and infinities, numbers of 5,000 digits; `to_json`
writes a generated value as the JSON text a hostile client would send."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import strategies as st


class Raw(str):
    """A piece of JSON text put into a generated value as it is (deep nesting, odd numbers...)."""


def to_json(value: Any) -> str:
    """JSON text of a generated value: lone surrogates become \\udXXX escapes, NaN and infinities
    their non-JSON words, Raw pieces stay as written."""
    if isinstance(value, Raw):
        return str(value)
    if isinstance(value, dict):
        return "{" + ", ".join(f"{json.dumps(k)}: {to_json(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(to_json(v) for v in value) + "]"
    return json.dumps(value)


TEXTS = st.text(
    alphabet=st.one_of(st.characters(codec=None, exclude_categories=[]), st.characters(categories=["Cs"])),
    max_size=12,
)
HUGE_INTS = st.one_of(
    st.integers(-3, 20),
    st.sampled_from([2**31, 2**53 + 1, 2**63 - 1, 2**63, 2**64 - 1, 2**64, -(2**64), 10**30]),
    st.integers(min_value=-(10**40), max_value=10**40),
)
RAW = st.one_of(
    st.integers(1, 2500).map(lambda d: Raw("[" * d + "]" * d)),
    st.integers(1, 1200).map(lambda d: Raw('{"a": ' * d + "1" + "}" * d)),
    st.sampled_from(
        [
            Raw('"\\ud800"'),
            Raw('"x\\udfffy"'),
            Raw('"\\udc00\\ud800"'),
            Raw("1e400"),
            Raw("-1e400"),
            Raw("NaN"),
            Raw("Infinity"),
            Raw("1" + "0" * 5000),
            Raw("-0.0"),
            Raw("1.5e-400"),
        ]
    ),
)
SCALARS = st.one_of(st.none(), st.booleans(), HUGE_INTS, st.floats(), TEXTS, RAW)
JSON_VALUES = st.recursive(
    SCALARS,
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(TEXTS, inner, max_size=4)),
    max_leaves=10,
)
