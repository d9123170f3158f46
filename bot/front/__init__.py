"""The Discord side: everything that talks to Discord through discord.py.

* :mod:`bot.front.client` -- :class:`~bot.front.client.StonecastBot`; its ``setup_hook`` wires
  the pieces (manager, render pool, announcer, computer, cogs);
* :mod:`bot.front.cogs` -- the extensions: slash commands, their buttons, the maintenance loop;
* :mod:`bot.front.views` -- the persistent buttons and the typed routes to the cogs handling them;
* :mod:`bot.front.replies` -- ephemeral answers; errors turned into sentences for players;
* :mod:`bot.front.boards` -- the pure presenter (a manager value and a PNG in, a post out);
* :mod:`bot.front.alttext` -- the descriptions (alt text) of every attachment;
* :mod:`bot.front.choices` -- autocomplete labels: the manager's game choices, worded and matched;
* :mod:`bot.front.announcer` -- posts boards, DMs, clock events and notes, and game threads;
  :mod:`bot.front.delivery` -- the outbox's delivery pass and the one policy for a failed post;
  :mod:`bot.front.threads` -- each game's thread, started or recovered;
* :mod:`bot.front.tourneyposts` -- the tournament posts' outbox (issue 21): announcements with
  their Join button, pairings, standings (text and picture);
* :mod:`bot.front.languages` -- who reads what (issue 22): each interaction in its reader's
  language, public posts in the server's, DMs in the player's;
  :mod:`bot.front.translator` -- the commands' names and descriptions in each user's language.

May import: the whole of ``bot`` (:mod:`bot.manager`, :mod:`bot.store`, :mod:`bot.rules`,
:mod:`bot.workers`, :mod:`bot.texts`, :mod:`bot.config`), ``engine``, ``ai`` and ``renderers``.
Nothing outside ``bot.front`` imports it, except :mod:`bot.__main__` (the client). Inside it,
only :mod:`bot.front.cogs` imports a cog module (cogs are reached through
:meth:`bot.front.client.StonecastBot.cog` and the typed routes of :mod:`bot.front.views`).
"""
