"""Forms for what the camera cannot see: each game's actions a player enters by hand (a Trio ask,
a Line-it take, a Mind star, a Twin It claim the camera missed...).

A form is a list of fields; the page shows them and sends back the values it collected (strings,
numbers); :func:`build_action` checks every value and builds the referee's action JSON, or raises
:class:`FormError` with one clear sentence (a 422 on the web). The referee then judges the action
like any other, and it goes to the log with the origin ``table``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

LOC_RE = re.compile(r"^\s*(table|pile|capture)\s+(\d+)(?:\s+(\d+))?\s*$")


class FormError(ValueError):
    """A form value that cannot make an action (the message names the field and what it expects)."""


@dataclass(frozen=True)
class Field:
    name: str
    kind: str
    """``seat`` (a player), ``seats`` (several), ``int``, ``ints`` (a list), ``choice``, ``text``,
    ``texts`` (a list) or ``loc`` (a Twin It card place: ``table 3``, ``pile 1``, ``capture 0 2``)."""
    en: str
    fr: str
    options: tuple[str, ...] = ()
    low: int | None = None
    high: int | None = None
    optional: bool = False

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name, "kind": self.kind, "en": self.en, "fr": self.fr}
        if self.options:
            out["options"] = list(self.options)
        if self.low is not None:
            out["min"] = self.low
        if self.high is not None:
            out["max"] = self.high
        out["optional"] = self.optional
        return out


@dataclass(frozen=True)
class ActionForm:
    type: str
    en: str
    fr: str
    fields: tuple[Field, ...]
    fixed: tuple[tuple[str, Any], ...] = ()
    """Keys every action of this form carries (``type`` included)."""

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, "en": self.en, "fr": self.fr, "fields": [f.to_json() for f in self.fields]}


def _player(name: str = "player", en: str = "Player", fr: str = "Joueur") -> Field:
    return Field(name, "seat", en, fr)


FORMS: dict[str, tuple[ActionForm, ...]] = {
    "trio": (
        ActionForm(
            "ask",
            "Ask a player for their smallest or largest card",
            "Demander sa plus petite ou sa plus grande carte",
            (
                _player("player", "Who asks", "Qui demande"),
                _player("target", "Asked player", "Joueur interrogé"),
                Field("end", "choice", "Which end", "Quel bout", ("smallest", "largest")),
                Field("number", "int", "Number shown", "Nombre montré", low=1, high=12),
            ),
            (("type", "ask"),),
        ),
        ActionForm(
            "reveal",
            "Turn a centre card face up",
            "Retourner une carte du centre",
            (
                _player(),
                Field("slot", "int", "Centre slot (from 0)", "Place au centre (depuis 0)", low=0, high=40),
                Field("number", "int", "Number", "Nombre", low=1, high=12),
            ),
            (("type", "reveal"),),
        ),
        ActionForm(
            "exchange",
            "Partners swap a card (teams)",
            "Les partenaires échangent une carte (équipes)",
            (Field("players", "seats", "The two partners", "Les deux partenaires"),),
            (("type", "exchange"),),
        ),
    ),
    "lineit": (
        ActionForm(
            "market",
            "The market dealt",
            "Le marché distribué",
            (Field("cards", "texts", "Cards (e.g. 47:diamond)", "Cartes (ex. 47:diamond)"),),
            (("type", "market"),),
        ),
        ActionForm(
            "take",
            "Take a market card",
            "Prendre une carte du marché",
            (
                _player(),
                Field("card", "text", "Card (e.g. 85:heart, bet:+3)", "Carte (ex. 85:heart, bet:+3)"),
                Field("to", "choice", "Into", "Vers", ("line", "hand")),
            ),
            (("type", "take"),),
        ),
        ActionForm(
            "play",
            "Play a card from the hand",
            "Jouer une carte de la main",
            (_player(), Field("card", "text", "Card", "Carte")),
            (("type", "play"),),
        ),
        ActionForm(
            "close",
            "Close the line",
            "Fermer la ligne",
            (
                _player(),
                Field("discard", "texts", "Cards discarded", "Cartes défaussées", optional=True),
            ),
            (("type", "close"),),
        ),
        ActionForm("end_turn", "End the turn", "Finir le tour", (_player(),), (("type", "end_turn"),)),
        ActionForm("pass", "Pass", "Passer", (_player(),), (("type", "pass"),)),
    ),
    "themind": (
        ActionForm(
            "play",
            "Play a card on the pile",
            "Poser une carte sur la pile",
            (_player(), Field("card", "int", "Card", "Carte", low=1, high=100, optional=True)),
            (("type", "play"),),
        ),
        ActionForm(
            "star",
            "Throwing star (hands raised)",
            "Shuriken (mains levées)",
            (Field("hands_up", "seats", "Hands raised", "Mains levées"),),
            (("type", "star"),),
        ),
        ActionForm(
            "discard",
            "Cards lower than the pile, shown after an error",
            "Cartes plus basses que la pile, montrées après une erreur",
            (_player(), Field("cards", "ints", "Cards", "Cartes", low=1, high=100)),
            (("type", "discard"),),
        ),
    ),
    "twinit": (
        ActionForm(
            "claim",
            "A claim the camera missed",
            "Une réclamation que la caméra n'a pas vue",
            (
                _player("player", "Who claimed", "Qui a réclamé"),
                Field("first", "loc", "First card (table N, pile P)", "Première carte (table N, pile P)"),
                Field("second", "loc", "Second card", "Seconde carte"),
            ),
            (("type", "claim"),),
        ),
        ActionForm(
            "play",
            "A card played that the camera missed",
            "Une carte jouée que la caméra n'a pas vue",
            (_player(), Field("face", "text", "Its pattern (label)", "Son motif (étiquette)")),
            (("type", "play"),),
        ),
    ),
    "twixt": (),
}


def forms_for(game: str, mode: str | None = None) -> tuple[ActionForm, ...]:
    """The forms of ``game`` (none for an unknown game)."""
    forms = FORMS.get(game, ())
    if game == "twinit" and mode in ("cooperative", "cooperative-competitive"):
        return tuple(f for f in forms if f.type == "claim")
    return forms


def form_of(game: str, action_type: str, mode: str | None = None) -> ActionForm:
    for form in forms_for(game, mode):
        if form.type == action_type:
            return form
    known = ", ".join(f.type for f in forms_for(game, mode)) or "none"
    raise FormError(f"no {action_type!r} form for {game}: expected one of {known}")


def build_action(
    game: str, action_type: str, values: Mapping[str, Any], players: Sequence[str], mode: str | None = None
) -> dict[str, Any]:
    """The referee's action JSON from a form's values; raises :class:`FormError`."""
    form = form_of(game, action_type, mode)
    known = {f.name for f in form.fields}
    extra = sorted(set(values) - known)
    if extra:
        raise FormError(f"unknown field(s) {', '.join(extra)} for {action_type}: expected {', '.join(known)}")
    action: dict[str, Any] = dict(form.fixed)
    for field in form.fields:
        raw = values.get(field.name)
        if raw is None or (isinstance(raw, str) and not raw.strip()) or raw == []:
            if field.optional:
                continue
            raise FormError(f"{field.name} is missing: expected {_expected(field)}")
        action[field.name] = _value(field, raw, players)
    if game == "twinit" and action_type == "claim":
        action["cards"] = [action.pop("first"), action.pop("second")]
    if game == "lineit" and action_type == "close":
        action.setdefault("discard", [])
    return action


def _expected(field: Field) -> str:
    kind = field.kind
    if kind == "seat":
        return "a player's name or seat number"
    if kind == "seats":
        return "players' names or seat numbers, separated by commas"
    if kind == "int":
        return f"a whole number{_range(field)}"
    if kind == "ints":
        return f"whole numbers{_range(field)}, separated by commas"
    if kind == "choice":
        return " or ".join(repr(o) for o in field.options)
    if kind == "loc":
        return "'table N', 'pile P' or 'capture P I'"
    if kind == "texts":
        return "values separated by commas"
    return "a value"


def _range(field: Field) -> str:
    if field.low is not None and field.high is not None:
        return f" from {field.low} to {field.high}"
    return ""


def _seat(field: Field, raw: Any, players: Sequence[str]) -> int:
    text = str(raw).strip()
    if text.isdigit() and int(text) < len(players):
        return int(text)
    for i, name in enumerate(players):
        if name.casefold() == text.casefold():
            return i
    raise FormError(f"{field.name} {raw!r} is not a player: expected one of {', '.join(players)}")


def _int(field: Field, raw: Any) -> int:
    if isinstance(raw, bool):
        raise FormError(f"{field.name} {raw!r}: expected {_expected(field)}")
    try:
        value = int(str(raw).strip()) if not isinstance(raw, int) else raw
    except ValueError:
        raise FormError(f"{field.name} {raw!r}: expected {_expected(field)}") from None
    if (field.low is not None and value < field.low) or (field.high is not None and value > field.high):
        raise FormError(f"{field.name} {value}: expected {_expected(field)}")
    return value


def _items(raw: Any) -> list[Any]:
    if isinstance(raw, list):
        return raw
    return [p for p in (s.strip() for s in str(raw).split(",")) if p]


def _value(field: Field, raw: Any, players: Sequence[str]) -> Any:
    kind = field.kind
    if kind == "seat":
        return _seat(field, raw, players)
    if kind == "seats":
        return [_seat(field, v, players) for v in _items(raw)]
    if kind == "int":
        return _int(field, raw)
    if kind == "ints":
        return [_int(field, v) for v in _items(raw)]
    if kind == "choice":
        text = str(raw).strip()
        if text not in field.options:
            raise FormError(f"{field.name} {raw!r}: expected {_expected(field)}")
        return text
    if kind == "texts":
        items = [str(v).strip() for v in _items(raw)]
        if any(len(v) > 64 for v in items):
            raise FormError(f"{field.name}: a value is longer than 64 characters")
        return items
    if kind == "loc":
        match = LOC_RE.match(str(raw).lower())
        if match is None:
            raise FormError(f"{field.name} {raw!r}: expected {_expected(field)}")
        where, a, b = match.group(1), int(match.group(2)), match.group(3)
        if where == "capture":
            if b is None:
                raise FormError(f"{field.name} {raw!r}: a capture is 'capture P I' (player, index)")
            return {"capture": [a, int(b)]}
        if b is not None:
            raise FormError(f"{field.name} {raw!r}: expected {_expected(field)}")
        return {where: a}
    text = str(raw).strip()
    if len(text) > 64:
        raise FormError(f"{field.name}: longer than 64 characters")
    if field.name == "face" and not text.startswith("twinit:"):
        text = f"twinit:{text}"
    return text
