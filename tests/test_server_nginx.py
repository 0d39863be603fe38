"""A whole round through a real nginx (Debian's, with the shipped docs/nginx.conf) in front
of two ``uno serve --redis`` processes (issue 13, section 2): WebSocket upgrade, round robin,
and people moved to the other process every time they reconnect."""

from __future__ import annotations

import asyncio
import re
import urllib.request
from pathlib import Path

from cluster_players import Player, table_of_players
from redis_support import (
    Nginx,
    RedisServer,
    ServeProcess,
    redis_server_fixture,  # noqa: F401 - the fixture redis_server
)
from test_server_support import run


def test_a_round_through_nginx_moving_between_processes(redis_server: RedisServer,
                                                        tmp_path: Path) -> None:
    servers = [ServeProcess(redis_server.url).launch(tmp_path / f"serve{n}.log")
               for n in range(2)]
    proxy: Nginx | None = None
    try:
        for server in servers:
            server.wait_ready()
        proxy = Nginx(tmp_path / "nginx", [server.port for server in servers]).start()
        with urllib.request.urlopen(f"http://127.0.0.1:{proxy.port}/healthz",
                                    timeout=5) as response:  # plain HTTP passes too
            assert response.status == 200
        url = proxy.ws_url

        def round_over(player: Player) -> bool:
            return any(m.get("status") in ("round_over", "match_over") or m.get("round", 1) > 1
                       for m in player.positions)

        async def scenario() -> list[Player]:
            players = await table_of_players([url], seed=7)
            for player in players:
                player.move_each_time = True
            await asyncio.gather(*[player.play(round_over, timeout=80, reconnect_every=2)
                                   for player in players])
            return players

        players = run(scenario())
        processes = {server for player in players for server in player.servers}
        assert len(processes) == 2
        for player in players:
            assert player.connections >= 3
            assert all(one != two for one, two in zip(player.servers, player.servers[1:],
                                                      strict=False))
            versions = [m["version"] for m in player.positions]
            assert versions == sorted(versions)  # the same game on either process, no step back
        assert all(round_over(player) for player in players)
        proxy.stop()
        log = proxy.access_log.read_text()
        upstreams = re.findall(r'"GET /ws HTTP/1.1" 101 (127\.0\.0\.1:\d+)', log)
        assert {f"127.0.0.1:{server.port}" for server in servers} == set(upstreams)
    finally:
        if proxy is not None:
            proxy.stop()
        for server in servers:
            server.stop()
