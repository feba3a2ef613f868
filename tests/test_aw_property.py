"""Property: random games made only of actions the referee calls legal never break a limit.

Each example deals a shared deck with a random seed, then repeatedly picks one of the legal
next actions (``referee legal``) at random. After every step the table must respect the field
limit (AW-7.1), the armor limit (AW-6.2), the hand limit at the end of a turn (AW-1.5), the
two peaceful rounds (AW-1.6) and once-per-turn discard-to-draw (AW-2.1); no card may appear or
vanish; and replaying the whole log with ``check_log`` finds no violation.
"""

from __future__ import annotations

import copy

from conftest import EXAMPLES, check_log, start_game
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from deckcli.games.alpha_walrus.play import ENGINE

DECKS = [str(EXAMPLES / "good" / "alpha-walrus-2p.yaml"),
         str(EXAMPLES / "good" / "alpha-walrus-4p.txt")]


def invariants(game, action, before_total, discards_this_turn):
    s = game.state
    assert s.card_total() == before_total
    for p in s.players.values():
        assert len(p.field) <= p.field_limit(), (p.name, [c.card.ref for c in p.field])
        for c in p.field:
            assert c.armor <= c.armor_limit(), (c.card.ref, [e.ref for e in c.equipment])
    if action["do"] == "end":
        assert len(s.players[action["player"]].hand) <= 7
    if action["do"] == "battle":
        assert s.round >= 3
    assert discards_this_turn <= 1


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), seed=st.integers(0, 10_000), deck=st.sampled_from(DECKS),
       players=st.sampled_from([2, 3, 4]))
def test_random_legal_games_never_break_a_limit(data, seed, deck, players):
    if deck == DECKS[0]:
        players = 2  # the two-player deck holds three diplomacy cards
    log = {"game": "alpha-walrus", "seed": seed, "players": players, "deck": deck,
           "actions": []}
    game = start_game(log)
    total = game.state.card_total()
    discards = 0
    for step in range(50):
        moves = ENGINE.legal_actions(game)
        if not moves:
            break
        # lean towards ending turns and battling so games reach the battle rounds
        kind = data.draw(st.sampled_from(["any", "any", "end", "battle", "summon", "equip"]))
        pool = [m for m in moves if m["do"] == kind] or moves
        action = data.draw(st.sampled_from(pool))
        action = {k: v for k, v in action.items() if k != "rules"}
        if action["do"] == "draw":
            discards = 0
        rec = game.apply(copy.deepcopy(action), step + 1)
        assert rec.ok, rec.to_json()
        discards += action["do"] == "discard-draw"
        log["actions"].append(action)
        invariants(game, action, total, discards)
    replayed = check_log(log, None, {})
    assert replayed["violations"] == []
    assert replayed["final"] == game.state.to_json()


VALUES = st.one_of(
    st.sampled_from(["alice", "bob", "zed", "Krill", "Orca", "Walrus", "AWC 22", "Goamph",
                     "Blubber Vest", "Alpha Walrus Horn", "Tusk Charge", "gear", "hand", ""]),
    st.integers(-2, 9), st.booleans(), st.none(),
    st.lists(st.sampled_from(["Krill", "Orca", 1, 6, "bob"]), max_size=3),
    st.dictionaries(st.sampled_from(["Krill", 1, "Orca"]), st.sampled_from(["Orca", 1, "x"]),
                    max_size=2))
ACTION = st.fixed_dictionaries(
    {"player": st.sampled_from(["alice", "bob"]),
     "do": st.sampled_from(["draw", "play", "summon", "equip", "place-gear", "discard-draw",
                            "battle", "summon-alpha", "recover", "discard", "end"])},
    optional={k: VALUES for k in ("card", "to", "discard", "target", "stake", "match",
                                  "battle_cards", "rolls", "take", "cancelled_by", "cards",
                                  "creatures", "fights", "alpha_equipment")})


@settings(max_examples=150, deadline=None)
@given(actions=st.lists(ACTION, max_size=8), rnd=st.integers(1, 4))
def test_no_log_crashes_the_referee(actions, rnd):
    """Any action list either replays (legal or not) or is refused as unreadable (exit 2)."""
    from deckcli.errors import DeckcliError

    log = {"game": "alpha-walrus", "seed": 1, "players": ["alice", "bob"],
           "setup": {"round": rnd,
                     "hands": {"alice": ["Krill", "Orca", "Goamph", "Tusk Charge",
                                         "Blubber Vest"],
                               "bob": ["Goamph", "Lemming", "Alpha Walrus Horn", "Orca"]},
                     "field": {"alice": ["AWC 22"], "bob": ["Walrus Calf", "Krill"]},
                     "gear": {"bob": ["Alpha Walrus Tusks"]},
                     "deck": ["Puffin", "Lynx", "Beluga"]},
           "actions": actions}
    try:
        result = check_log(log, None, {})
    except DeckcliError:
        return
    assert len(result["steps"]) == len(actions)
    for v in result["violations"]:
        assert v["rule"].startswith("AW-") and v["message"]
