"""Work off the event loop: worker processes and the pools that feed them.

* :mod:`bot.workers.procs` -- worker processes that die with the bot;
* :mod:`bot.workers.rendering` -- the render pool: PNGs, GIFs and review charts;
* :mod:`bot.workers.search_pool` -- one fair queue of MCTS searches in worker processes (with
  an analysis lane, issue 23); :mod:`bot.workers.search_jobs` -- what its workers run;
  :mod:`bot.workers.search_terms` -- its errors, its size and the time cap of a search with a
  deadline;
* :mod:`bot.workers.computer` -- the computer opponent's moves and /review, through the manager.

May import: ``engine``, ``ai``, ``renderers``, and of ``bot`` the manager (:mod:`bot.manager`),
the rules (:mod:`bot.rules`), the wording (:mod:`bot.texts`) and itself -- never the Discord
side (:mod:`bot.front`): what the computer plays reaches Discord through the ``on_move``
function it is built with.
"""
