"""The Mind (Wolfgang Warsch, 2018): play cards 1..100 in rising order without a word.

Normal and blind modes, with the hands known (the deal lists them) or unknown (the camera sees only
the pile and the cards put face up). See :mod:`referee.themind.game`.
"""
