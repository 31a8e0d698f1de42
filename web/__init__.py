"""The tableref app: the live session, the FastAPI server, the SQLite event store and the CLI."""
