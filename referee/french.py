"""Small helpers for the French side of the bilingual reasons, shared by every game."""

from __future__ import annotations

from collections.abc import Iterable

ELIDING = frozenset("aeiouyhâàäéèêëîïôöûùü")
"""First letters before which "de" elides: vowels and a mute h ("d'Hugo")."""


def de(name: str) -> str:
    """French "de" before a name, elided before a vowel sound.

    >>> de("Ben"), de("Ana"), de("Émile"), de("Hugo")
    ('de Ben', "d'Ana", "d'Émile", "d'Hugo")
    """
    return f"d'{name}" if name[:1].lower() in ELIDING else f"de {name}"


def join_fr(items: Iterable[object]) -> str:
    """A French list: ``"3"``, ``"3 et 5"``, ``"3, 5 et 9"`` (empty for no items).

    >>> join_fr([3, 5, 9]), join_fr(["Ana"]), join_fr([])
    ('3, 5 et 9', 'Ana', '')
    """
    words = [str(x) for x in items]
    return "".join(words) if len(words) < 2 else ", ".join(words[:-1]) + " et " + words[-1]


def join_en(items: Iterable[object]) -> str:
    """An English list: ``"3"``, ``"3 and 5"``, ``"3, 5 and 9"``."""
    words = [str(x) for x in items]
    return "".join(words) if len(words) < 2 else ", ".join(words[:-1]) + " and " + words[-1]
