"""The tile games' engine (Crossplay-, Scrabble-, WWF-style boards and Duel): pure rules.

Entry points: ``api.solve_request`` (the Solver), ``movegen.generate`` (every
legal play), ``play.check_play`` (legality), ``scoring.score_play`` (score with
a breakdown), ``rules.RULE_SETS``. See docs/tiles.md.
"""
