"""Fixtures shared by the server test modules."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from redis_support import RedisServer


@pytest.fixture(scope="module")
def redis_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RedisServer]:
    """A real redis-server for the module (AOF, appendfsync always), on a free port."""
    with RedisServer(tmp_path_factory.mktemp("redis")) as server:
        yield server
