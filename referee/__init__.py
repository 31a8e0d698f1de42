"""The rules of tableref's five games: pure Python, standard library only.

Every game follows one small protocol (:mod:`referee.protocol`): a :class:`~referee.protocol.Game`
holds the fixed facts (players, mode, options), a state value holds one play, ``judge`` rules on an
action without changing anything and ``apply`` returns the new state with its ruling. States and
actions round-trip through plain JSON, which is also the game record (:mod:`referee.records`).
"""

from referee.errors import InvalidConfig, InvalidState, MalformedAction, MalformedRecord, RefereeError
from referee.types import Outcome, Reason, Ruling, Verdict

__all__ = [
    "InvalidConfig",
    "InvalidState",
    "MalformedAction",
    "MalformedRecord",
    "Outcome",
    "Reason",
    "RefereeError",
    "Ruling",
    "Verdict",
]
