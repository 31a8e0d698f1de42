"""Training scripts for the identity models (PyTorch, CPU; the optional ``train`` extra).

The data come from face providers handed in by the caller (the renderer's decks, wrapped in
``vision.identity.render_decks``, and the procedural decks of :mod:`models.training.patterns`),
so this package imports nothing of ``vision``. Everything is seeded and deterministic.
"""
