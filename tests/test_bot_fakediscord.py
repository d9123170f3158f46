"""The fake Discord itself, driven by a minimal discord.py bot (no Stonecast code involved)."""

import asyncio
import io
import zlib

import discord
import pytest
from discord import app_commands
from discord.ext import commands
from fakediscord import PNG_SIGNATURE, FakeDiscord
from PIL import Image


def _png() -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", (4, 3), "red").save(buf, "PNG")
    return buf.getvalue()


class EchoBot(commands.Bot):
    def __init__(self, guild_id: int):
        super().__init__(command_prefix=commands.when_mentioned, intents=discord.Intents.default(),
                         guild_ready_timeout=0.01)
        self.guild_obj = discord.Object(guild_id)

    async def setup_hook(self):
        @app_commands.command(description="echo")
        @app_commands.describe(word="a word")
        async def echo(interaction: discord.Interaction, word: str, who: discord.Member | None = None):
            view = discord.ui.View()
            view.add_item(discord.ui.Button(label="press", custom_id=f"press:{word}"))
            await interaction.response.send_message(
                f"{word} {who.mention if who else ''}", ephemeral=who is None, view=view,
                file=discord.File(io.BytesIO(_png()), "b.png", description="a test picture"),
                allowed_mentions=discord.AllowedMentions(users=[who] if who else False))

        @echo.autocomplete("word")
        async def echo_ac(interaction, current: str):
            return [app_commands.Choice(name=w, value=w) for w in ("apple", "apricot", "banana")
                    if w.startswith(current)]

        @app_commands.command(description="slow")
        async def slow(interaction: discord.Interaction):
            await interaction.response.defer(thinking=True)
            channel = interaction.channel
            try:
                thread = await channel.create_thread(name="a thread", type=discord.ChannelType.public_thread)
                target = thread
            except discord.Forbidden:
                target = channel
            await target.send(f"hello {interaction.user.mention}",
                              allowed_mentions=discord.AllowedMentions(users=[interaction.user]))
            await interaction.followup.send(f"done <@{interaction.user.id}>")

        @app_commands.command(description="dm me")
        async def dm(interaction: discord.Interaction):
            try:
                await interaction.user.send("psst")
                await interaction.response.send_message("sent", ephemeral=True)
            except discord.Forbidden as e:
                await interaction.response.send_message(f"closed {e.code}", ephemeral=True)

        @app_commands.command(description="posts after answering")
        async def later(interaction: discord.Interaction, count: int):
            await interaction.response.send_message("soon", ephemeral=True)
            for n in range(count):
                await asyncio.sleep(0.02)  # work after the answer: drawing a board, say
                await interaction.channel.send(f"post {n}")

        for cmd in (echo, slow, dm, later):
            self.tree.add_command(cmd, guild=self.guild_obj)
        await self.tree.sync(guild=self.guild_obj)

    async def on_interaction(self, interaction: discord.Interaction):
        if interaction.type is discord.InteractionType.component:
            await interaction.response.edit_message(content=f"pressed by {interaction.user.name}", view=None)


@pytest.fixture
async def echo():
    fake = FakeDiscord()
    await fake.start()
    restore = fake.patch_discord()
    bot = EchoBot(fake.guild_id)
    task = asyncio.create_task(bot.start(fake.token))
    ready = asyncio.ensure_future(bot.wait_until_ready())
    await asyncio.wait([ready, task], timeout=10, return_when=asyncio.FIRST_COMPLETED)
    assert ready.done(), task.exception() if task.done() else "no READY"
    yield fake, bot
    await bot.close()
    await task
    restore()
    await fake.stop()


async def test_ready_commands_and_intents(echo):
    fake, bot = echo
    assert bot.get_guild(fake.guild_id) is not None
    assert sorted(c["name"] for c in fake.guild_commands[fake.guild_id]) == ["dm", "echo", "later", "slow"]
    assert fake.identifies[0]["intents"] == discord.Intents.default().value
    assert not fake.unknown_routes


