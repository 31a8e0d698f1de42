"""Line-it (Gigamic): lines of number cards, bets and jackpots.

The engine is :class:`referee.lineit.game.LineItGame`; the deck and card names are in
:mod:`referee.lineit.cards`, actions in :mod:`referee.lineit.actions`, a line's arithmetic in
:mod:`referee.lineit.lines`, the state in :mod:`referee.lineit.state`, the whole-state check in
:mod:`referee.lineit.checks` and the bilingual reasons in :mod:`referee.lineit.reasons`.
"""
