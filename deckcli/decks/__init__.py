"""Decklists: parsing (text, YAML, JSON, CSV), resolving against the card index, writing."""
