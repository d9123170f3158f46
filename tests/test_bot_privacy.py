"""End to end (issue 18): /privacy show and /privacy delete through the fake Discord -- private
answers within Discord's limits, the confirmation button only its owner may press, and the
finished game's /history showing "deleted player" afterwards (the name never learnt again)."""

import asyncio

from botplay import start_game
from fakediscord.fixtures import *  # noqa: F403

from bot import texts
from bot.front.client import NAME_FLUSH_DELAY


async def test_privacy_show_and_delete(fake, harness):
    manager = harness.manager
    game, _, _ = await start_game(fake, harness, "io", fake.alice, fake.bob)
    await asyncio.sleep(NAME_FLUSH_DELAY + 0.3)  # the names seen are stored
    assert await manager.display_names([fake.alice.id]) == {fake.alice.id: "Alice"}

    # running game: the deletion is refused, naming it, and no button is offered
    ex = await fake.slash(fake.alice, "privacy delete")
    assert ex.reply.ephemeral and f"Io #{game.id}" in ex.reply.content and ex.reply.custom_ids == []
    await manager.resign_game(game.id, fake.alice.id, guild_id=game.guild_id)

    ex = await fake.slash(fake.alice, "privacy show")
    assert "note" not in ex.reply.content  # none kept yet
    await fake.slash(fake.alice, "note", {"game": game.id, "text": "my plan"})
    ex = await fake.slash(fake.alice, "privacy show")
    assert ex.reply.ephemeral and ex.posts == [] and len(ex.reply.content) <= 2000
    assert "Private notes (`/note`) on 1 game," in ex.reply.content
    assert "**Alice**" in ex.reply.content and "Io 1" in ex.reply.content and "this server" in ex.reply.content
    ex = await fake.slash(fake.alice, "privacy show", dm=True)  # also in a DM: the data is hers
    assert ex.reply.ephemeral and "**Alice**" in ex.reply.content and "another server" in ex.reply.content

    ex = await fake.slash(fake.alice, "privacy delete")
    confirm = ex.reply
    assert confirm.ephemeral and confirm.custom_ids == [f"stonecast:forget:{fake.alice.id}"]
    assert texts.DELETED_PLAYER in confirm.content
    # someone else pressing it is turned away and nothing is deleted
    ex = await fake.click(fake.bob, confirm, confirm.custom_ids[0])
    assert ex.reply.ephemeral and "someone else" in ex.reply.content
    assert (await manager.stored_data(fake.alice.id)).stores_anything
    ex = await fake.click(fake.alice, confirm, confirm.custom_ids[0])
    assert confirm.components == [] and confirm.content.startswith("Done") and ex.posts == []
    data = await manager.stored_data(fake.alice.id)
    assert not data.stores_anything and data.finished_games == 1 and data.forgotten_at is not None

    # the finished game stays, with Alice shown as "deleted player" -- to Bob and to Alice
    for who in (fake.bob, fake.alice):
        ex = await fake.slash(who, "history", {"game": game.id})
        record = ex.reply.attachments[0].data.decode()
        assert texts.DELETED_PLAYER in record and "Alice" not in record and "Bob" in record
        ex = await fake.autocomplete(fake.bob, "history", {"game": ""}, focused="game")
        assert [c["name"] for c in ex.choices] == [f"Io #{game.id} vs {texts.DELETED_PLAYER} · finished"]
    await asyncio.sleep(NAME_FLUSH_DELAY + 0.3)
    assert await manager.display_names([fake.alice.id]) == {}  # not learnt again from Discord


def test_privacy_texts_fit_one_message_in_the_worst_case():
    from bot.manager import Forgotten, GameRef, StoredData, StoredRating, UserSettings

    big = 10**18
    data = StoredData(
        user_id=big, display_name="W" * 100, name_seen_at=1.7e9,
        settings=UserSettings(True, 1.8e9, 13.958, True, 23),
        conditional_games=tuple(range(10**6, 10**6 + 200)),
        ratings=tuple(StoredRating(big + i, kind, 2999.5, 350.0, 10**6)
                      for i in range(50) for kind in ("branchingcoral", "braincoral", "whirlwind", "coil", "io")),
        challenges_sent=10**6, challenges_received=10**6, dms_queued=10**9, dms_sent=10**9,
        running_games=tuple(GameRef("branchingcoral", 10**6 + i) for i in range(200)), finished_games=10**6,
        forgotten_at=1.7e9, notes=10**6)
    for text in (texts.privacy_text(data, big), texts.privacy_confirm(data.running_games),
                 texts.privacy_confirm([]),
                 texts.privacy_deleted(Forgotten(big, 1.7e9, 1, 1, 10**6, 250, 10**6, 10**9, 10**6))):
        assert len(text) <= 2000, len(text)
    shown = texts.privacy_text(data, big)
    assert "Private notes (`/note`) on 1,000,000 games" in shown
    assert shown.endswith(texts.PRIVACY_KEPT) and "and 192 more" in shown and "and 242 more" in shown and "and 188 more" in shown
