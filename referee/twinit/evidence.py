"""What a claim's covered faces are: the faces the referee knows, completed by the faces the claim
carries (the camera's view of the covered cards when the hands landed).

A carried face fills a face the referee did not know yet. One that contradicts a known face, or a
covered face still unknown, makes the ruling *uncertain*: the table decides, nothing changes.
"""

from __future__ import annotations

from collections.abc import Sequence

from referee.twinit.codec import loc_to_json
from referee.twinit.layout import describe, describe_all, face_at, set_face
from referee.twinit.options import Setup
from referee.twinit.types import CAPTURE, Loc, TwinItState
from referee.types import Reason, Ruling, Verdict


def _uncertain(code: str, en: str, fr: str, **details: object) -> Ruling:
    return Ruling(Verdict.UNCERTAIN, Reason(code, en, fr), False, details)


def covered_faces(
    setup: Setup, state: TwinItState, cards: Sequence[Loc], carried: Sequence[str | None] | None
) -> tuple[TwinItState, list[str], Ruling | None]:
    """``(state with carried faces filled in, the covered faces, None)``, or an uncertain ruling."""
    if carried is not None and len(carried) != len(cards):
        return (
            state,
            [],
            _uncertain(
                "faces_count",
                f"The claim carries {len(carried)} faces for {len(cards)} cards: the table decides.",
                f"La prise porte {len(carried)} faces pour {len(cards)} cartes : la table décide.",
            ),
        )
    for i, loc in enumerate(cards):
        seen = carried[i] if carried is not None else None
        if seen is None:
            continue
        known = face_at(state, loc)
        if known is None and loc.kind != CAPTURE:
            state = set_face(state, loc, seen)
        elif known != seen:
            en, fr = describe(loc, setup.players)
            return (
                state,
                [],
                _uncertain(
                    "faces_disagree",
                    f"The camera sees {seen!r} on {en}, which showed {known!r}: the table decides.",
                    f"La caméra voit {seen!r} sur {fr}, qui montrait {known!r} : la table décide.",
                    card=loc_to_json(loc),
                ),
            )
    faces = [face_at(state, loc) for loc in cards]
    unknown = [loc for loc, face in zip(cards, faces, strict=True) if face is None]
    if unknown:
        en, fr = describe_all(unknown, setup.players)
        return (
            state,
            [],
            _uncertain(
                "face_unknown",
                f"Face not known yet: {en}; the table decides.",
                f"Face encore inconnue : {fr} ; la table décide.",
                unknown=[loc_to_json(x) for x in unknown],
            ),
        )
    return state, [f for f in faces if f is not None], None
