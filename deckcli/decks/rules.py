"""deckcli's own rules for reading decklists (ids ``DL-``), cited by parser diagnostics.

These are not game rules: they say how a file is read and what an entry means, so that a
player whose list is rejected can look up exactly why.
"""

from deckcli.rule import checked_in_table
from deckcli.rule import project_rule as _r

RULES = [
    _r("DL-1.1", "Readable files",
       "A decklist is a UTF-8 file (a byte-order mark is allowed) with LF or CRLF line ends. "
       "A file in another encoding, a binary file, one over the size limits or one with "
       "nothing in it but blank space is not a decklist."),
    _r("DL-1.2", "File kinds",
       "Files ending .txt, .deck or .dck (Forge) are text decklists, .yaml or .yml YAML "
       "decklists, .json JSON decklists, .cod Cockatrice and .dek MTGO decklists (DL-2.9); "
       ".csv files have the columns count, name, set, number, variants (any case; other "
       "tools' Quantity is count, Collector Number is number, and a Foil column of foil, true, "
       "yes or 1 means the foil version, of empty, false, no, 0 or normal any version, any "
       "other value an error on its line).", refs=("DL-2.9",)),
    _r("DL-1.3", "Limits",
       "A decklist file is at most 1 MiB, a line at most 4,096 characters, a count at most "
       "999 per entry, a deck at most 5,000 entries and YAML or JSON nested at most 32 deep."),
    _r("DL-1.4", "Folders",
       "A folder given to a command is walked for decklist files (hidden names and symlinked "
       "folders left out). What the walk finds but cannot read (a folder that cannot be "
       "listed, a path too long for the system, a deck file that cannot be opened) is a "
       "problem on the report, and the run fails: a deck is never silently left out. A "
       "symbolic link to a file outside the folder walked (or every folder deckcli "
       "--allow-read names) is not opened: it is such a problem, and nothing of the file is "
       "shown."),
    _r("DL-2.1", "Entry lines",
       "An entry line starts with a quantity (4, 4x, x4 or 4 x), then the card name, then "
       "optionally (SET) NUMBER naming one printing, then optional variant tags in brackets."),
    _r("DL-2.2", "Quantities",
       "A quantity is a whole number of at least 1 and at most 999."),
    _r("DL-2.3", "Header lines",
       "Before the first entry a text decklist may hold header lines game:, format:, "
       "players:, name: and player:. Header lines after the first entry are an error. A "
       "header line with no value after it is a warning and counts as absent."),
    _r("DL-2.4", "Section headers",
       "A line naming a card kind in the plural (Animals, Actions, Creatures, ...) with an "
       "optional ':' and count starts a section. A section count that does not match the "
       "entries below it is a warning, and so is a section of a kind the deck's game does not "
       "have (Creatures in an animal-battle deck)."),
    _r("DL-2.5", "Other lines",
       "Blank lines and comments (from '#' or '//' to the end of the line) are ignored. Any "
       "other line that does not start with a quantity, and is none of the lines of other "
       "tools' layouts (DL-2.8), is an error on that line.", refs=("DL-2.8",)),
    _r("DL-2.6", "Structured decklists",
       "YAML and JSON decklists are a mapping with optional game, format, players, name and "
       "player and a list cards of entries {count, name, set, number, variants}."),
    _r("DL-2.7", "Sideboards",
       "Neither game has a sideboard. Cards that a decklist lists in one (after a Sideboard, "
       "Side, SB: or // Sideboard line, on an 'SB: 2 Walrus' or 'SB 2 Walrus' line, in "
       "Forge's [sideboard], in Archidekt's Maybeboard or Sideboard category (or one marked "
       "{noDeck}), "
       "Cockatrice's side zone or MTGO's Sideboard=\"true\") are not part of the deck: they "
       "are not counted or checked, and a warning says how many were left out and on which "
       "lines. A Deck, Main or Maindeck line goes back to the deck.", refs=("DL-2.8",)),
    _r("DL-2.8", "Other tools' layouts",
       "A text decklist may also be written as other deck tools export it: the count after "
       "the card (Walrus x4, Walrus (ABS) 12 x4); Deck, Main and Maindeck lines (any case, "
       "':' optional) where the deck starts; MTG Arena's About and 'Name Deep Divers' lines "
       "before the first entry, naming the deck; Moxfield's *F* after an entry for the foil "
       "version; Archidekt's and TCGplayer's categories in brackets ([Animals]: a word "
       "that is no variant tag and starts with a capital letter, read as nothing) and "
       "^Have,#37d67a^ markers after an entry; Forge's Walrus|ABS for a card of set ABS "
       "(Forge's third field is its art index, not a collector number); and Forge's .dck "
       "layout, [metadata] with Name=..., [general] with the deck's type (Constructed), then "
       "[main] and [sideboard]. No option is needed: each line says what it is.",
       refs=("DL-2.7",)),
    _r("DL-2.9", "XML decklists",
       "Cockatrice .cod files (<cockatrice_deck> with <deckname>, <comments> and <zone> "
       "elements of <card number=... name=...>) and MTGO .dek files (<Deck> of <Cards "
       "Quantity=... Sideboard=... Name=...>) are decklists. XML is read without entities: "
       "a file that declares one (an entity bomb, an external entity), names an external "
       "DTD or gives an attribute a default value in its DTD (a value the file never "
       "writes out) is not read, and the error is on that line; a file that is not well-formed XML "
       "is an error on the line where it breaks.", refs=("DL-2.7",)),
    _r("DL-3.1", "Matching names",
       "Names match without regard to case, after Unicode NFKC normalisation and folding of "
       "runs of white space; curly and straight apostrophes are the same."),
    _r("DL-3.2", "Collector numbers",
       "Collector numbers compare with leading zeros of the numeric part ignored (012 is 12), "
       "but a letter makes a number of its own (12a is not 12)."),
    _r("DL-3.3", "Unknown cards",
       "A name or printing that is not in the card database is an error. deckcli may suggest "
       "close names but never replaces the name with a guess."),
    _r("DL-3.4", "Ambiguous names",
       "A name shared by several cards (different collector numbers) must be given with its "
       "set and number; otherwise the entry is ambiguous and an error."),
    _r("DL-3.5", "Printing and name disagree",
       "A (SET) NUMBER that names a printing of a different card than the name given is an "
       "error; deckcli does not pick one of the two."),
    _r("DL-4.1", "Variant tags",
       "The variant tags are alternate-art, foil, promotional and first-edition (also written "
       "alt-art, promo, 1st-edition, 1st). Any other tag is an error on its line, except "
       "another tool's category (DL-2.8).", refs=("DL-2.8",)),
    _r("DL-4.2", "Tags narrow, never add",
       "Tags only say which version of a printing is meant. A tag the printing does not exist "
       "in is an error; leaving tags out is always allowed."),
    _r("DL-5.1", "Which game, format and table apply",
       "The command-line option wins, then the event file, then the decklist's header, then "
       "the defaults animal-battle and casual. The table a shared deck (alpha-walrus) is "
       "checked and dealt for is --players, else the decklist's players: header, else 2; an "
       "event file does not set it."),
    _r("DL-5.2", "Unknown game, format or table",
       "A game or format that deckcli does not know is an error in the decklist header, and "
       "so is a players: header that is not a whole number from 2 to 12."),
    _r("DL-5.3", "Options that change nothing, and overridden headers",
       "An option the deck's game has no use for (a format for alpha-walrus, a number of "
       "players for an animal-battle deck check, given as --players or as a players: header, "
       "an opponent's deck for alpha-walrus's one shared deck) changes nothing and is "
       "reported as a warning. So is a game taken from "
       "the command line or the event file that differs from the game the decklist's header "
       "names: the deck is then checked by the rules of a game it was not written for."),
]


#: Where each rule is checked: the rule id, then the modules under deckcli/ that check it
#: (a line that starts with spaces goes on the one above). A test holds it to the code.
CHECKED_IN = checked_in_table("""
DL-1.1  decks/reader
DL-1.2  decks/csvdeck
DL-1.3  decks/csvdeck decks/reader decks/structured decks/text decks/xmldeck
DL-1.4  validate
DL-2.1  decks/lines decks/model decks/xmldeck
DL-2.2  decks/lines decks/structured
DL-2.3  decks/text
DL-2.4  validate
DL-2.5  decks/text
DL-2.6  decks/structured
DL-2.7  decks/layouts decks/lines
DL-2.8  decks/layouts decks/lines
DL-2.9  decks/xmldeck
DL-3.1  cards/names
DL-3.2  cards/names
DL-3.3  decks/resolve sim/run
DL-3.4  decks/resolve sim/run
DL-3.5  decks/resolve
DL-4.1  decks/csvdeck decks/lines decks/structured
DL-4.2  decks/resolve
DL-5.1  validate
DL-5.2  decks/header validate
DL-5.3  cli/common decks/header validate
""")
