"""Twixt (Alex Randolph): pegs, links, the pie rule and the win by connection.

The engine is :class:`referee.twixt.game.TwixtGame`; board geometry and the crossing table are in
:mod:`referee.twixt.geometry`, coordinates and notation in :mod:`referee.twixt.notation`, the state's
JSON form in :mod:`referee.twixt.state_json`, bilingual reasons in :mod:`referee.twixt.reasons`, foreign
records (T1j, Little Golem, SGF) in :mod:`referee.twixt.records`.
"""
