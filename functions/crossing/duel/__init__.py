"""Duel: the one-on-one timed tile game (pure), and its Elo ratings."""
