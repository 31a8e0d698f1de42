"""One module per ``tableref`` subcommand, each with ``add_arguments(parser)`` and ``run(args)``."""
