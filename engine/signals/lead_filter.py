"""A fast necessary test for the posterior's sampler: can a hand lead a given signal?

:func:`lead_filter` builds, for one signal and convention card, a function of a 52-bit hand
mask that answers 0 only when the encoder cannot list the signal among the hand's correct
plays (``signal not in encode(hand).plays``), using nothing but bit arithmetic and look-up
tables. Otherwise it answers the hand's *key*: the cards of the hand the encoding depends on
(the cards of every holding of the hand's first checklist item), so that the encoder's
answer for the key is its answer for the hand, and hands with the same key are encoded once.
The posterior encodes only the keys of the hands it lets through: for a rare signal a small
share of the hands drawn, and fewer keys than hands. It is a *filter*, never a judge: a hand
it lets through is still weighed by the encoder, so the posterior's answer is the same with or
without it, as long as it never rejects a hand that leads the signal and keys keep what the
encoder reads.

Why a rejection is safe, following :func:`~engine.signals.encoder.encode`:

- the encoder shows the hand's *first* checklist item (``find_instances`` with the card's
  checklist), and a play of that item is kept only when one of the item's rows has a pattern
  the play matches (or, for an item the card gives no row, the play is two of its cards):
  a signalled item none of whose rows' patterns the signal matches cannot produce it. The
  first item is found here from the same bit facts the checklist's finders test (a five-rank
  window holding 5, exactly 4 or exactly 3 ranks of one suit or of any suit; a suit of 5 or
  more, exactly 4 or exactly 3 cards; a rank held four, three or two times);
- every rule plays cards of one holding (instance) of that item: for a straight-flush item
  both signal cards lie in the signal's suit inside a five-rank window holding exactly that
  many cards of it (five for ``five_sf``), for a straight item inside a window holding that
  many ranks, for a flush item in a suit of that length, for a rank item (fours, threes,
  pairs) their ranks are held four, three or two times; and for a straight-flush, straight or
  flush item, the encoder's own plays of that holding (the holding the checklist finds in
  the window's, ranks' or suit's cards alone, memoised) include the signal.

Why the key is enough: the encoding is made from the first item's holdings, and those are
built from the cards the key keeps (the windows holding exactly that many cards of a suit or
ranks, the suits of that length, every card of the ranks held that often). The key holds no
earlier item either: each checklist lists an "exactly k" item after its larger ones (three to
a straight flush after four and five, …), so a subset of a hand without them has none.
Under the ``preferred`` model a straight-flush item's key is smaller still (one holding per
suit, see ``_sf_key``): its encoding has the hand's preferred play, item and shape, which is
all that model reads.

Items this module does not know make :func:`lead_filter` answer ``None`` (no filter): the
sampler then encodes every hand, as it did before. ``tests/engine/signals/test_lead_filter.py``
checks on many random hands that no hand leading a signal is rejected and that the key weighs
as the hand does under both models.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.cards import Card
from engine.hand import Hand
from engine.signals.checklist import find_instances
from engine.signals.conventions import Convention
from engine.signals.encoder import encode, instance_plays, pattern_matches

__all__ = ["LeadKey", "first_item", "lead_filter"]

#: A filter: the hand's 52-bit mask to 0 when it cannot lead the signal, else to its key.
LeadKey = Callable[[int], int]

_SUIT = 0x1FFF

# Per 13-bit mask (one suit, or the ranks held in any suit): bit 0 a five-rank window with
# 5 ranks, bit 1 one with exactly 4, bit 2 one with exactly 3 (Ace high and low, windows
# A-5 to 10-A as in ``checklist.runs``); bit 3 at least 5 cards, bit 4 exactly 4, bit 5
# exactly 3.
_RUN5, _RUN4, _RUN3, _LONG5, _LONG4, _LONG3 = 1, 2, 4, 8, 16, 32
# Signature bits beyond the six suit flags: the three run flags of the ranks held (shifted by
# 6), then fours (bit 9), threes (10), two threes (11), a pair (12), two pairs (13).
_ST_SHIFT = 6
_FOURS, _THREES, _TWO_THREES, _PAIR, _TWO_PAIRS = 1 << 9, 1 << 10, 1 << 11, 1 << 12, 1 << 13
_SIGNATURES = 1 << 14


def _ext(m13: int) -> int:
    """Bit ``v - 1`` set for each value ``v`` held, the Ace as 14 and as 1."""
    return (m13 << 1) | ((m13 >> 12) & 1)


def _flags_of(m13: int) -> int:
    ext = _ext(m13)
    f = 0
    for shift in range(10):
        n = ((ext >> shift) & 31).bit_count()
        if n == 5:
            f |= _RUN5
        elif n == 4:
            f |= _RUN4
        elif n == 3:
            f |= _RUN3
    count = m13.bit_count()
    if count >= 5:
        f |= _LONG5
    elif count == 4:
        f |= _LONG4
    elif count == 3:
        f |= _LONG3
    return f


_FLAGS: list[int] | None = None


def _flags_table() -> list[int]:
    """The flags of every 13-bit mask, built on first use (a whole list at once, so that two
    threads building it at the same time cannot mix their entries; the other tables here are
    filled one entry at a time, each write the same value whoever makes it)."""
    global _FLAGS
    if _FLAGS is None:
        _FLAGS = [_flags_of(m) for m in range(1 << 13)]
    return _FLAGS


#: Whether the first checklist item is present, from a hand's signature.
_PRESENT: dict[str, Callable[[int], bool]] = {
    "five_sf": lambda s: bool(s & _RUN5),
    "fours": lambda s: bool(s & _FOURS),
    "four_sf": lambda s: bool(s & _RUN4),
    "two_threes": lambda s: bool(s & _TWO_THREES),
    "full_house": lambda s: bool(s & _THREES) and bool(s & _TWO_PAIRS),
    "three_sf": lambda s: bool(s & _RUN3),
    "five_flush": lambda s: bool(s & _LONG5),
    "five_straight": lambda s: bool(s & (_RUN5 << _ST_SHIFT)),
    "threes": lambda s: bool(s & _THREES),
    "two_pair": lambda s: bool(s & _TWO_PAIRS),
    "four_flush": lambda s: bool(s & _LONG4),
    "four_straight": lambda s: bool(s & (_RUN4 << _ST_SHIFT)),
    "three_flush": lambda s: bool(s & _LONG3),
    "three_straight": lambda s: bool(s & (_RUN3 << _ST_SHIFT)),
    "one_pair": lambda s: bool(s & _PAIR),
}

#: Per checklist (in order): the first item of each signature, filled on demand.
_FIRST: dict[tuple[str, ...], list[str | None]] = {}


def _first_of(checklist: tuple[str, ...], signature: int) -> str:
    for item in checklist:
        if _PRESENT[item](signature):
            return item
    return "none"


def _signature(mask: int) -> int:
    flags = _flags_table()
    a = mask & _SUIT
    b = (mask >> 13) & _SUIT
    c = (mask >> 26) & _SUIT
    d = (mask >> 39) & _SUIT
    ab, cd, aob, cod = a & b, c & d, a | b, c | d
    c2 = ab | cd | (aob & cod)
    c3 = (ab & cod) | (cd & aob)
    sig = flags[a] | flags[b] | flags[c] | flags[d] | ((flags[aob | cod] & 7) << _ST_SHIFT)
    if ab & cd:
        sig |= _FOURS
    if c3:
        sig |= _THREES | (_TWO_THREES if c3 & (c3 - 1) else 0)
    if c2:
        sig |= _PAIR | (_TWO_PAIRS if c2 & (c2 - 1) else 0)
    return sig


def first_item(mask: int, checklist: tuple[str, ...]) -> str:
    """The first item of ``checklist`` a 52-bit hand mask holds (``"none"`` if none), as
    ``checklist.find_instances`` finds it, from bit facts only.

    >>> from engine.cards import parse_cards, cards_mask
    >>> from engine.signals.conventions import DEFAULT_CONVENTION
    >>> first_item(cards_mask(parse_cards("4H 5H 7H 9S 9D")), DEFAULT_CONVENTION.checklist)
    'three_sf'
    """
    if any(item not in _PRESENT for item in checklist):
        raise ValueError(f"unknown checklist item in {checklist!r}")
    return str(_first_of(checklist, _signature(mask)))


def _unext(ext: int) -> int:
    """The 13-bit rank mask of ``_ext`` bits (value 1 is the Ace)."""
    return ((ext >> 1) & _SUIT) | ((ext & 1) << 12)


#: Per run size (5, 4, 3) and 13-bit mask: the ranks held inside the five-rank windows
#: holding exactly that many of them, filled on demand (-1: not yet).
_IN_RUNS: dict[int, list[int]] = {5: [-1] * (1 << 13), 4: [-1] * (1 << 13), 3: [-1] * (1 << 13)}


def _in_runs(size: int, m13: int) -> int:
    table = _IN_RUNS[size]
    found = table[m13]
    if found < 0:
        ext = _ext(m13)
        union = 0
        for shift in range(10):
            if ((ext >> shift) & 31).bit_count() == size:
                union |= 31 << shift
        found = table[m13] = m13 & _unext(union)
    return found


def _rank_bits(m13: int) -> int:
    return m13 | (m13 << 13) | (m13 << 26) | (m13 << 39)


def _values(c: Card) -> tuple[int, ...]:
    return (1, 14) if c.rank == 14 else (c.rank,)


def _windows(cards: list[Card]) -> tuple[int, ...]:
    """Shifts of the five-rank windows (in ``_ext`` bits) holding a value of every card."""
    out = []
    for shift in range(10):
        lo, hi = shift + 1, shift + 5
        if all(any(lo <= v <= hi for v in _values(c)) for c in cards):
            out.append(shift)
    return tuple(out)


def _reject(mask: int) -> int:
    return 0


def _whole(mask: int) -> int:
    return mask


class _Plays:
    """Whether the signal is a play of a holding of ``item``, asked of the holdings the
    checklist finds in a few cards (one window of a suit, the cards of a window's ranks, a
    suit): the encoder's own plays of each holding (regular and fallback), memoised."""

    __slots__ = ("item", "known", "rows", "signal")

    def __init__(self, item: str, signal: tuple[Card, Card | None], convention: Convention):
        self.item = item
        self.signal = signal
        self.rows = convention.rows_for(item)
        self.known: dict[int, bool] = {}

    def __call__(self, cards: int) -> bool:
        found = self.known.get(cards)
        if found is None:
            found = False
            for inst in find_instances(cards, (self.item,))[1]:
                regular, fallback = instance_plays(inst, self.rows)
                if any(p == self.signal for p, _ in regular) or any(
                    p == self.signal for p, _ in fallback
                ):
                    found = True
                    break
            self.known[cards] = found
        return found


