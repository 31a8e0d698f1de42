"""Frames in, a recognised table out: sources, card finding, tracking, hands, identity, the Twixt
board, and the scene renderer that tests, training and the demo use."""
