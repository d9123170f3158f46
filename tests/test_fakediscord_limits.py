"""The fake Discord refuses what Discord refuses (issue 18, item 1), each limit on its own.

Driven over HTTP with aiohttp, no bot involved: a payload just within a limit is accepted, one
just beyond it is answered with Discord's status, JSON code, message and ``errors`` object
naming the field, on every route that carries a message.
"""

from __future__ import annotations

import asyncio
import json

import aiohttp
import pytest
from fakediscord import FakeDiscord
from fakediscord import limits as L
from fakediscord.server import Exchange, snowflake


@pytest.fixture
async def fake():
    f = FakeDiscord()
    await f.start()
    try:
        yield f
    finally:
        await f.stop()


@pytest.fixture
async def http(fake):
    async with aiohttp.ClientSession(base_url=fake.base_url,
                                     headers={"Authorization": f"Bot {fake.token}"}) as s:
        yield s


async def call(http, method: str, path: str, body: dict | None = None,
               files: list[tuple[str, bytes]] = ()) -> tuple[int, dict | None]:
    """One request to the fake's REST API (``/api/v10`` + ``path``): JSON, or multipart with
    ``payload_json`` and ``files[n]`` when there are files, as discord.py sends them."""
    url = "/api/v10" + path
    if files:
        form = aiohttp.FormData()
        form.add_field("payload_json", json.dumps(body or {}), content_type="application/json")
        for i, (name, data) in enumerate(files):
            form.add_field(f"files[{i}]", data, filename=name, content_type="image/png")
        resp = await http.request(method, url, data=form)
    else:
        resp = await http.request(method, url, json=body)
    async with resp:
        text = await resp.text()
        return resp.status, (json.loads(text) if text else None)


def exchange(fake: FakeDiscord, *, message=None) -> Exchange:
    """An interaction as if just dispatched (type 2, or 3 on ``message``), known to the fake."""
    ex = Exchange(id=snowflake(), token=f"tok{snowflake()}", user=fake.alice,
                  type=3 if message else 2, channel_id=fake.general, message=message)
    fake.exchanges[ex.token] = ex
    return ex


def refused_at(answer: tuple[int, dict | None], path: str, status: int = 400, code: int = 50035) -> str:
    """Assert Discord's form error naming ``path`` (dotted); returns its message."""
    got_status, body = answer
    assert (got_status, body["code"]) == (status, code), answer
    if code == 50035:
        assert body["message"] == "Invalid Form Body"
        node = body["errors"]
        for key in path.split("."):
            assert key in node, (path, body["errors"])
            node = node[key]
        return node["_errors"][0]["message"]
    return body["message"]


async def post(fake, http, payload: dict, files=()):
    return await call(http, "POST", f"/channels/{fake.general}/messages", payload, files)


# ---------------------------------------------------------------- message limits, one by one

def _button(cid: str, label: str = "x") -> dict:
    return {"type": 2, "style": 1, "custom_id": cid, "label": label}


def _row(*components) -> dict:
    return {"type": 1, "components": list(components)}


def _select(n: int) -> dict:
    return {"type": 3, "custom_id": "pick",
            "options": [{"label": f"o{i}", "value": f"v{i}"} for i in range(n)]}


def _embed(**kw) -> dict:
    return {"type": "rich", **kw}


