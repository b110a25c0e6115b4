"""The signal card of Concerto: checklist, encoder, decoder, cheat sheet and replies.

The convention cards (``docs/signals.md``) are held as data (:mod:`.conventions`); the
encoder (:func:`encode`) and the decoder (:func:`decode`) are both driven by their rows.

>>> from engine.cards import parse_cards
>>> enc = encode(parse_cards("2D 3D 4D 5D KS"), side_hand=1)
>>> enc.item, enc.shape, [str(c) for c in enc.plays[0]]
(ChecklistItem.FOUR_SF, 'XXXX', ['2D', '5D'])
>>> primary_reading(*enc.plays[0], side_hand=1).item == "four_sf"  # an item is its id
True

Decisions
---------
Where the convention card (``docs/signals.md``) leaves a choice open, the engine decides as
follows.

1. Several holdings of the first item: straight-flush and straight runs prefer the holding with
   more ways to be completed (``XXXX`` open at both ends before one-hole shapes; for three
   cards, shorter spans first), then the higher top card, then suit order ♠♥♦♣; five_sf the
   highest window; flushes the longest suit, then the higher cards; fours, two threes, full
   house and two pair show the highest ranks first.
2. ``Encoding.plays`` lists every play of every holding of the item *with the chosen shape*
   (another shape would be read as a different shape); within a holding, in row order.
3. "Otherwise" rows (the Ace effect of five_flush, two pair's same-colour alternative) are
   judged per holding; † fallback rows only when no holding of the item has a regular play.
4. four_straight: every up pair d<=3 of two of the four ranks in different suits is correct,
   the closest preferred ("as close as possible" is a preference). Its † same-suit row cannot
   arise with the shipped checklist (four ranks in a window all in one suit are four_sf), but
   it stays as data and is exercised by a convention with another checklist in the tests.
5. four_flush: c1 is the lowest card (an Ace counts 1 when that puts it in range) with a higher
   suit card in range; every such c2 is correct, the farthest preferred.
   three_flush: every high-then-low pair in range is correct, highest c1 and widest preferred.
6. five_flush with lowest and highest in range: every higher card at least five away is
   correct, the highest preferred.
7. two pair: the higher pair shown first; the out-of-range alternative is correct for any two
   pairs out of range. threes ♦-and-pass and one_pair ♦-and-pass carry their suit inference
   into the visible pruning (♦ means no ♥ in a three; means ♥♦ for a pair).
8. teach-yourself-1994: "four of a kind has no signal", so the convention has no fours row:
   the leader plays the four out at once, on this lead (``Encoding.played_out``): every two
   cards of the four in either order are correct, and they read as two pair. The wider
   high-then-low d=4 reading adds top-then-bottom rows for the three-card XX..X and X..XX and
   the four-card XXX.X, X.XXX and XX.XX, listed after the regular play.
9. Readings with the same item and shape from several rows are merged; readings order by
   (fallback-only, family group, checklist order, shape order of SF_SHAPES).
10. Readings describe what the signal says under the card; a few pattern readings cannot be
   produced by any real hand (e.g. a same-suit up d=5 five-card flush without an Ace). The
   round trip (every encoder play decodes to its item and shape) holds by construction.
11. visible pruning: a reading needs certain unseen cards (listed per item); the reader's cards
   and completed hands count, the two signal cards never do.
12. Reply advice: force when partner's own best five beats ``PROMISE[item]`` (what the item
   makes when completed); otherwise complete the primary reading if partner holds every card
   it needs (straight-flush cards of one window holding both signal cards, a fourth of a shown
   rank, two of a full house's pair, one or two flush cards, straight cards of one such
   window), over the holdings :func:`~engine.signals.reply.signal_holdings` admits; after
   c1-and-pass the
   fourth of the rank, else partner's lowest pair, else the least useful card (fewest partners
   of rank, suit and straight neighbours, then lowest); else pass.
"""

from engine.signals.cheat_sheet import CheatSheet, cheatsheet, cheatsheet_text
from engine.signals.checklist import Detection, detect
from engine.signals.conventions import (
    CONVENTIONS,
    DEFAULT_CONVENTION,
    ITEM_FAMILY,
    ITEM_TITLES,
    ITEMS,
    ChecklistItem,
    Convention,
    Pattern,
    Row,
    get_convention,
)
from engine.signals.decoder import NO_SIGNAL_TEXT, Reading, decode, primary_reading
from engine.signals.encoder import (
    Encoding,
    InvalidSideHandError,
    Play,
    encode,
    is_strong_round,
)
from engine.signals.relations import SignalRelations, signal_relations
from engine.signals.reply import Advice, reply_advice, signal_holdings
from engine.signals.signal import Signal

__all__ = [
    "CONVENTIONS",
    "DEFAULT_CONVENTION",
    "ITEMS",
    "ITEM_FAMILY",
    "ITEM_TITLES",
    "NO_SIGNAL_TEXT",
    "Advice",
    "CheatSheet",
    "ChecklistItem",
    "Convention",
    "Detection",
    "Encoding",
    "InvalidSideHandError",
    "Pattern",
    "Play",
    "Reading",
    "Row",
    "Signal",
    "SignalRelations",
    "cheatsheet",
    "cheatsheet_text",
    "decode",
    "detect",
    "encode",
    "get_convention",
    "is_strong_round",
    "primary_reading",
    "reply_advice",
    "signal_holdings",
    "signal_relations",
]
