"""Throughput of the signal encoder and decoder on one core.

Run: ``.venv/bin/python benchmarks/bench_signals.py``. Rates are per CPU second
(``time.process_time``), so other processes on the machine do not lower them. Prints hands
encoded per second (random 13-card hands, both conventions), signals decoded per second (random
ordered pairs and card-and-pass signals, all side hands), and ``ratio_vs_target`` (the smaller
ratio to the targets of 20,000 hands/s and 200,000 signals/s) as the last line.
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.cards import DECK
from engine.signals import CONVENTIONS, decode, encode
from engine.signals.decoder import readings_table

ENCODE_TARGET = 20_000
DECODE_TARGET = 200_000


def main() -> None:
    rng = random.Random(2024)
    convs = list(CONVENTIONS.values())
    hands = [rng.sample(DECK, 13) for _ in range(40_000)]
    for conv in convs:
        readings_table(conv)
    start = time.process_time()
    for i, hand in enumerate(hands):
        encode(hand, 1 + i % 4, convs[i % 2])
    enc_rate = len(hands) / (time.process_time() - start)

    signals = []
    for _ in range(400_000):
        c1 = rng.choice(DECK)
        c2 = rng.choice(DECK)
        signals.append((c1, None if c2 is c1 else c2, rng.randint(1, 4), rng.choice(convs)))
    start = time.process_time()
    for c1, c2, side, conv in signals:
        decode(c1, c2, side, conv)
    dec_rate = len(signals) / (time.process_time() - start)

    visible = [tuple(rng.sample(DECK, 13)) for _ in range(1000)]
    start = time.process_time()
    for i, (c1, c2, side, conv) in enumerate(signals[:100_000]):
        decode(c1, c2, side, conv, visible[i % 1000])
    vis_rate = 100_000 / (time.process_time() - start)

    print(f"encode_hands_per_s: {enc_rate:,.0f}".replace(",", ""))
    print(f"decode_signals_per_s: {dec_rate:,.0f}".replace(",", ""))
    print(f"decode_with_visible_per_s: {vis_rate:,.0f}".replace(",", ""))
    print(f"ratio_vs_target: {min(enc_rate / ENCODE_TARGET, dec_rate / DECODE_TARGET):.2f}")


if __name__ == "__main__":
    main()
