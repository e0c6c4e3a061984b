"""With the channel layer down, the sweep still ends and scores every overdue round at once:
the events are stored, and clients catch up from them when they reconnect."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from channels.layers import channel_layers

from boggle_site.ops.cluster import free_port
from games.models import Round
from games.sweeper import sweep_once
from tests.resilience.conftest import table_make

pytestmark = [pytest.mark.resilience, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def layers(settings: Any) -> Iterator[Any]:
    """Let the test change the channel layer; forget the layers it made afterwards."""
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    channel_layers.backends.clear()
    yield settings
    channel_layers.backends.clear()


def test_the_sweep_ends_every_overdue_round_while_redis_is_down(
    game_data: Any, layers: Any
) -> None:
    tables = [table_make(1, ends_in=-5) for _ in range(3)]
    layers.CHANNEL_LAYERS = {  # Redis where nothing listens: every send fails
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {"hosts": [f"redis://127.0.0.1:{free_port()}/0"]},
        }
    }
    channel_layers.backends.clear()
    assert sweep_once() == 3
    for table in tables:
        rnd = Round.objects.get(pk=table.round.pk)
        assert rnd.status == Round.FINISHED and rnd.results is not None
        assert table.room.events.filter(type="round_ended").count() == 1
