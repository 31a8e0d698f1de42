"""Errors the vision package raises on bad input (a ``ValueError`` family, as in ``referee``)."""


class InputError(ValueError):
    """An input that cannot be used: unreadable image, unknown source, bad parameter. The message
    names the input and what was expected, on one line."""


class SourceUnavailable(InputError):
    """A camera, stream or file that does not open or stopped giving frames."""
