"""Playing many games: game-independent, over the game interface (:mod:`deckcli.games.base`).

* :mod:`.request`: what ``deckcli simulate`` asks (``SimulateRequest``), what a run tells as it
  goes (``Listener``) and what it returns (``Simulation``);
* :mod:`.run`: the run from request to result (``simulate``): the decks read, the game, the
  seats and house rules settled, the games planned (seat-swapped pairs, batches for
  ``--until-ci``) and played where asked, the sensitivity runs;
* :mod:`.policies`: how a player chooses (random, search, each game's heuristics), a name ->
  policy table; :mod:`.search`: information-set tree search, for every game;
* :mod:`.play`: one game, from its number and the run's seed, through ``Engine.apply``;
* :mod:`.where`: where games run (this process, a process pool, a Dask cluster);
* :mod:`.stats`: 95% intervals (for seat-swapped pairs, for independent games, for a paired
  difference) and the stopping rule of ``--until-ci``;
* :mod:`.report`: a run's results as JSON and text; :mod:`.matrix`: a matchup matrix as text,
  CSV and HTML; :mod:`.logs`: each game's log written with ``--save-games``.

Reproducibility is part of the interface: a game's seed comes from the run's seed and the game's
number (:func:`.play.game_seed`), never from the order in which workers finish, so the same
command prints the same report on one process, many, or a cluster.
"""