class _SuitBest:
    """For the ``preferred`` model: the encoder's choice among the straight-flush holdings
    of one suit alone (its preferred play, and the cards of the holding that play comes
    from), memoised by the suit's cards in windows of the item's size."""

    __slots__ = ("convention", "known")

    def __init__(self, convention: Convention) -> None:
        self.convention = convention
        self.known: dict[int, tuple[tuple[Card, Card | None] | None, int]] = {}

    def __call__(self, part: int) -> tuple[tuple[Card, Card | None] | None, int]:
        found = self.known.get(part)
        if found is None:
            enc = encode(Hand.from_mask(part), 1, self.convention)
            best = 0
            for c in enc.cards:
                best |= c.bit
            found = self.known[part] = (enc.preferred, best)
        return found


def _sf_key(plays: _Plays, cards: list[Card], size: int, best: _SuitBest | None = None) -> LeadKey:
    """A straight-flush item of ``size`` cards: both signal cards of one suit, inside a
    window of it holding exactly ``size`` cards whose holding has the signal among its plays.
    Its instances are the windows of every suit holding exactly ``size`` cards: the key keeps
    their cards.

    With ``best`` (the ``preferred`` model), the key keeps only the holding the encoder
    prefers in each suit alone (``_SuitBest``), and the signal must be the preferred play of
    its own suit. The checklist orders straight-flush holdings by what each holding is (its
    ways to complete, its top card, then its suit) and the encoder prefers the first play of
    the first holding that has one (regular plays before fallback ones); a play's cards are of
    its holding's suit. So the hand's preferred play and the holding it comes from are those of
    the best of the suits' choices, which the key holds. Under the ``any`` model every holding
    counts (the number of plays, which holding shows the signal), and the key keeps them all.
    """
    shifts = _windows(cards)
    if len({c.suit for c in cards}) > 1 or not shifts:
        return _reject
    suit = int(cards[0].suit)
    shift13 = 13 * suit
    signal = (cards[0], cards[1] if len(cards) > 1 else None)
    others = tuple(13 * s for s in range(4) if s != suit)

    def own(m13: int) -> int:
        """The key's cards of the signal's suit (0: the hand cannot lead the signal)."""
        ext = _ext(m13)
        for s in shifts:
            if ((ext >> s) & 31).bit_count() == size and plays((m13 & _unext(31 << s)) << shift13):
                break
        else:
            return 0
        part = _in_runs(size, m13) << shift13
        if best is None:
            return part
        preferred, out = best(part)
        return out if preferred == signal else 0

    def other(m13: int, shift: int) -> int:
        """The key's cards of another suit."""
        part = _in_runs(size, m13) << shift
        return part if best is None or not part else best(part)[1]

    known_own: dict[int, int] = {}
    known_other: tuple[dict[int, int], ...] = ({}, {}, {})
    pairs = tuple(zip(others, known_other, strict=True))

    def key(mask: int) -> int:
        m13 = (mask >> shift13) & _SUIT
        out = known_own.get(m13)
        if out is None:
            out = known_own[m13] = own(m13)
        if not out:
            return 0
        for shift, known in pairs:
            m13 = (mask >> shift) & _SUIT
            part = known.get(m13)
            if part is None:
                part = known[m13] = other(m13, shift)
            out |= part
        return out

    return key


