"""Cockatrice ``.cod`` and MTGO ``.dek`` decklists (XML; rules DL-2.7, DL-2.9)::

    <cockatrice_deck version="1">                   <Deck>
      <deckname>Deep Divers</deckname>                <Cards Quantity="4" Sideboard="false"
      <comments>...</comments>                               Name="Walrus"/>
      <zone name="main">                            </Deck>
        <card number="4" name="Walrus" setShortName="ABS" collectorNumber="12"/>
      </zone>
      <zone name="side">...</zone>                  (Sideboard="true": the sideboard)
    </cockatrice_deck>

XML from strangers is read with defusedxml, the library made for exactly that: an entity
declaration (a "billion laughs" bomb, an external entity), a reference to an external DTD and
an attribute default a DTD declares (``<!ATTLIST card number CDATA "999">`` would give every
``<card>`` a count the file never shows) are refused where they stand, before anything is
expanded or fetched; the file is already bounded in size (DL-1.3), and so are its elements
and their nesting here. Every entry keeps the line of its element (expat reports it).
defusedxml is imported only when an XML file is read.
"""

from __future__ import annotations

from deckcli.decks.limits import MAX_DEPTH, MAX_ENTRIES
from deckcli.decks.model import Deck
from deckcli.diagnostics import error

_ROOT = {"cod": "cockatrice_deck", "dek": "Deck"}
_TOOL = {"cod": "Cockatrice", "dek": "MTGO"}
MAX_ELEMENTS = 4 * MAX_ENTRIES


class _Refused(Exception):
    """The XML is cut short: too many elements, nested too deep, or an external DTD."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code, self.message = code, message


class _Node:
    __slots__ = ("tag", "attrib", "line", "children", "text")

    def __init__(self, tag: str, attrib: dict, line: int):
        self.tag, self.attrib, self.line = tag.rpartition("}")[2], attrib, line
        self.children: list[_Node] = []
        self.text: list[str] = []


class _Builder:
    """A parser target that builds a small tree of :class:`_Node` with each element's line."""

    def __init__(self):
        self.parser = None  # the expat parser, set once the XMLParser exists
        self.stack: list[_Node] = []
        self.root: _Node | None = None
        self.count = 0

    def start(self, tag, attrib):
        self.count += 1
        if self.count > MAX_ELEMENTS:
            raise _Refused("too-many-entries", f"more than {MAX_ELEMENTS:,} XML elements")
        if len(self.stack) >= MAX_DEPTH:
            raise _Refused("bad-structure", f"XML nested deeper than {MAX_DEPTH} levels")
        node = _Node(tag, dict(attrib), self.parser.CurrentLineNumber)
        if self.stack:
            self.stack[-1].children.append(node)
        else:
            self.root = node
        self.stack.append(node)

    def end(self, tag):
        self.stack.pop()

    def data(self, text):
        if self.stack:
            self.stack[-1].text.append(text)

    def close(self):
        return self.root


def _load(text: str):
    """The root :class:`_Node`, or (code, message, line) saying why the XML is not read."""
    from xml.etree.ElementTree import ParseError
    from xml.parsers.expat import ErrorString

    from defusedxml import DefusedXmlException
    from defusedxml.ElementTree import DefusedXMLParser

    builder = _Builder()
    # the text is already UTF-8 checked and decoded: an encoding the declaration names is
    # overridden, so 'latin-1' in a UTF-8 file cannot turn its names into other letters
    parser = DefusedXMLParser(target=builder, encoding="utf-8")
    expat = builder.parser = parser.parser

    def doctype(name, sysid, pubid, has_internal_subset):
        if sysid or pubid:
            raise _Refused("unsafe-xml", f"the document type names an external DTD "
                           f"({sysid or pubid!r}); deckcli fetches nothing a file points at")

    def attlist(element, attribute, kind, default, required):
        if default is not None:  # a value the file never writes out, on every such element
            raise _Refused("unsafe-xml", f"the document type gives <{element}> a default "
                           f"{attribute}={default!r}: deckcli reads only the values a file "
                           "writes out; remove the <!DOCTYPE ...> part")

    expat.StartDoctypeDeclHandler = doctype
    expat.AttlistDeclHandler = attlist
    try:
        parser.feed(text.encode("utf-8"))
        return parser.close()
    except DefusedXmlException as exc:
        name = getattr(exc, "name", None)
        what = "an external entity" if getattr(exc, "sysid", None) else "an entity"
        return ("unsafe-xml", f"the file declares {what} ({name!r}): deckcli never expands "
                "XML entities (a 'billion laughs' bomb or a file of this machine could hide "
                "there); remove the <!DOCTYPE ...> part", expat.CurrentLineNumber)
    except _Refused as exc:
        return exc.code, exc.message, expat.CurrentLineNumber
    except ParseError as exc:
        return ("bad-structure", f"not valid XML: {ErrorString(exc.code)}",
                exc.position[0] if exc.position else None)


