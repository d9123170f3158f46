"""Stonecast's Discord bot: slash commands and buttons over the game manager.

A command travels cogs -> manager -> store and back: a handler in :mod:`bot.front.cogs` makes one
manager call, the manager answers with a value read in its own transaction, and
:class:`bot.front.announcer.Announcer` posts what everyone should see while the handler replies to
the person acting. Nothing under ``bot/`` is imported by ``engine``, ``ai`` or ``renderers``.

Map (each package's docstring has its own map and says what it may import; the import rules
are checked by ``tests/test_bot_layout.py``, and no module imports back up a cycle):

* :mod:`bot.__main__` -- ``python -m bot``: run until SIGINT or SIGTERM;
* :mod:`bot.config` -- the configuration, from environment variables;
* :mod:`bot.front` -- the Discord side: the client (:class:`~bot.front.client.StonecastBot`,
  whose ``setup_hook`` wires the pieces), the cogs, the persistent buttons, replies, the
  presenter of boards, alt text, the announcer, the outbox's delivery pass and game threads.
  May import all of ``bot``;
* :mod:`bot.manager` -- game flow by concern, knowing nothing of Discord (its map). May import
  :mod:`bot.store`, :mod:`bot.rules` and :mod:`bot.texts`;
* :mod:`bot.store` -- SQLite / PostgreSQL behind small repositories, every SQL statement (its
  map). May import :mod:`bot.rules` (and :mod:`bot.config`, for Alembic's environment);
* :mod:`bot.rules` -- pure rules of play the manager applies: per-move and bank clocks,
  conditional-move trees, Glicko-2, a game's text record. May import only :mod:`bot.texts`;
* :mod:`bot.workers` -- work off the event loop: worker processes, the render pool, the search
  pool and the computer opponent. May import :mod:`bot.manager`, :mod:`bot.rules` and
  :mod:`bot.texts`, never :mod:`bot.front`;
* :mod:`bot.texts` -- everything the bot says, by topic. Imports nothing else of ``bot``.
"""
