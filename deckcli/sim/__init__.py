"""Playing many games: game-independent, over the game interface (:mod:`deckcli.games.base`).

* :mod:`.policies`: how a player chooses (random, greedy, search), a name -> policy table;
* :mod:`.play`: one game, from its number and the run's seed, through ``Engine.apply``;
* :mod:`.schedule`: which games a run plays (seat-swapped pairs), and what each needs;
* :mod:`.where`: where games run (this process, a process pool, a Dask cluster);
* :mod:`.stats`: 95% intervals (for seat-swapped pairs, for independent games, for a paired
  difference) and the stopping rule of ``--until-ci``;
* :mod:`.report`: a run's results as JSON, text, a matchup matrix (CSV and HTML).

Reproducibility is part of the interface: a game's seed comes from the run's seed and the game's
number (:func:`.schedule.game_seed`), never from the order in which workers finish, so the same
command prints the same report on one process, many, or a cluster.
"""
