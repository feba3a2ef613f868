"""Cards and printings: the source models, the compiled index and search."""
