"""deckcli's own rules for event files (ids ``EV-``): what a ban, a limit or a legal set means."""

from deckcli.rule import checked_in_table
from deckcli.rule import project_rule as _r

RULES = [
    _r("EV-1.1", "Banned cards",
       "A card on the event's ban list may not be played in any version: every printing and "
       "variant of the banned identity is banned.", refs=("AB-1.6",)),
    _r("EV-1.2", "When a ban applies",
       "A ban entry with an effective date applies from that date on; the event's date (or "
       "--as-of) decides. An entry without a date always applies."),
    _r("EV-1.3", "Limited cards",
       "A card the event limits may be played in at most the given number of copies, all "
       "versions counted together."),
    _r("EV-2.1", "Legal sets",
       "When an event lists legal sets, every printing in a deck must come from one of them. "
       "The printed card is what is played: a printing from another set is an error even when "
       "the same card also exists in a legal set. An entry naming no printing is read as the "
       "card in any legal set, narrowed by what the entry does say: a set it names must be "
       "legal, and its variant tags must exist in a printing from a legal set."),
    _r("EV-3.1", "Roster",
       "When an event has a players roster, every listed player must have a readable deck at "
       "the listed path (relative to the event file), and a deck file in the event's folders "
       "that no player is listed for is reported."),
    _r("EV-3.2", "Paths in event files and game logs",
       "A deck path in an event file's roster or a game log is relative to that file and must "
       "lead to a file inside the file's own folder (symbolic links followed), or inside a "
       "folder the user allows with deckcli --allow-read; an absolute path or one that leads "
       "outside is refused, and nothing there is read; a symbolic link among the deck files "
       "beside the roster's that leads outside is not read either. A file reached this way "
       "none of whose lines is a card entry is not a decklist: it is reported so, without "
       "its lines.",
       refs=("EV-3.1",)),
    _r("EV-4.1", "House rules",
       "An event's house_rules decide situations the game rules leave open; the referee names "
       "the ruling it applied."),
]


#: Where each rule is checked: the rule id, then the modules under deckcli/ that check it
#: (a line that starts with spaces goes on the one above). A test holds it to the code.
CHECKED_IN = checked_in_table("""
EV-1.1  events/checks
EV-1.2  events/checks
EV-1.3  games/animal_battle/deck_checks
EV-2.1  events/checks
EV-3.1  roster
EV-3.2  decks/linked events/model roster games/animal_battle/logfile games/alpha_walrus/state
EV-4.1  events/model
""")