def _straight_key(plays: _Plays, cards: list[Card], size: int) -> LeadKey:
    """A straight item of ``size`` ranks: the signal's ranks inside a window holding exactly
    ``size`` ranks, whose holding (every card of its ranks) has the signal among its plays.
    Its instances hold every card of the ranks in such windows."""
    shifts = _windows(cards)
    if not shifts:
        return _reject
    windows: dict[int, tuple[int, ...]] = {}

    def key(mask: int) -> int:
        m13 = (mask | (mask >> 13) | (mask >> 26) | (mask >> 39)) & _SUIT
        found = windows.get(m13)
        if found is None:
            ext = _ext(m13)
            found = windows[m13] = tuple(
                _rank_bits(m13 & _unext(31 << s))
                for s in shifts
                if ((ext >> s) & 31).bit_count() == size
            )
        for ranks in found:
            if plays(mask & ranks):
                return mask & _rank_bits(_in_runs(size, m13))
        return 0

    return key


def _flush_key(plays: _Plays, cards: list[Card], sizes: range) -> LeadKey:
    """A flush item: the signal's suit holds a number of cards in ``sizes`` and its holding
    has the signal among its plays. Its instances are the whole suits of such lengths."""
    if len({c.suit for c in cards}) > 1:
        return _reject
    shift13 = 13 * int(cards[0].suit)
    fits: dict[int, bool] = {}

    def key(mask: int) -> int:
        m13 = (mask >> shift13) & _SUIT
        ok = fits.get(m13)
        if ok is None:
            ok = fits[m13] = m13.bit_count() in sizes and plays(m13 << shift13)
        if not ok:
            return 0
        out = 0
        for s in (0, 13, 26, 39):
            if ((mask >> s) & _SUIT).bit_count() in sizes:
                out |= mask & (_SUIT << s)
        return out

    return key


