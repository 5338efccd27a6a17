"""Index layer: the content compiled once at start-up into read-only lookup tables and predicates."""
