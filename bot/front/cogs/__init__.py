"""The bot's cogs, each a discord.py extension (``async def setup(bot)``) that
:meth:`bot.front.client.StonecastBot.setup_hook` loads by name (:data:`EXTENSIONS`):

* ``challenges`` -- /challenge, the Accept / Decline / Cancel and Rematch buttons;
* ``play`` -- /move (with its autocomplete), /resign and its button, /board, /games;
* ``conditional`` -- /conditional add, list, clear: prepared replies (issue 13);
* ``turns`` -- move confirmation (Confirm / Cancel), /next and its Next button, the daily
  digest DM (issue 13);
* ``settings`` -- /settings: DMs off / on / daily digest, move confirmation (issue 13);
* ``history`` -- /history: a game's record and replay;
* ``admin`` -- /abort (moderators);
* ``players`` -- /notify, /vacation, /leaderboard, /profile;
* ``info`` -- /rules and /help (also in direct messages);
* ``privacy`` -- /privacy show, delete and its button: a player's own data (issue 18; also in
  direct messages);
* ``tournaments`` -- /tournament and the Join button of an announcement (issue 21);
* ``analysis`` -- /analyze and its board's buttons, /note (issue 23);
* ``maintenance`` -- the ``tasks`` loop: expiring challenges, sweeping clocks, delivering the outbox.

``common`` is no extension: what the cogs share (the ``game:`` option: reading it,
suggesting games, the game choices).

A handler defers, makes one manager call, hands what must be posted for everyone to
:meth:`bot.front.announcer.Announcer.publish` and answers the person acting (wording in
:mod:`bot.texts`).

May import what :mod:`bot.front` may. Only a cog module imports another cog module; a cog
reaches another by its class (``self.bot.cog(TurnsCog)``), and the persistent buttons of
:mod:`bot.front.views` reach theirs through the bot's typed ``buttons`` routes, which the
challenges, play and privacy cogs fill when they load.
"""

EXTENSIONS = tuple(f"bot.front.cogs.{name}" for name in
                   ("challenges", "play", "conditional", "turns", "settings", "history", "admin",
                    "players", "info", "privacy", "tournaments", "analysis", "maintenance"))