# (name, payload at the limit, payload beyond it, the field Discord names)
CASES = [
    ("content", {"content": "x" * 2000}, {"content": "x" * 2001}, "content"),
    ("embeds", {"embeds": [_embed(title="t")] * 10}, {"embeds": [_embed(title="t")] * 11}, "embeds"),
    ("embed title", {"embeds": [_embed(title="t" * 256)]}, {"embeds": [_embed(title="t" * 257)]},
     "embeds.0.title"),
    ("embed description", {"embeds": [_embed(description="d" * 4096)]},
     {"embeds": [_embed(description="d" * 4097)]}, "embeds.0.description"),
    ("embed fields", {"embeds": [_embed(fields=[{"name": "n", "value": "v"}] * 25)]},
     {"embeds": [_embed(fields=[{"name": "n", "value": "v"}] * 26)]}, "embeds.0.fields"),
    ("field name", {"embeds": [_embed(fields=[{"name": "n" * 256, "value": "v"}])]},
     {"embeds": [_embed(fields=[{"name": "n" * 257, "value": "v"}])]}, "embeds.0.fields.0.name"),
    ("field value", {"embeds": [_embed(fields=[{"name": "n", "value": "v" * 1024}])]},
     {"embeds": [_embed(fields=[{"name": "n", "value": "v" * 1025}])]}, "embeds.0.fields.0.value"),
    ("empty field value", {"embeds": [_embed(fields=[{"name": "n", "value": "v"}])]},
     {"embeds": [_embed(fields=[{"name": "n", "value": ""}])]}, "embeds.0.fields.0.value"),
    ("footer", {"embeds": [_embed(footer={"text": "f" * 2048})]},
     {"embeds": [_embed(footer={"text": "f" * 2049})]}, "embeds.0.footer.text"),
    ("author", {"embeds": [_embed(author={"name": "a" * 256})]},
     {"embeds": [_embed(author={"name": "a" * 257})]}, "embeds.0.author.name"),
    ("embeds in all", {"embeds": [_embed(description="d" * 3000), _embed(description="d" * 3000)]},
     {"embeds": [_embed(description="d" * 3000), _embed(description="d" * 3001)]}, "embeds"),
    ("action rows", {"components": [_row(_button(f"b{i}")) for i in range(5)]},
     {"components": [_row(_button(f"b{i}")) for i in range(6)]}, "components"),
    ("buttons a row", {"components": [_row(*(_button(f"b{i}") for i in range(5)))]},
     {"components": [_row(*(_button(f"b{i}") for i in range(6)))]}, "components.0.components"),
    ("button label", {"components": [_row(_button("b", "l" * 80))]},
     {"components": [_row(_button("b", "l" * 81))]}, "components.0.components.0.label"),
    ("custom_id", {"components": [_row(_button("c" * 100))]},
     {"components": [_row(_button("c" * 101))]}, "components.0.components.0.custom_id"),
    ("custom_id unique", {"components": [_row(_button("a"), _button("b"))]},
     {"components": [_row(_button("a")), _row(_button("a"))]}, "components.1.components.0.custom_id"),
    ("select options", {"components": [_row(_select(25))]}, {"components": [_row(_select(26))]},
     "components.0.components.0.options"),
]


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
async def test_a_channel_post_beyond_a_limit_is_refused_as_discord_does(fake, http, case):
    _, fits, beyond, field = case
    status, body = await post(fake, http, fits)
    assert status == 200, body
    message = refused_at(await post(fake, http, beyond), field)
    assert message.startswith(("Must be", "Embed size exceeds", "Component custom id", "This field"))
    assert len(fake.channel_messages(fake.general)) == 1  # the refused one was not created
    assert fake.errors[-1][1:] == (400, 50035) and fake.refusals[-1][1:3] == (400, 50035)


async def test_the_content_error_reads_as_discord_words_it(fake, http):
    status, body = await post(fake, http, {"content": "x" * 2525})
    assert (status, body) == (400, {"code": 50035, "message": "Invalid Form Body", "errors": {
        "content": {"_errors": [{"code": "BASE_TYPE_MAX_LENGTH",
                                 "message": "Must be 2000 or fewer in length."}]}}})


PNG = b"\x89PNG\r\n\x1a\n" + b"\0" * 16


async def test_more_than_ten_attachments_are_refused(fake, http):
    files = [(f"f{i}.png", PNG) for i in range(11)]
    refs = [{"id": i, "filename": n} for i, (n, _) in enumerate(files)]
    assert (await post(fake, http, {"attachments": refs[:10]}, files[:10]))[0] == 200
    refused_at(await post(fake, http, {"attachments": refs}, files), "attachments")


