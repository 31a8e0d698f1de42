"""Game adapters: one per game, turning changes of the recognised table into referee actions."""
