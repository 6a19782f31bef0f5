"""Lambda entry points: thin handlers that parse at the edge, call the games and map errors."""
