"""Trio (Kei Kajino, Cocktail Games 2023): reveal cards one at a time to find three equal numbers.

The engine runs with the hands known (a deal that lists them) or unknown (the camera sees only what
is revealed); with hands unknown it remembers what every reveal proved and flags a reveal that
contradicts it. See :mod:`referee.trio.game`.
"""