def _rank_key(cards: list[Card], times: int) -> LeadKey:
    """A rank item: every signal card's rank held at least ``times`` times. Its instances
    are made of every card of the ranks held that often."""
    ranks = 0
    for c in cards:
        ranks |= 1 << (c.rank - 2)

    def key(mask: int) -> int:
        a = mask & _SUIT
        b = (mask >> 13) & _SUIT
        c = (mask >> 26) & _SUIT
        d = (mask >> 39) & _SUIT
        ab, cd, aob, cod = a & b, c & d, a | b, c | d
        if times == 4:
            held = ab & cd
        elif times == 3:
            held = (ab & cod) | (cd & aob)
        else:
            held = ab | cd | (aob & cod)
        return mask & _rank_bits(held) if held & ranks == ranks else 0

    return key


def _item_key(
    item: str,
    signal: tuple[Card, Card | None],
    convention: Convention,
    played_out: bool,
    preferred: bool,
) -> LeadKey:
    """The necessary test and key of one item for the signal."""
    c1, c2 = signal
    cards = [c1] if c2 is None else [c1, c2]
    if item in _RANK_TIMES:
        return _rank_key(cards, _RANK_TIMES[item])
    if played_out:
        return _whole
    plays = _Plays(item, signal, convention)
    if item in _RUN_SIZES:
        size = _RUN_SIZES[item]
        if item.endswith("_sf"):
            return _sf_key(plays, cards, size, _SuitBest(convention) if preferred else None)
        return _straight_key(plays, cards, size)
    if item in _FLUSH_SIZES:
        return _flush_key(plays, cards, _FLUSH_SIZES[item])
    return _whole


