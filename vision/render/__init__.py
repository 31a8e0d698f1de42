"""The table renderer: generated card faces, rendered scenes with exact truth, and scenarios.

- :mod:`vision.render.faces`: ``render_face(identity, style, px_per_mm)``, ``deck_identities``,
  ``twinit_deck`` (Twin It-like patterns with near-duplicates), ``DECKS``, ``CARD_SIZE_MM``.
- :mod:`vision.render.scene`: ``random_scene(seed, ...) -> SceneSpec`` and
  ``render(spec) -> (image, FrameTruth)``: cards, hands, clutter, a board, light and camera.
- :mod:`vision.render.scenario`: keyframed table states rendered as frames with hand events;
  ``twinit_demo_scenario(seed)``, ``twixt_demo_scenario(seed)``.
- :mod:`vision.render.board`: board textures and their truth (the board reader's module).
- ``python -m vision.render.speed``: frames per second on one core.
"""
