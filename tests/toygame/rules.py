"""toy-duel's rules reference (ids ``TD-``) and its one gap."""

from deckcli.games.house import Gap
from deckcli.rule import Rule, checked_in_table

GAME_ID = "toy-duel"


def _r(id, title, text, refs=(), gap=False) -> Rule:
    return Rule(id, title, text, GAME_ID, tuple(refs), gap)


RULES = [
    _r("TD-1.1", "Three tricks win", "The first player to take three tricks wins; a player "
       "who must play a card and holds none loses."),
    _r("TD-1.2", "Deck size", "A deck holds at least six cards."),
    _r("TD-1.3", "Copies", "A deck holds at most three copies of a card."),
    _r("TD-2.1", "The deal", "Each deck is shuffled and its player draws three cards; the first "
       "player leads the first trick."),
    _r("TD-3.1", "Leading", "The leader plays one card from hand, face up."),
    _r("TD-3.2", "Answering", "The other player then plays one card from hand."),
    _r("TD-3.3", "The higher card takes the trick", "The higher number takes the trick; both "
       "players then draw a card if they can, and the trick's winner leads next.",
       refs=("TD-G.1",)),
    _r("TD-G.1", "Gap: equal cards", "The rules do not say who takes a trick of equal cards. "
       "House rule tie: leader (default) or answer.", refs=("TD-3.3",), gap=True),
]

GAPS = {"tie": Gap("TD-G.1", "tie", "who takes a trick of equal cards",
                   {"leader": "the leader takes it", "answer": "the answering player takes it"},
                   "leader", provisional=True)}

CHECKED_IN = checked_in_table("""
TD-1.1  engine
TD-1.2  deck_checks
TD-1.3  deck_checks
TD-2.1  engine
TD-3.1  engine
TD-3.2  engine
TD-3.3  engine
TD-G.1  engine
""")
