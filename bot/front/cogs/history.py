"""/history: a game's record as a text file, with an animated replay once it is over; /review: the
chart of a finished game's chances, searched in the background (:mod:`bot.workers.computer`)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.app_commands import locale_str as _T
from discord.ext import commands

from ai.review import Swing
from bot import texts
from bot.front import alttext
from bot.front.boards import attachment
from bot.front.replies import ephemeral
from bot.manager import Refusal, UserError
from bot.texts import i18n
from bot.workers.search_pool import SearchBusy

from .common import game_autocomplete, reviewable_game_autocomplete

if TYPE_CHECKING:
    from bot.front.client import StonecastBot

log = logging.getLogger("stonecast.bot")


class HistoryCog(commands.Cog, name="History"):
    """Records and replays of games."""

    def __init__(self, bot: StonecastBot):
        self.bot = bot

    @app_commands.command(name=_T("history"), description=_T("A game's record as a text file, with a replay once it is over"))
    @app_commands.describe(game=_T("The game's number"))
    @app_commands.guild_only()
    async def history(self, interaction: discord.Interaction, game: int) -> None:
        """/history game:<id> -- the text record, plus a GIF replay once over."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        rec = await self.bot.manager.game_record(interaction.user.id, game_id=game, guild_id=interaction.guild_id)
        g = rec.game
        names = await self.bot.player_names(g)
        label = texts.game_label(g.kind, g.id)
        plain = await self.bot.player_names(g, levels=False) if g.ai_seat is not None else names
        files = [attachment(rec.text(plain).encode(), f"stonecast-{g.id}.txt", alttext.record(g))]
        if g.status != "active" and g.ply:
            gif = await self.bot.renderer.render_gif(g.kind, g.options, rec.move_texts, names)
            files.append(attachment(gif, f"stonecast-{g.id}.gif", alttext.replay(g, names)))
        await ephemeral(interaction, texts.history_text(label, g.ply, over=g.status != "active"), files=files)

    history.autocomplete("game")(game_autocomplete)

    @app_commands.command(name=_T("review"), description=_T("Where a finished game was won and lost: a chart of the chances"))
    @app_commands.describe(game=_T("The finished game's number"))
    @app_commands.guild_only()
    async def review(self, interaction: discord.Interaction, game: int) -> None:
        """/review game:<id> -- the search over every position of a finished game, in the
        background: a message edited with the progress, then the chart and the swings."""
        # refusals (another server's game too) answer privately, at once
        item = await self.bot.manager.review_input(game, user_id=interaction.user.id,
                                                   guild_id=interaction.guild_id)
        if item.cached is None and self.bot.computer.reviewing(item.game.id):
            raise UserError(Refusal.REVIEW_BUSY)
        await interaction.response.defer(thinking=True)
        g = item.game
        label = texts.game_label(g.kind, g.id)
        shown = {"pct": -1, "at": 0.0}
        edits: set[asyncio.Task[discord.InteractionMessage]] = set()
        language = i18n.current_locale()  # the callback may come from another context

        def progress(done: int, total: int) -> None:
            pct = round(100 * done / total) if total else 0
            now = time.monotonic()
            if pct - shown["pct"] >= 10 and now - shown["at"] >= 1.0:
                shown.update(pct=pct, at=now)
                with i18n.speaking(language):
                    content = texts.review_progress(label, done, total)
                task = asyncio.create_task(interaction.edit_original_response(content=content))
                edits.add(task)
                task.add_done_callback(edits.discard)

        if item.cached is None:
            await interaction.edit_original_response(content=texts.review_progress(label, 0, 1))
        try:
            data = await self.bot.computer.review(item, progress)
        except SearchBusy:  # another process reviews it now (issue 14: one process per review)
            await interaction.edit_original_response(content=i18n._(texts.REVIEW_BUSY))
            return
        except Exception:
            log.exception("review of game %s failed", g.id)
            await interaction.edit_original_response(content=i18n._(texts.REVIEW_FAILED))
            return
        for task in list(edits):
            with contextlib.suppress(Exception):
                await task
        names = await self.bot.player_names(g)
        png = await self.bot.renderer.render_review(data, names, g.position)
        swings = []
        for sw in data["swings"]:  # before and after: the mover's chances
            mover = Swing(**{k: sw[k] for k in ("ply", "seat", "move", "preferred", "before", "after")})
            swings.append((texts.review_swing(mover.ply, names[mover.seat], mover.move,
                                              mover.before, mover.after), mover.preferred))
        await interaction.edit_original_response(
            content=texts.review_text(label, swings),
            attachments=[attachment(png, f"stonecast-{g.id}-review.png", alttext.review(g, data, names))],
            allowed_mentions=discord.AllowedMentions.none())

    review.autocomplete("game")(reviewable_game_autocomplete)


async def setup(bot: StonecastBot) -> None:
    """The extension's entry point (``bot.load_extension("bot.front.cogs.history")``)."""
    await bot.add_cog(HistoryCog(bot))
