"""Errors about model files."""


class ModelError(ValueError):
    """A missing or corrupt model file; the message names the file and the command that rebuilds it."""
