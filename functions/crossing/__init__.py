"""Crossing Words: live crossword rooms, the Duel tile game and the Solver."""
