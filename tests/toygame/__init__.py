"""toy-duel: a game small enough to read in one sitting, registered only by the tests.

It exists to prove that deckcli's generic code (validate, rules, referee check and legal,
setup, simulate with every generic policy, build) runs on any game that implements the game
interface, with no change outside the game's own package: it is added exactly as
docs/design.md ("Adding a game") says, and the tests register it with ``DECKCLI_GAMES=toygame``
(with ``tests/`` on ``PYTHONPATH``) and give its cards with ``--db tests/toygame/card_db``.

The game: each player has a deck of numbered cards and draws three. The leader plays a card
face up, the other player answers with one; the higher number takes the trick (a tie is a gap,
TD-G.1), both draw one, and the trick's winner leads the next. Three tricks win; a player who
cannot play when asked loses.
"""

from deckcli.games.base import Game

HAND = 3  # TD-2.1
TRICKS_TO_WIN = 3  # TD-1.1
MIN_DECK = 6  # TD-1.2
COPY_LIMIT = 3  # TD-1.3


class ToyDuel(Game):
    id = "toy-duel"
    formats = ("standard",)
    default_format = "standard"
    kinds = {"number": "Numbers"}
    key_stats = ("value",)
    win_rule = "TD-1.1"
    rule_prefix = "TD"
    opening_hand = HAND
    build_effort = (200, 40)

    parts = {
        "rules": "toygame.rules:RULES",
        "gaps": "toygame.rules:GAPS",
        "deck_checks": "toygame.deck_checks",
        "card_entry": "toygame.deck_checks:check_entry",
        "setup": "toygame.setup",
        "engine": "toygame.engine:ENGINE",
        "policies": "toygame.policies",
        "worth": "toygame.policies:worth",
    }


GAME = ToyDuel()
