"""Benchmark suites behind ``tableref bench SUITE``: each module has
``run(quick: bool, seed: int) -> dict`` returning the JSON object the issue specifies."""
