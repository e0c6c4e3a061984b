"""Under daphne, Django runs the middleware chain asynchronously only if every middleware can:
one synchronous middleware puts every request of the worker, views included, into its one
thread for synchronous code, where they wait for each other (docs/daily.md, "Scale")."""

from __future__ import annotations

from typing import Any

import pytest
from asgiref.sync import iscoroutinefunction
from django.test import AsyncClient
from django.utils.module_loading import import_string

from boggle_site.middleware_paths import LOOP, RUN_ON_THE_LOOP


def test_every_middleware_can_run_in_the_asynchronous_chain(settings: Any) -> None:
    sync_only = [
        path
        for path in settings.MIDDLEWARE
        if not getattr(import_string(path), "async_capable", False)
    ]
    assert sync_only == []
    assert "boggle_site.static_files.StaticFilesMiddleware" in settings.MIDDLEWARE


@pytest.mark.django_db
async def test_a_static_file_and_a_page_through_the_asynchronous_chain(settings: Any) -> None:
    settings.WHITENOISE_USE_FINDERS = True  # no collectstatic in the tests: found in static/
    settings.WHITENOISE_AUTOREFRESH = True
    client = AsyncClient()
    module = await client.get("/static/js/round_parts.js")
    assert module.status_code == 200
    assert module["Content-Type"].startswith("text/javascript")
    body = b"".join(module.streaming_content)  # type: ignore[arg-type]  # a file's chunks
    module.close()
    assert b"export function roundParts" in body
    missing = await client.get("/static/js/no-such-module.js")
    assert missing.status_code == 404
    home = await client.get("/")
    assert home.status_code == 200 and b"Boggle Online" in home.content


async def _get(app: Any, path: str) -> tuple[int, bytes]:
    """GET a path from an ASGI application as daphne would; return the status and body."""
    return await _request(app, path)


async def _request(
    app: Any, path: str, method: str = "GET", body: bytes = b""
) -> tuple[int, bytes]:
    """Send a request to an ASGI application as daphne would; return the status and body."""
    from asgiref.testing import ApplicationCommunicator

    talk = ApplicationCommunicator(app, {**_scope(path), "method": method})
    await talk.send_input({"type": "http.request", "body": body, "more_body": False})
    start, answer = await talk.receive_output(timeout=10), b""
    while True:
        part = await talk.receive_output(timeout=10)
        answer += part.get("body", b"")
        if not part.get("more_body"):
            break
    await talk.wait(timeout=10)
    return start["status"], answer


@pytest.mark.django_db(transaction=True)
async def test_requests_reuse_the_threads_of_earlier_ones_and_run_side_by_side() -> None:
    """Each request's synchronous code runs in a thread of its own, as in Django's handler,
    but a thread a finished request used serves the next instead of a new one each time."""
    import asyncio

    from boggle_site.http_threads import KEPT, KeptThreadsASGIHandler

    app = KeptThreadsASGIHandler()
    for _ in range(5):
        status, body = await _get(app, "/")
        assert status == 200 and b"Boggle Online" in body
    assert app.made == 1 and len(app.idle) == 1  # one thread served all five in turn
    answers = await asyncio.gather(*(_get(app, "/") for _ in range(4)))
    assert [status for status, _ in answers] == [200] * 4
    assert 1 <= app.made <= 4 and len(app.idle) == app.made <= KEPT
    status, _ = await _get(app, "/no-such-page/")
    assert status == 404 and len(app.idle) == app.made  # an error gives its thread back too


def _scope(path: str) -> dict[str, Any]:
    return {
        "type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "GET",
        "scheme": "http", "path": path, "raw_path": path.encode(), "query_string": b"",
        "root_path": "", "headers": [(b"host", b"testserver")], "client": ("127.0.0.1", 5000),
        "server": ("testserver", 80),
    }  # fmt: skip


@pytest.mark.django_db(transaction=True)
async def test_a_request_the_client_left_leaves_no_cycle_for_the_collector() -> None:
    import gc

    from asgiref.testing import ApplicationCommunicator
    from django.core.exceptions import RequestAborted

    from boggle_site.http_threads import KeptThreadsASGIHandler

    app = KeptThreadsASGIHandler()
    await _get(app, "/")  # warm: what the first request sets up lives on
    gc.collect()
    gc.disable()  # what the requests leave in cycles stays for the collection below
    try:
        for _ in range(3):
            talk = ApplicationCommunicator(app, _scope("/"))
            await talk.send_input({"type": "http.request", "body": b"", "more_body": False})
            assert (await talk.receive_output(timeout=10))["status"] == 200
            while (await talk.receive_output(timeout=10)).get("more_body"):
                pass
            await talk.send_input({"type": "http.disconnect"})  # as daphne does
            await talk.wait(timeout=10)
            del talk
        gc.set_debug(gc.DEBUG_SAVEALL)
        gc.collect()
        left = [o for o in gc.garbage if type(o) is RequestAborted]  # (lazy objects: no isinstance)
        handler_frames = {"handle", "listen_for_disconnect"}
        frames = [
            o for o in gc.garbage
            if type(o).__name__ == "frame" and o.f_code.co_name in handler_frames
        ]  # fmt: skip
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        gc.enable()
    assert left == [] and frames == []