_RUN_SIZES = {
    "five_sf": 5,
    "four_sf": 4,
    "three_sf": 3,
    "five_straight": 5,
    "four_straight": 4,
    "three_straight": 3,
}
_FLUSH_SIZES = {"five_flush": range(5, 14), "four_flush": range(4, 5), "three_flush": range(3, 4)}
_RANK_TIMES = {
    "fours": 4,
    "two_threes": 3,
    "threes": 3,
    "full_house": 2,
    "two_pair": 2,
    "one_pair": 2,
}


def lead_filter(
    signal: tuple[Card, Card | None], convention: Convention, *, preferred: bool = False
) -> LeadKey | None:
    """A function of a hand mask: 0 when the hand cannot have ``signal`` among its correct
    plays, else the hand's *key*, the cards its encoding depends on (see the module's
    docstring); ``None`` when the card's checklist holds items this module does not know.

    With ``preferred`` (the posterior's ``preferred`` model) it also answers 0 for some hands
    whose preferred play is not the signal, and the key's encoding is only sure to have the
    hand's preferred play, item and shape (not every play).

    >>> from engine.cards import card, cards_mask, parse_cards
    >>> from engine.signals.conventions import DEFAULT_CONVENTION
    >>> key = lead_filter((card("4H"), card("5H")), DEFAULT_CONVENTION)
    >>> from engine.cards import iter_cards
    >>> def show(mask): return " ".join(str(c) for c in iter_cards(mask))
    >>> show(key(cards_mask(parse_cards("4H 5H 7H 9S 9D 2C"))))
    '4H 5H 7H'
    >>> key(cards_mask(parse_cards("4H 5H 9S 9D 9C")))  # threes come first: no straight flush
    0
    """
    checklist = tuple(str(i) for i in convention.checklist)
    if any(item not in _PRESENT for item in checklist):
        return None
    c1, c2 = signal
    unsignalled = {str(i) for i in convention.unsignalled_items}
    keys: dict[str, LeadKey] = {}
    for item in checklist:
        if item in unsignalled:
            if c2 is None:
                continue  # an item played out is led two of its cards at a time
        elif not any(pattern_matches(row.pattern, c1, c2) for row in convention.rows_for(item)):
            continue  # no row of this item can show the signal
        keys[item] = _item_key(item, signal, convention, item in unsignalled, preferred)
    first = _FIRST.setdefault(checklist, [None] * _SIGNATURES)
    decide: list[LeadKey | None] = [None] * _SIGNATURES
    flags = _flags_table()

    def lead_key(mask: int) -> int:
        a = mask & _SUIT
        b = (mask >> 13) & _SUIT
        c = (mask >> 26) & _SUIT
        d = (mask >> 39) & _SUIT
        ab, cd, aob, cod = a & b, c & d, a | b, c | d
        pairs = ab | cd | (aob & cod)
        threes = (ab & cod) | (cd & aob)
        sig = flags[a] | flags[b] | flags[c] | flags[d] | ((flags[aob | cod] & 7) << _ST_SHIFT)
        if ab & cd:
            sig |= _FOURS
        if threes:
            sig |= _THREES | (_TWO_THREES if threes & (threes - 1) else 0)
        if pairs:
            sig |= _PAIR | (_TWO_PAIRS if pairs & (pairs - 1) else 0)
        key = decide[sig]
        if key is None:
            item = first[sig]
            if item is None:
                item = first[sig] = _first_of(checklist, sig)
            key = decide[sig] = keys.get(item, _reject)
        return key(mask)

    return lead_key