def parse_xml(text: str, path: str | None, fmt: str) -> Deck:
    """A Cockatrice (``cod``) or MTGO (``dek``) decklist."""
    from deckcli.decks.structured import entry_from

    deck = Deck(path, fmt)

    def bad(code, rule, message, line, severity=error):
        deck.problems.append(severity(code, rule, message, path=path, line=line))

    root = _load(text)
    if isinstance(root, tuple):
        code, message, line = root
        bad(code, "DL-2.9" if code != "too-many-entries" else "DL-1.3", message, line)
        return deck
    if root is None or root.tag != _ROOT[fmt]:
        found = f"<{root.tag}>" if root is not None else "no element"
        bad("bad-structure", "DL-2.9", f"a {_TOOL[fmt]} deck is a <{_ROOT[fmt]}> element; "
            f"this file holds {found}", root.line if root is not None else 1)
        return deck
    for node, side in (_cod_cards(root, deck, bad) if fmt == "cod" else _dek_cards(root, bad)):
        get = node.attrib.get
        item = {"count": get("number" if fmt == "cod" else "Quantity"),
                "name": get("name" if fmt == "cod" else "Name")}
        if get("setShortName"):
            item["set"] = get("setShortName")
            if get("collectorNumber"):
                item["number"] = get("collectorNumber")
        entry = entry_from(item, node.line, bad)
        if entry is not None:
            (deck.sideboard if side else deck.entries).append(entry)
    if not deck.entries and not any(p.is_error for p in deck.problems):
        bad("empty-deck", "DL-2.1", "the file holds no card entries" + (
            " outside its sideboard" if deck.sideboard else ""), None)
    if deck.sideboard:
        from deckcli.decks.layouts import left_out

        deck.problems.append(left_out(deck.sideboard, path))
    return deck


def _cod_cards(root: _Node, deck: Deck, bad):
    """(card element, in the sideboard) of a Cockatrice deck; its name and comments go on
    ``deck``. A zone other than main (side, tokens) is not part of the deck; a zone that
    names none is an error on its line (``bad``), and its cards are counted nowhere."""
    for node in root.children:
        if node.tag == "deckname" and "".join(node.text).strip():
            # a name broken over lines is one name; the spaces within a line are its own
            deck.header["name"] = " ".join(
                x.strip() for x in "".join(node.text).strip().split("\n"))
            deck.header_lines["name"] = node.line
        elif node.tag == "comments":
            # its lines as written, blank ones at either end too ('#' lines boxing a
            # comment); only an element laid out over lines of its own (a line break after
            # <comments>, indentation before </comments>) has no line there
            raw = "".join(node.text).split("\n")
            lines = [x.strip() for x in raw]
            if len(raw) > 2 and not raw[0] and raw[-1] and not lines[-1]:
                lines = lines[1:-1]
            deck.preamble = lines if lines != [""] else []
        elif node.tag == "zone":
            name = node.attrib.get("name", "").strip().lower()
            if not name:
                bad("bad-structure", "DL-2.9", "a <zone> names the zone its cards are in "
                    '(name="main" for the deck, "side" for the sideboard)', node.line)
                continue
            side = name != "main"
            yield from ((card, side) for card in node.children if card.tag == "card")


def _dek_cards(root: _Node, bad):
    """(Cards element, in the sideboard) of an MTGO deck: Sideboard="true" or "false" (no
    attribute: the deck); any other value is an error on its line, the card counted nowhere."""
    for node in root.children:
        if node.tag == "Cards":
            said = node.attrib.get("Sideboard", "false").strip().lower()
            if said not in ("true", "false"):
                bad("bad-structure", "DL-2.9", f"Sideboard={node.attrib['Sideboard']!r}: "
                    "should be \"true\" or \"false\"", node.line)
                continue
            yield node, said == "true"


# -- writing ---------------------------------------------------------------------------------
class CannotWrite(Exception):
    """A value the target cannot hold: a control character in a name, for XML 1.0; a line
    break or a control character in a comment line, for YAML."""


def _text(value) -> str:
    out = str(value)
    for ch in out:
        if (ch < " " and ch not in "\t\n\r") or "\ufffe" <= ch <= "\uffff" or \
                "\ud800" <= ch <= "\udfff":
            raise CannotWrite(f"{out!r} holds a character XML cannot carry "
                              f"(U+{ord(ch):04X})")
    return out.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _attr(value) -> str:
    return '"' + _text(value).replace('"', "&quot;").replace("\t", "&#9;").replace(
        "\n", "&#10;").replace("\r", "&#13;") + '"'


def to_cod(deck: Deck) -> str:
    """A Cockatrice deck: name, the opening comments, main and side zones, printings."""
    out = ['<?xml version="1.0" encoding="UTF-8"?>', '<cockatrice_deck version="1">']
    if deck.header.get("name"):
        out.append(f"    <deckname>{_text(deck.header['name'])}</deckname>")
    if deck.preamble:
        out.append(f"    <comments>{_text(chr(10).join(deck.preamble))}</comments>")
    for zone, entries in (("main", deck.entries), ("side", deck.sideboard)):
        if not entries and zone == "side":
            continue
        out.append(f"    <zone name={_attr(zone)}>")
        for e in entries:
            card = f"        <card number={_attr(e.count)} name={_attr(e.name)}"
            if e.set_code:
                card += f" setShortName={_attr(e.set_code)}"
                if e.number:
                    card += f" collectorNumber={_attr(e.number)}"
            out.append(card + "/>")
        out.append("    </zone>")
    out.append("</cockatrice_deck>")
    return "\n".join(out) + "\n"


def to_dek(deck: Deck) -> str:
    """An MTGO deck: each entry's count and name, and whether it is in the sideboard."""
    out = ['<?xml version="1.0" encoding="utf-8"?>',
           '<Deck xmlns:xsd="http://www.w3.org/2001/XMLSchema" '
           'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">',
           "  <NetDeckID>0</NetDeckID>", "  <PreconstructedDeckID>0</PreconstructedDeckID>"]
    for side, entries in (("false", deck.entries), ("true", deck.sideboard)):
        out.extend(f"  <Cards Quantity={_attr(e.count)} Sideboard={_attr(side)} "
                   f"Name={_attr(e.name)} />" for e in entries)
    out.append("</Deck>")
    return "\n".join(out) + "\n"
