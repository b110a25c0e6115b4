"""Look-alike usernames: a sign-up must not be mistakable for someone already here.

Usernames are normalised to NFKC (Django's ``UsernameField`` and ``normalize_username`` do it);
on top of that a new username is refused when it mixes scripts (Latin with a Cyrillic "е", say)
or when its *skeleton* — every character replaced by the plain Latin letter it looks like,
case folded, as in Unicode's confusable detection (UTS #39) — equals the skeleton of an
existing username. The confusable table is the ``confusable_homoglyphs`` package's copy of
Unicode's ``confusables.txt``.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

from confusable_homoglyphs import confusables
from django.contrib.auth import get_user_model

# Look-alikes whose Unicode prototype is not a plain ASCII letter (e.g. Cyrillic "т" maps to a
# small capital T): close enough on screen to be mistaken in a member list.
_EXTRA = str.maketrans(
    {
        "т": "t",
        "г": "r",
        "п": "n",
        "к": "k",
        "м": "m",
        "н": "h",
        "в": "b",
        "ь": "b",
        "ѕ": "s",
        "і": "i",
        "ј": "j",
        "ԁ": "d",
        "ɡ": "g",
        "ν": "v",
        "ι": "i",
        "κ": "k",
        "τ": "t",
        "ο": "o",
        "ρ": "p",
        "α": "a",
        "ᴛ": "t",
        "ʀ": "r",
        "ɴ": "n",
        "ᴋ": "k",
        "ᴍ": "m",
        "ʜ": "h",
        "ʙ": "b",
    }
)


@lru_cache(maxsize=4096)
def _ascii_look_alike(char: str) -> str:
    if char.isascii():
        return char
    found = confusables.is_confusable(char, greedy=True, preferred_aliases=["latin"]) or []
    for entry in found:
        for glyph in entry.get("homoglyphs", []):
            candidate = str(glyph["c"]).casefold()
            if candidate.isascii() and candidate.isalnum():
                return candidate
    return char.translate(_EXTRA)


def skeleton(name: str) -> str:
    """What ``name`` looks like: NFKC, case folded, each character as its Latin look-alike."""
    folded = unicodedata.normalize("NFKC", name).casefold()
    return "".join(_ascii_look_alike(c) for c in folded).casefold()


def is_mixed_script(name: str) -> bool:
    return bool(confusables.is_mixed_script(unicodedata.normalize("NFKC", name)))


def look_alike_of(name: str) -> str | None:
    """An existing username that ``name`` could be mistaken for (None when there is none).

    Exact duplicates are the form's own business; this finds the others. Latin names are
    checked against every name by the same skeleton, other names against the Latin names
    they resemble.
    """
    users = get_user_model().objects
    field = get_user_model().USERNAME_FIELD
    target = skeleton(name)
    if target.isascii():
        same = users.filter(**{f"{field}__iexact": target}).exclude(**{field: name}).first()
        if same is not None:
            return str(getattr(same, field))
    # Non-ASCII names already here of the same length, compared by skeleton (few in practice).
    candidates = users.filter(**{f"{field}__regex": r"[^\x00-\x7f]"}).values_list(field, flat=True)
    for other in candidates.iterator():
        if other != name and len(other) == len(name) and skeleton(other) == target:
            return str(other)
    return None