async def test_a_file_over_the_default_upload_limit_is_refused(fake, http):
    assert L.UPLOAD_BYTES == 10 * 1024 * 1024
    ok = await post(fake, http, {"attachments": [{"id": 0, "filename": "a.png"}]},
                    [("a.png", PNG + b"\0" * (L.UPLOAD_BYTES - len(PNG)))])
    assert ok[0] == 200
    answer = await post(fake, http, {"attachments": [{"id": 0, "filename": "a.png"}]},
                        [("a.png", PNG + b"\0" * (L.UPLOAD_BYTES + 1 - len(PNG)))])
    assert refused_at(answer, "", 413, 40005) == "Request entity too large"


# ---------------------------------------------------------------- every route carrying a message

async def _route_post(fake, http, payload):
    return await post(fake, http, payload)


async def _route_edit(fake, http, payload):
    _, msg = await post(fake, http, {"content": "before"})
    return await call(http, "PATCH", f"/channels/{fake.general}/messages/{msg['id']}", payload)


async def _route_callback_message(fake, http, payload):
    ex = exchange(fake)
    answer = await call(http, "POST", f"/interactions/{ex.id}/{ex.token}/callback", {"type": 4, "data": payload})
    assert ex.callback_type is None if answer[0] != 200 else ex.callback_type == 4
    return answer


async def _route_callback_update(fake, http, payload):
    _, msg = await post(fake, http, {"content": "before"})
    ex = exchange(fake, message=fake.messages[int(msg["id"])])
    return await call(http, "POST", f"/interactions/{ex.id}/{ex.token}/callback", {"type": 7, "data": payload})


async def _route_followup(fake, http, payload):
    ex = exchange(fake)
    assert (await call(http, "POST", f"/interactions/{ex.id}/{ex.token}/callback", {"type": 4, "data": {"content": "hi"}}))[0] == 200
    return await call(http, "POST", f"/webhooks/{fake.app_id}/{ex.token}", payload)


async def _route_webhook_edit(fake, http, payload):
    ex = exchange(fake)
    assert (await call(http, "POST", f"/interactions/{ex.id}/{ex.token}/callback", {"type": 5, "data": {}}))[0] == 200
    return await call(http, "PATCH", f"/webhooks/{fake.app_id}/{ex.token}/messages/@original", payload)


ROUTES = {"post": _route_post, "edit": _route_edit, "callback 4": _route_callback_message,
          "callback 7": _route_callback_update, "follow-up": _route_followup,
          "webhook edit": _route_webhook_edit}


@pytest.mark.parametrize("route", list(ROUTES))
@pytest.mark.parametrize("case", [c for c in CASES if c[0] in ("content", "embed description", "custom_id unique")],
                         ids=["content", "embed description", "custom_id unique"])
async def test_every_route_carrying_a_message_checks_it(fake, http, route, case):
    _, fits, beyond, field = case
    assert (await ROUTES[route](fake, http, fits))[0] == 200
    path = f"data.{field}" if route.startswith("callback") else field
    refused_at(await ROUTES[route](fake, http, beyond), path)


# ---------------------------------------------------------------- autocomplete

def _choices(n: int, name: str = "n", value: str = "v") -> list[dict]:
    return [{"name": name, "value": value} for _ in range(n)]


@pytest.mark.parametrize("fits, beyond, field", [
    (_choices(25), _choices(26), "data.choices"),
    (_choices(1, name="n" * 100), _choices(1, name="n" * 101), "data.choices.0.name"),
    (_choices(1, value="v" * 100), _choices(1, value="v" * 101), "data.choices.0.value"),
], ids=["25 choices", "choice name", "choice value"])
async def test_autocomplete_choices_beyond_discords_limits_are_refused(fake, http, fits, beyond, field):
    for choices, ok in ((fits, True), (beyond, False)):
        ex = exchange(fake)
        answer = await call(http, "POST", f"/interactions/{ex.id}/{ex.token}/callback",
                            {"type": 8, "data": {"choices": choices}})
        if ok:
            assert answer[0] == 200 and ex.choices == fits
        else:
            refused_at(answer, field)
            assert ex.choices is None


