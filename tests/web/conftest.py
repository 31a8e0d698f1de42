from __future__ import annotations

from pathlib import Path

import pytest

from web.settings import Settings


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return Settings(
        game="twinit", mode="competitive", players=("Ana", "Ben"), options={"cards": 10}, data_dir=tmp_path
    )
