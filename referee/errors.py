"""The referee's error family: only malformed input raises, never a rejected claim.

A claim the rules reject is a normal :class:`~referee.types.Ruling`. These exceptions are for
input that is not an action or a record at all; their messages quote the input.
"""


class RefereeError(ValueError):
    """Base class of every error the referee raises on malformed input."""


class InvalidConfig(RefereeError):
    """Players, mode or options that no game of this kind can be set up with."""


class MalformedAction(RefereeError):
    """An action that cannot be parsed: unknown type, missing or ill-typed field, unknown player."""


class InvalidState(RefereeError):
    """A state (usually from JSON or from the camera) that breaks the game's invariants."""


class MalformedRecord(RefereeError):
    """A game record line that cannot be read; the message names the line number."""
