"""deckcli's rules for card-database source files (ids ``DB-``), cited by ``deckcli db check``."""

from deckcli.rule import checked_in_table
from deckcli.rule import project_rule as _r

RULES = [
    _r("DB-1.1", "Set files",
       "Each YAML file under a card database folder describes one set: the game it belongs to, "
       "the set (code, name, release date) and its list of cards. A file named like one that "
       "cannot be read, and a symbolic link to a file outside the folder (or every folder "
       "deckcli --allow-read names), which is not read, is an error."),
    _r("DB-1.2", "Card entries",
       "A card entry has a collector number and a name, and either a kind (it defines or "
       "reprints a card) or version_of (it is another printing of the card with that name and "
       "number). Unknown keys and values of the wrong type are errors."),
    _r("DB-1.3", "Known games", "A set file names a game deckcli knows."),
    _r("DB-1.4", "Names a decklist can write",
       "A card's name holds none of the characters a text decklist line gives a meaning of its "
       "own: '#' and '//' (a comment), '[' and ']' (variant tags), '(' and ')' (a set code); "
       "nor a line break or another control character, and it is not blank. A card named "
       "so could be listed in YAML or JSON, but no text line, and fmt writes text.",
       refs=("DL-2.1",)),
    _r("DB-1.5", "Numbers a decklist can write",
       "A collector number is one word that a text decklist line can end with: it holds no "
       "space or other white space, no line break or other control character, neither '#' "
       "nor '//' (a comment) nor '[' or ']' (variant tags), and it is not '*F*' (the foil "
       "mark other deck tools write). A printing numbered otherwise could be listed in YAML "
       "or JSON, but no text line could name it.", refs=("DL-2.1", "DB-1.4")),
    _r("DB-2.1", "Animal statistics",
       "An Animal card gives all five battle statistics and Maximum Depth as numbers. Every "
       "figure of a card, an alpha-walrus creature's level too, is a finite number: true or "
       "false, text (even text of digits, \"12\"), NaN and infinity are not numbers."),
    _r("DB-2.2", "Plausible figures",
       "Figures are real-world values: no negatives, nothing beyond the bounds of any living "
       "animal (for example no speed over 400 km/h)."),
    _r("DB-2.3", "Rules text",
       "A card with rules text names the rules it refers to or overrides, by id, and every id "
       "must exist in the rules reference.", refs=("AB-6.4",)),
    _r("DB-2.4", "Card effects are data the referee applies",
       "What a card's text does is written beside it as effects: each entry names an effect "
       "of the card's game and, where the text says so, when it acts (a trigger), on what "
       "condition, for whom, how long, how often, what it replaces and whether its player "
       "may decline it, every word one the game knows (docs/effects.md lists them). An entry "
       "the game does not know, a key its effect does not take or a value of the wrong kind "
       "is an error on the card's line."),
    _r("DB-2.5", "No text left unapplied",
       "A card with rules text carries effect data (or overrides) that applies it, or marks "
       "the text as a reminder of the rule it restates: otherwise the referee and the "
       "simulator would ignore what it says. An error for the bundled cards, a warning for a "
       "set of one's own (the referee and the simulator then say which text they did not "
       "apply).", refs=("DB-2.4",)),
    _r("DB-3.1", "One printing, one entry",
       "A set code with a collector number is defined once across every database folder."),
    _r("DB-3.2", "One card, one set of figures",
       "When the same card (name and collector number) appears in several places, its kind, "
       "figures and text agree everywhere."),
    _r("DB-3.3", "Versions point at a card",
       "version_of names the collector number of an existing card with the same name."),
    _r("DB-3.4", "Variant tags",
       "A printing's variants are among alternate-art, foil, promotional and first-edition."),
    _r("DB-3.5", "One set, one name",
       "Several files may add cards to one set code (a new promo drop beside the official "
       "file), but they all give the set the same name."),
]


#: Where each rule is checked: the rule id, then the modules under deckcli/ that check it
#: (a line that starts with spaces goes on the one above). A test holds it to the code.
CHECKED_IN = checked_in_table("""
DB-1.1  cards/build
DB-1.2  cards/build games/alpha_walrus/cards games/animal_battle/cards
DB-1.3  cards/build
DB-1.4  cards/build
DB-1.5  cards/build
DB-2.1  cards/model games/alpha_walrus/cards games/animal_battle/cards
DB-2.2  games/alpha_walrus/cards games/animal_battle/cards
DB-2.3  games/alpha_walrus/cards games/animal_battle/cards
DB-2.4  games/effects games/animal_battle/cardtext
DB-2.5  games/effects cards/build
DB-3.1  cards/build
DB-3.2  cards/build
DB-3.3  cards/build
DB-3.4  cards/model
DB-3.5  cards/build
""")