# ---------------------------------------------------------------- interaction timing

async def test_an_initial_response_after_three_seconds_is_unknown(fake, http):
    assert fake.response_window == 3.0
    fake.response_window = 0.05  # the same rule, without waiting 3 s in a test
    ex = exchange(fake)
    await asyncio.sleep(0.1)
    answer = await call(http, "POST", f"/interactions/{ex.id}/{ex.token}/callback", {"type": 5, "data": {}})
    assert refused_at(answer, "", 404, 10062).startswith("Unknown interaction")
    assert ex.callback_type is None and ex.completed.is_set()  # the driver call returns, refused
    assert fake.refusals[-1][1:3] == (404, 10062)


async def test_an_interaction_is_answered_once_only(fake, http):
    ex = exchange(fake)
    route = f"/interactions/{ex.id}/{ex.token}/callback"
    assert (await call(http, "POST", route, {"type": 4, "data": {"content": "one"}}))[0] == 200
    answer = await call(http, "POST", route, {"type": 4, "data": {"content": "two"}})
    assert refused_at(answer, "", 400, 40060) == "Interaction has already been acknowledged."


async def test_follow_ups_end_with_the_token_after_fifteen_minutes(fake, http):
    assert fake.token_window == 15 * 60
    ex = exchange(fake)
    assert (await call(http, "POST", f"/interactions/{ex.id}/{ex.token}/callback", {"type": 5, "data": {}}))[0] == 200
    assert (await call(http, "POST", f"/webhooks/{fake.app_id}/{ex.token}", {"content": "soon"}))[0] == 200
    ex.started -= 15 * 60 + 1  # as if dispatched a quarter of an hour ago
    answer = await call(http, "POST", f"/webhooks/{fake.app_id}/{ex.token}", {"content": "late"})
    assert refused_at(answer, "", 401, 50027) == "Invalid Webhook Token"
    answer = await call(http, "PATCH", f"/webhooks/{fake.app_id}/{ex.token}/messages/@original", {"content": "late"})
    assert refused_at(answer, "", 401, 50027) == "Invalid Webhook Token"


# ---------------------------------------------------------------- threads and DMs

async def test_a_thread_name_over_100_characters_is_refused(fake, http, monkeypatch):
    async def no_gateway(*args, **kwargs):  # no bot is connected to hear THREAD_CREATE
        return None

    monkeypatch.setattr(fake, "dispatch", no_gateway)
    route = f"/channels/{fake.general}/threads"
    assert (await call(http, "POST", route, {"name": "n" * 100, "type": 11}))[0] == 200
    refused_at(await call(http, "POST", route, {"name": "n" * 101, "type": 11}), "name")
    refused_at(await call(http, "POST", route, {"name": "", "type": 11}), "name")


async def test_a_closed_dm_is_refused_with_50007(fake, http):
    for user, ok in ((fake.alice, True), (fake.carol, False)):  # carol's DMs are closed
        _, channel = await call(http, "POST", "/users/@me/channels", {"recipient_id": str(user.id)})
        answer = await call(http, "POST", f"/channels/{channel['id']}/messages", {"content": "psst"})
        if ok:
            assert answer[0] == 200
        else:
            assert answer == (403, {"code": 50007, "message": "Cannot send messages to this user"})


# ---------------------------------------------------------------- the shared checker

def test_the_checker_lists_every_problem_with_its_path():
    payload = {"content": "x" * 2001, "embeds": [_embed(title="t" * 300)],
               "components": [_row(_button("a" * 101, "l" * 81))]}
    with pytest.raises(L.LimitError) as info:
        L.check_message(payload)
    assert sorted(L.flatten(info.value.errors)) == [
        "components.0.components.0.custom_id: Must be 100 or fewer in length.",
        "components.0.components.0.label: Must be 80 or fewer in length.",
        "content: Must be 2000 or fewer in length.",
        "embeds.0.title: Must be 256 or fewer in length."]
    L.check_message({"content": "x" * 2000})  # fits: no error