@pytest.mark.django_db(transaction=True)
async def test_a_client_gone_before_the_answer_still_cancels_the_view() -> None:
    """What the handler relies on in Django 5.2: a disconnect cancels the unfinished view."""
    import asyncio

    from asgiref.testing import ApplicationCommunicator

    from boggle_site.http_threads import KeptThreadsASGIHandler

    app = KeptThreadsASGIHandler()
    started, cancelled = asyncio.Event(), asyncio.Event()

    async def slow_view(request: Any) -> Any:
        started.set()
        try:
            await asyncio.sleep(60)
        except asyncio.CancelledError:
            cancelled.set()
            raise

    app.run_get_response = slow_view  # type: ignore[method-assign]
    talk = ApplicationCommunicator(app, _scope("/"))
    await talk.send_input({"type": "http.request", "body": b"", "more_body": False})
    await asyncio.wait_for(started.wait(), 10)
    await talk.send_input({"type": "http.disconnect"})
    await asyncio.wait_for(cancelled.wait(), 10)
    await talk.wait(timeout=10)


def _hooks_recorded(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, int]]:
    """Record which thread runs each request and response hook of the loop middleware."""
    import threading

    from boggle_site import loop_middleware

    seen: list[tuple[str, int]] = []
    for name in RUN_ON_THE_LOOP.values():
        cls = getattr(loop_middleware, name)
        for hook in ("process_request", "process_response"):
            original = getattr(cls, hook, None)
            if original is None:
                continue

            def recording(self: Any, *args: Any, _o: Any = original, _n: str = name) -> Any:
                seen.append((_n, threading.get_ident()))
                return _o(self, *args)

            monkeypatch.setattr(cls, hook, recording)
    return seen


@pytest.mark.django_db(transaction=True)
async def test_djangos_middleware_runs_on_the_event_loop_with_no_thread_hand_offs(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A page's request goes through Django's middleware without leaving the event loop's
    thread (each hand-off to a thread and back cost the loop: boggle_site/loop_middleware)."""
    import threading

    from boggle_site.http_threads import KeptThreadsASGIHandler

    seen = _hooks_recorded(monkeypatch)
    app = KeptThreadsASGIHandler()
    status, body = await _get(app, "/")
    assert status == 200 and b"Boggle Online" in body
    names = {name for name, _ in seen}
    assert names == set(RUN_ON_THE_LOOP.values())  # every one of them ran
    assert {thread for _, thread in seen} == {threading.get_ident()}


def test_the_hooks_that_may_touch_the_database_still_go_to_the_thread(rf: Any) -> None:
    from django.contrib.messages.storage.fallback import FallbackStorage
    from django.contrib.sessions.backends.db import SessionStore
    from django.http import HttpResponse

    from boggle_site.loop_middleware import (
        CsrfViewMiddleware,
        MessageMiddleware,
        SessionMiddleware,
    )

    async def view(request: Any) -> Any:
        return HttpResponse()

    request, response = rf.get("/"), HttpResponse()
    request.session = SessionStore()
    sessions = SessionMiddleware(view)
    assert not sessions.response_in_thread(request, response)
    request.session["seen"] = True  # a change to save
    assert sessions.response_in_thread(request, response)
    request._messages = FallbackStorage(request)
    messages = MessageMiddleware(view)
    assert not messages.response_in_thread(request, response)
    request._messages.add(20, "Saved.")  # a message to store
    assert messages.response_in_thread(request, response)
    csrf = CsrfViewMiddleware(view)
    assert iscoroutinefunction(csrf.process_view)  # Django awaits it: no hand-off of its own


@pytest.mark.django_db(transaction=True)
async def test_a_post_without_its_csrf_token_is_refused_through_the_asynchronous_chain() -> None:
    """The check of a small form runs on the loop now, and still refuses a POST without
    its token."""
    from boggle_site.http_threads import KeptThreadsASGIHandler

    status, body = await _request(KeptThreadsASGIHandler(), "/daily/4x4/", "POST", b"nickname=A")
    assert status == 403 and b"CSRF" in body


async def test_the_csrf_check_of_a_small_form_stays_on_the_loop_and_an_upload_s_goes_to_a_thread(
    rf: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A small form's body is in memory: its check is parsing on the loop (a daily start's
    hand-off to the thread and back cost the loop more than the check). A multipart or
    large body may mean files on disk: its check goes to the thread."""
    import threading

    from django.http import HttpResponse
    from django.middleware import csrf

    from boggle_site.loop_middleware import SMALL_FORM_BYTES, CsrfViewMiddleware

    threads: list[int] = []

    def recording(self: Any, request: Any, *args: Any) -> None:
        threads.append(threading.get_ident())

    monkeypatch.setattr(csrf.CsrfViewMiddleware, "process_view", recording)

    async def view(request: Any) -> Any:
        return HttpResponse()

    middleware = CsrfViewMiddleware(view)
    form = "application/x-www-form-urlencoded"
    requests = [
        rf.post("/daily/4x4/start/", "nickname=Ann", content_type=form),
        rf.post("/upload/", {"words": "CAT"}),  # multipart, as a file upload is sent
        rf.post("/", "a=" + "b" * SMALL_FORM_BYTES, content_type=form),
        rf.get("/"),
    ]
    for request in requests:
        await middleware.process_view(request, view, (), {})  # type: ignore[misc]  # async
    here = threading.get_ident()
    assert [thread == here for thread in threads] == [True, False, False, True]


def test_djangos_checks_find_each_middleware_its_loop_version_runs(settings: Any) -> None:
    for django_path, name in RUN_ON_THE_LOOP.items():
        assert django_path in settings.MIDDLEWARE  # as `check --deploy` asks
        assert issubclass(import_string(LOOP + name), import_string(django_path))
    assert "django.middleware.gzip.GZipMiddleware" not in settings.MIDDLEWARE
