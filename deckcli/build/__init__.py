"""Building decks from the cards a player owns, judged by simulated games (``deckcli build``,
``deckcli suggest``).

* :mod:`.collection`: the binder read exactly: each owned version of a card as its own stock,
  what the format and an event allow of it, and what is missing when no legal deck can be made;
* :mod:`.search`: a seeded search over legal decks, candidates screened with few games and only
  the promising ones given more (racing), a step taken only when a paired interval shows it
  better on the worst half of the matchups, all played through :mod:`deckcli.sim`;
* :mod:`.explain`: the start and the built deck side by side on fresh games under two
  policies, what each card of a deck adds over its best swap from the binder, and the swaps
  that improve a deck (``suggest``);
* :mod:`.diverse`: ``--diverse``'s archive of the best deck of each style;
* :mod:`.gauntlet`: the decks a build is judged against when none are given;
* :mod:`.run`: ``build`` and ``suggest`` as library calls (a :class:`.request.BuildRequest`
  in, the result out, what happens meanwhile told to a :class:`.request.Listener`), which the
  commands only fill in and print.

Every deck proposed is checked by ``validate``'s own checks before it is written: the search
never proposes a deck the rules refuse.
"""
