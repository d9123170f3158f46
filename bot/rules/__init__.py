"""Pure rules of play the manager applies: no Discord, no database, no I/O.

* :mod:`bot.rules.timecontrol` -- per-move and bank clocks;
* :mod:`bot.rules.conditionals` -- conditional-move trees (prepared replies);
* :mod:`bot.rules.glicko2` -- Glicko-2 ratings;
* :mod:`bot.rules.records` -- a game's text record, written and read back;
* :mod:`bot.rules.analysis` -- the analysis board's rule against help in a running game, by
  content (issue 23);
* :mod:`bot.rules.tournaments` -- tournaments: round robin, Swiss, knockout and league
  pairing, standings with tie-breaks (imports no other part of ``bot``).

May import: ``engine``, the standard library and ``networkx`` (Swiss pairing); of ``bot``,
only ``bot.rules`` itself and the wording layer :mod:`bot.texts` (pure too: a record's result
line and game title are worded there). :mod:`bot.rules.tournaments` imports only itself.
"""
