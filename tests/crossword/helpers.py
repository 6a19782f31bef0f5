"""Drive a game through its commands the way players would."""

from crossing.crossword.commands import Type


def run(module, state, commands, now):
    """Apply commands in order at ``now``; return the state and every event."""
    events = []
    for command in commands:
        state, more = module.step(state, command, now)
        events += more
    return state, events


def type_answer(puzzle, player, slot_id, letters=None):
    """Type commands that write a slot's answer (or ``letters``) for one player."""
    slot = puzzle.grid.slot(slot_id)
    word = letters or puzzle.answer(slot)
    return [Type(player, sq, ch) for sq, ch in zip(slot.squares, word, strict=True)]


def type_board(puzzle, player, wrong=()):
    """Type the whole solution, with the squares in ``wrong`` given a wrong letter."""
    return [
        Type(
            player,
            sq,
            "Z"
            if sq in wrong and puzzle.solution[sq] != "Z"
            else ("Q" if sq in wrong else puzzle.solution[sq]),
        )
        for sq in puzzle.white_squares
    ]
