"""A small French helper for the reasons: "de" before a name elides before a vowel sound."""

from __future__ import annotations

VOWELS = set("AEIOUYÂÀÉÈÊËÎÏÔÖÛÙÜaeiouyâàéèêëîïôöûùü")


def de(name: str) -> str:
    """``"de Ben"``, ``"d'Alice"``, ``"d'Émile"``."""
    return f"d'{name}" if name[:1] in VOWELS else f"de {name}"
