"""Stonecast's Discord bot: slash commands and buttons over the game manager.

A command travels cogs -> manager -> store and back: a handler in :mod:`bot.front.cogs` makes one
manager call, the manager answers with a value read in its own transaction, and
:class:`bot.front.announcer.Announcer` posts what everyone should see while the handler replies to
the person acting. Nothing under ``bot/`` is imported by ``engine``, ``ai`` or ``renderers``.

Map:

* :mod:`bot.__main__` -- ``python -m bot``: run until SIGINT or SIGTERM;
* :mod:`bot.config` -- the configuration, from environment variables;
* :mod:`bot.front.client` -- :class:`~bot.front.client.StonecastBot`: opens the manager, loads the cogs,
  syncs the commands; owns the render pool, the announcer and the players' display names;
* :mod:`bot.front.cogs` -- the extensions: slash commands, buttons, the maintenance loop (its map);
* :mod:`bot.front.views` -- the persistent buttons (Accept, Decline, Cancel, Resign, Rematch);
* :mod:`bot.front.replies` -- ephemeral answers; errors turned into sentences for players;
* :mod:`bot.texts` -- everything the bot says, in one module;
* :mod:`bot.front.boards` -- the pure presenter: a manager value and a PNG in, a
  :class:`~bot.front.boards.Post` (content, image, allowed mentions, buttons) out; the one place a
  file is attached (:func:`~bot.front.boards.attachment`, always with a description);
* :mod:`bot.front.alttext` -- the descriptions (alt text) of boards, replays, review charts and the
  /rules pictures, built from the position and the players' names;
* :mod:`bot.front.announcer` -- posts boards, DMs, clock events and notes; the outbox's delivery
  pass, the one policy for a failed post, the game threads;
* :mod:`bot.workers.rendering` -- the render pool: PNGs and GIFs off the event loop;
* :mod:`bot.workers.procs` -- worker processes that die with the bot;
* :mod:`bot.manager` -- game flow by concern, knowing nothing of Discord (its map);
* :mod:`bot.store` -- SQLite behind small repositories, every SQL statement (its map);
* :mod:`bot.rules.records` -- a game's text record, written and read back;
* :mod:`bot.rules.glicko2` -- Glicko-2 ratings;
* :mod:`bot.rules.timecontrol` -- per-move and bank clocks; :mod:`bot.rules.conditionals` -- conditional
  moves (pure rules the manager applies);
* :mod:`bot.workers.computer`, :mod:`bot.workers.search_pool` -- the computer opponent's moves and reviews in
  worker processes.
"""
