"""Fixtures the ttnn tests share."""

from __future__ import annotations

from typing import Iterator

import pytest

import tilecraft.ttnn as ttnn


@pytest.fixture
def device() -> Iterator[ttnn.Device]:
    """Simulated chip 0, opened for the test and closed after it."""
    opened = ttnn.open_device(device_id=0)
    yield opened
    ttnn.close_device(opened)
