"""Crossing Words rules: puzzles, Race, Together and their views. Pure: no I/O, no clock."""
