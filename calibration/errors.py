"""Errors the calibration package raises on bad input."""


class InputError(ValueError):
    """A profile, image or parameter that cannot be used; the message names it, on one line."""
