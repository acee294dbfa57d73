"""Cards and hands: a Hand keeps its mask, and public functions take Hands and Cards as they are."""

from __future__ import annotations

import copy
import pickle
from itertools import pairwise

import pytest
from ginrummy import DECK, Card, CardError, Hand, RuleError, cards_from_mask, parse_cards


def bits(cards) -> int:
    return sum(1 << card.index for card in cards)


def test_a_hand_keeps_its_mask_however_it_is_made():
    text = "AS 2S TH KC 7D"
    made = [
        parse_cards(text),
        Hand(text),
        Hand(list(parse_cards(text))),
        Hand(text.split()),
        Hand([Card.parse("AS"), "2s", "10h", "K♣", "7D"]),
        parse_cards(text).sorted(),
        cards_from_mask(parse_cards(text).mask),
        parse_cards("AS 2S TH") + ["KC", "7D"],
    ]
    for hand in made:
        assert type(hand) is Hand and hand.mask == bits(hand) == bits(parse_cards(text))
    assert Hand().mask == 0 and Hand() == ()


def test_a_hand_is_passed_through_not_parsed_again():
    hand = parse_cards("AS 2S TH")
    assert parse_cards(hand) is hand and Hand(hand) is hand
    assert parse_cards(hand, count=3) is hand and parse_cards(hand, count=(2, 3)) is hand
    with pytest.raises(CardError) as info:
        parse_cards(hand, count=(10, 11))
    assert info.value.code == "wrong_count" and info.value.params["got"] == 3
    card = Card.parse("7H")
    assert Card.parse(card) is card and Card.parse("7h") is card


def test_a_hand_is_immutable_and_copies_keep_the_mask():
    hand = parse_cards("AS 2S TH")
    with pytest.raises(AttributeError):
        hand.mask = 0
    with pytest.raises(AttributeError):
        del hand.mask
    for again in (
        pickle.loads(pickle.dumps(hand)),
        copy.copy(hand),
        copy.deepcopy(hand),
        eval(repr(hand)),
    ):
        assert again == hand and type(again) is Hand and again.mask == hand.mask


def test_bad_cards_are_coded():
    for items, code, token, position, message in [
        (["AS", 7], "bad_card", "7", 1, "7 is not a card"),
        (["AS", "AS"], "duplicate_card", "AS", 1, "AS appears twice"),
        (["AS", "1S"], "unknown_rank", "1S", 1, "unknown rank '1' in card '1S'"),
        ("AS 2X", "unknown_suit", "2X", 1, "unknown suit 'X' in card '2X'"),
        ("AS 11S", "unknown_rank", "11S", 1, "unknown rank '11' in card '11S'"),
        (["AS", "7"], "bad_card", "7", 1, "'7' is not a card: write rank then suit, like 7H"),
        (7, "bad_card", "7", None, "7 is not a list of cards"),
        ({"AS": 1}, "bad_card", "{'AS': 1}", None, "{'AS': 1} is not a list of cards"),
    ]:
        with pytest.raises(CardError) as info:
            parse_cards(items)
        assert (info.value.code, str(info.value)) == (code, message)
        assert info.value.params == {"token": token, "position": position}
    with pytest.raises(CardError) as info:
        Card.parse(7, 3)
    assert (info.value.code, str(info.value)) == ("bad_card", "7 is not a card")
    assert info.value.params == {"token": "7", "position": 3}


def test_every_card_parses_in_every_notation():
    for card in DECK:
        rank = str(card)[0]
        for text in (
            str(card),
            str(card).lower(),
            f" {card} ",
            ("10" if rank == "T" else rank) + "♠♥♦♣"["SHDC".index(card.suit)],
        ):
            assert Card.parse(text) is card


def test_cards_order_by_rank_then_suit_and_strictly():
    ordered = sorted(DECK)
    assert " ".join(map(str, ordered[:5])) == "AS AH AD AC 2S"
    assert all(a < b and not b < a for a, b in pairwise(ordered))
    assert not any(card < card for card in DECK)


def test_only_the_letters_of_the_notation_are_ranks_and_suits():
    """A letter that merely upper-cases to a rank or suit (the long s, the dotless i, the
    Kelvin sign) is not one: ``7ſ`` is no seven of spades."""
    for token in ("7ſ", "ıS", "7\u212a", "ＡS", "7Ｓ", "１0S"):
        with pytest.raises(CardError) as info:
            Card.parse(token)
        assert info.value.code in ("unknown_rank", "unknown_suit"), token
    assert Card.parse("a♤") is Card.parse("AS") and Card.parse("10d") is Card.parse("TD")


@pytest.mark.parametrize("index", [-1, 52, 2**64, 1.0, True, "3", None])
def test_a_card_index_is_0_to_51(index):
    with pytest.raises(CardError) as info:
        Card.from_index(index)
    assert info.value.code == "bad_card"
    assert [Card.from_index(i) for i in range(52)] == list(DECK)


@pytest.mark.parametrize("mask", [-1, 1 << 52, 2**200, 3.0, False, "7", [1]])
def test_a_mask_of_cards_has_52_bits(mask):
    with pytest.raises(CardError) as info:
        cards_from_mask(mask)
    assert info.value.code == "bad_card"
    assert str(cards_from_mask((1 << 52) - 1)) == " ".join(map(str, DECK))


def test_the_number_of_cards_asked_for_is_a_number():
    for count in (1.5, "10", [10, "x"], True, object()):
        with pytest.raises(RuleError) as info:
            parse_cards("AS", count=count)
        assert (info.value.code, info.value.params["setting"]) == ("bad_setting", "count")
    assert parse_cards("AS", count=range(1, 3)) == parse_cards("AS")


def test_cards_nested_without_end_are_refused_at_once():
    deep: list = []
    for _ in range(100_000):
        deep = [deep]
    with pytest.raises(CardError) as info:
        parse_cards(deep)
    assert info.value.code == "bad_card" and len(str(info.value)) < 100
    with pytest.raises(CardError):
        parse_cards(["AS", deep])
