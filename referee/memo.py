"""The last ruling a game resolved, so that ``judge`` then ``apply`` on the same pair (the live
app's and the tests' habit) resolves once.

States and actions are immutable values, so a result stays true for its (state, action) pair. The
state is matched by identity (cheap, and a state equal but distinct simply resolves again), the
action by equality.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, TypeVar

S = TypeVar("S")
A = TypeVar("A")
R = TypeVar("R")


class LastResolution(Generic[S, A, R]):
    """Wraps ``resolve(state, action) -> result`` and remembers its last call.

    >>> calls = []
    >>> memo = LastResolution(lambda s, a: calls.append(a) or (s, a))
    >>> state = ("a state",)
    >>> memo(state, 1) == memo(state, 1), len(calls)
    (True, 1)
    """

    def __init__(self, resolve: Callable[[S, A], R]) -> None:
        self._resolve = resolve
        self._last: tuple[S, A, R] | None = None

    def __call__(self, state: S, action: A) -> R:
        last = self._last  # read once: another thread may replace it meanwhile
        if last is not None and last[0] is state and last[1] == action:
            return last[2]
        result = self._resolve(state, action)
        self._last = (state, action, result)
        return result
