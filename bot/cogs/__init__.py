"""The bot's cogs, each a discord.py extension (``async def setup(bot)``) that
:meth:`bot.client.StonecastBot.setup_hook` loads by name (:data:`EXTENSIONS`):

* ``challenges`` -- /challenge, the Accept / Decline / Cancel and Rematch buttons;
* ``play`` -- /move (with its autocomplete), /resign and its button, /board, /games;
* ``history`` -- /history: a game's record and replay;
* ``admin`` -- /abort (moderators);
* ``players`` -- /notify, /vacation, /leaderboard, /profile;
* ``info`` -- /rules and /help (also in direct messages);
* ``maintenance`` -- the ``tasks`` loop: expiring challenges, sweeping clocks, delivering the outbox.

``common`` is no extension: what the cogs share (the ``game:`` option: reading it,
suggesting games, the game choices).

A handler defers, makes one manager call, hands what must be posted for everyone to
:meth:`bot.announcer.Announcer.publish` and answers the person acting (wording in
:mod:`bot.texts`).
"""

EXTENSIONS = tuple(f"bot.cogs.{name}" for name in
                   ("challenges", "play", "history", "admin", "players", "info", "maintenance"))
