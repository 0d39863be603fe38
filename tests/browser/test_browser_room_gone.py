"""A page whose room Redis lost (issue 21, item 6): a Redis that keeps nothing restarts under
two pages (one in English, one in Thai) in the same room, on two server processes; each
page says the room is gone, in its language, goes home and forgets its seat."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from redis_support import RedisServer, wait_until
from test_browser_phone import PHONE, create_room, join_room
from test_browser_play import pytestmark, wait
from test_server_support import ServerThread

from unogame import i18n

__all__ = ["pytestmark"]


def test_a_page_in_a_room_redis_lost_says_so_and_goes_home(browser: Any,
                                                           tmp_path: Path) -> None:
    with RedisServer(tmp_path / "redis", ["--appendonly", "no"]) as redis_server, \
            ServerThread(redis_url=redis_server.url) as one, \
            ServerThread(redis_url=redis_server.url) as two:
        for server in (one, two):
            wait_until(lambda s=server: s.manager.hub.link_up, 20, "the Redis link")
        pages = []
        for locale in ("en-US", "th-TH"):
            context = browser.new_context(viewport=PHONE, locale=locale)
            pages.append(context.new_page())
        ann, ben = pages
        code = create_room(ann, one.url, "Ann", 3)
        join_room(ben, two.url, code, "Ben")
        assert ben.evaluate("document.documentElement.lang") == "th"
        for page in pages:  # each has its seat's token
            assert page.evaluate(f"localStorage.getItem('uno.token.{code}')")
        redis_server.kill9()
        redis_server.start()  # empty: the room is gone
        for page, language in ((ann, "en"), (ben, "th")):
            wait(page, ".home p.error", timeout=30_000)
            text = page.locator(".home p.error").inner_text()
            assert text == i18n.table(language)["web.error.room_gone"]
            assert page.evaluate("location.pathname") == "/"
            assert page.evaluate(f"localStorage.getItem('uno.token.{code}')") is None
        for page in pages:
            page.context.close()