async def test_reply_with_file_button_and_click(echo):
    fake, _ = echo
    ex = await fake.slash(fake.alice, "echo", {"word": "hi"})
    assert ex.callback_type == 4
    reply = ex.reply
    assert reply.ephemeral and reply.content.startswith("hi")
    assert reply.attachments[0].data.startswith(PNG_SIGNATURE)
    assert reply.attachments[0].description == "a test picture"
    assert reply.png().size == (4, 3)
    assert reply.custom_ids == ["press:hi"]
    ex2 = await fake.click(fake.bob, reply, "press:hi")
    assert ex2.callback_type == 7
    assert reply.content == "pressed by bob" and reply.components == []


async def test_mentions_ping_only_allowed_users(echo):
    fake, _ = echo
    ex = await fake.slash(fake.alice, "echo", {"word": "yo", "who": fake.bob})
    assert not ex.reply.ephemeral
    assert ex.reply.pings == {fake.bob.id}


async def test_autocomplete(echo):
    fake, _ = echo
    ex = await fake.autocomplete(fake.alice, "echo", {"word": "ap"}, focused="word")
    assert ex.callback_type == 8
    assert [c["value"] for c in ex.choices] == ["apple", "apricot"]


async def test_defer_thread_and_fallback(echo):
    fake, bot = echo
    ex = await fake.slash(fake.alice, "slow")
    assert ex.callback_type == 5
    thread = fake.threads()[0]
    post = ex.posts[0]
    assert post.channel_id == int(thread["id"]) and post.pings == {fake.alice.id}
    # completing a deferred reply is an edit: its mention does not ping
    assert ex.reply.content == f"done <@{fake.alice.id}>" and ex.reply.pings == frozenset()
    assert bot.get_channel(int(thread["id"])) is not None  # THREAD_CREATE reached the cache
    ex = await fake.slash(fake.alice, "slow", channel=fake.nothreads)
    assert ex.posts[0].channel_id == fake.nothreads
    assert ex.errors and ex.errors[0][1:] == (403, 50013)


@pytest.mark.parametrize("count", [1, 40])
async def test_what_a_handler_posts_after_answering_is_part_of_the_exchange(echo, count):
    # one post: the handler ends within the settle time and is seen to its end; forty (0.8 s
    # and more): it outlasts it, and the bot's silence decides. The settle time is half a
    # second here, not 30 ms: on a loaded machine a handler's 20 ms pause and its post may
    # take longer than 30 ms, and the exchange would end before the post
    fake, _ = echo
    fake.settle = 0.5
    ex = await fake.slash(fake.alice, "later", {"count": count})
    assert ex.reply.content == "soon"
    assert [m.content for m in ex.posts] == [f"post {n}" for n in range(count)]


async def test_closed_dms(echo):
    fake, _ = echo
    assert (await fake.slash(fake.alice, "dm")).reply.content == "sent"
    assert fake.channel_messages(fake.dm_channel(fake.alice))[0].content == "psst"
    assert (await fake.slash(fake.carol, "dm")).reply.content == "closed 50007"


async def test_driver_rejects_what_discord_would(echo):
    fake, _ = echo
    with pytest.raises(AssertionError, match="required"):
        await fake.slash(fake.alice, "echo", {})
    with pytest.raises(AssertionError, match="not synced"):
        await fake.slash(fake.alice, "nope", {})


async def test_zlib_stream_frames_decode():
    # the gateway compresses with one zlib stream per connection, flushed per message
    comp, dec = zlib.compressobj(), zlib.decompressobj()
    for text in (b'{"op":10}', b'{"op":0}'):
        frame = comp.compress(text) + comp.flush(zlib.Z_SYNC_FLUSH)
        assert frame.endswith(b"\x00\x00\xff\xff")
        assert dec.decompress(frame) == text
