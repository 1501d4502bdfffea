"""Entry codes (录分码): the alphabet, the printed form, what typing back accepts and refuses, fresh codes."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from shuangsheng.table.codes import ALPHABET, BITS, codes_for_tables, encode, format_code, new_code, parse_code

codes = st.text(alphabet=ALPHABET, min_size=8, max_size=8)


def test_alphabet_has_32_distinct_characters_without_0_o_1_i():
    assert len(ALPHABET) == len(set(ALPHABET)) == 32  # 5 bits a character
    assert not set("0O1I") & set(ALPHABET)
    assert ALPHABET.upper() == ALPHABET


def test_a_code_is_40_bits_in_8_characters():
    assert BITS == 40
    assert encode(0) == "22222222"
    assert encode(2**40 - 1) == "ZZZZZZZZ"
    with pytest.raises(ValueError):
        encode(2**40)


def test_new_code_uses_the_bits_given():
    assert new_code(lambda bits: 0) == "22222222"
    code = new_code()
    assert len(code) == 8 and set(code) <= set(ALPHABET)


def test_printed_as_two_halves_with_a_hyphen():
    assert format_code("ABCD2345") == "ABCD-2345"


@given(codes)
def test_format_and_parse_round_trip(code):
    assert parse_code(format_code(code)) == code
    assert parse_code(code) == code
    assert parse_code(f"  {format_code(code).lower()} \t") == code


@pytest.mark.parametrize(
    "typed",
    [
        "ABCD-2345",
        "abcd2345",
        "AbCd-2345",
        " ABCD-2345 ",
        "\u3000ABCD2345\u3000",  # ideographic spaces around it
        "ＡＢＣＤ－２３４５",  # full-width letters, digits and hyphen from a Chinese keyboard
        "ａｂｃｄ２３４５",
    ],
)
def test_parse_accepts_the_ways_a_code_is_typed(typed):
    assert parse_code(typed) == "ABCD2345"


@pytest.mark.parametrize(
    "typed",
    [
        "",
        "ABCD-234",  # too short
        "ABCD-23456",  # too long
        "ABC-D2345",  # hyphen in the wrong place
        "ABCD--2345",
        "AB CD2345",  # a space inside
        "ABCD_2345",
        "ABCD—2345",  # an em dash is not the hyphen
        "ABC0-2345",  # 0 is not in the alphabet (nor O, 1, I)
        "ABCO-2345",
        "ABC1-2345",
        "ABCI-2345",
        "录分码ABCD2345",
        None,
        12345678,
        "A" * 1000,
    ],
)
def test_parse_refuses_everything_else(typed):
    assert parse_code(typed) is None


def test_codes_for_tables_repeat_nothing_and_avoid_codes_given_before():
    # A source that repeats itself: 0, 0, 1, 1, 2, 2, … — every second draw is a repeat.
    counter = itertools.count()
    made = codes_for_tables(5, taken={encode(0), encode(3)}, randbits=lambda bits: next(counter) // 2)
    assert made == tuple(encode(n) for n in (1, 2, 4, 5, 6))


def test_codes_for_tables_from_secrets():
    made = codes_for_tables(64)
    assert len(set(made)) == 64
    assert all(parse_code(format_code(code)) == code for code in made)
    assert codes_for_tables(0) == ()
