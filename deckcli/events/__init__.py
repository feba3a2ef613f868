"""Event files: name, date, game, format, ban list, legal sets, house rules and a roster."""
