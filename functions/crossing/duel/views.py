"""What a phone may see of a Duel: everything but the other player's rack and the bag's order.

Every field it may hold is named in ``rooms.view_models.DuelShown``; the message that
carries it (``rooms.protocol.DuelMessage``) refuses anything else (docs/rules.md, Duel views).
"""

from __future__ import annotations

from typing import Any

from crossing.duel import elo
from crossing.duel.game import RULES
from crossing.duel.match import Match, Player, aborted, rated

# The rule set the page draws with (the same shape as GET /api/rules' entries), so the
# page keeps no copy of the layout or the letter values.
RULES_VIEW = {
    "name": RULES.name,
    "layout": list(RULES.layout),
    "tiles": [
        {"letter": letter, "value": RULES.values[letter], "count": RULES.counts[letter]}
        for letter in sorted(RULES.values)
    ],
    "star_multiplies": RULES.star_multiplies,
}


def view(match: Match, viewer: str | None, now: int) -> dict[str, Any]:
    duel = match.duel
    you = match.seat_of(viewer) if viewer else None
    seats = []
    for i, (player, seat) in enumerate(zip(match.players, duel.seats, strict=True)):
        seats.append(
            {
                "player": player.id,
                "name": player.name,
                "rating": player.rating,
                "rated": player.rated,
                "provisional": player.provisional,
                "bot": player.bot,
                "score": seat.score,
                "time_left": duel.time_left(seat.player, now),
                "out_of_time": seat.out_of_time,
                "running": seat.clock.running and not duel.over,
                "rack_count": len(seat.rack),
                "connected": bool(match.connections.get(player.id)) or bool(player.bot),
                "seat": i,
            }
        )
    result = None
    if duel.result is not None:
        winner = duel.result.winner
        result = {
            "reason": duel.result.reason,
            "winner": None if winner is None else match.seat_of(winner),
            "scores": list(duel.result.scores),
            "aborted": aborted(match),
            "ratings": [
                None if change is None else _change(change, player)
                for change, player in zip(match.ratings or (None, None), match.players, strict=True)
            ],
        }
    return {
        "id": match.id,
        "you": you,
        "seats": seats,
        "rack": duel.seats[you].rack if you is not None else "",
        "bag": len(duel.bag),
        "board": list(duel.board.rows),
        "rules": RULES_VIEW,
        "turn": None if duel.over else duel.turn,
        "limit": duel.limit_ms,
        "rated": rated(match),
        "moves": [
            {
                "seat": match.seat_of(turn.player),
                "kind": turn.kind,
                "score": turn.score,
                "words": list(turn.words),
                "tiles": [list(t) for t in turn.tiles],
                "at": turn.at,
            }
            for turn in duel.moves
        ],
        "due_at": match.due_at() if not duel.over else None,
        "now": now,
        "result": result,
    }


def finished(match: Match, player: str, kept_until: int) -> dict[str, Any]:
    """A finished game as its player's list of games shows it (``DuelGameShown``): who
    against whom, how it ended, the scores, the rating change, and until when it can be
    replayed (``kept_until``, when its stored game goes)."""
    duel, you = match.duel, match.seat_of(player)
    assert duel.result is not None and you is not None
    other = match.players[1 - you]
    winner = duel.result.winner
    change = (match.ratings or (None, None))[you]
    return {
        "id": match.id,
        "ended_at": match.ended_at,
        "limit": duel.limit_ms,
        "you": you,
        "opponent": {"name": other.name, "bot": other.bot, "rated": other.rated},
        "outcome": "draw" if winner is None else ("won" if winner == player else "lost"),
        "reason": duel.result.reason,
        "scores": list(duel.result.scores),
        "moves": len(duel.moves),
        "aborted": aborted(match),
        "rating": None if change is None else _change(change, match.players[you]),
        "kept_until": kept_until,
    }


def _change(change: tuple[int, int], player: Player) -> dict[str, Any]:
    """A rated game's change for one player, and their rated games with it counted."""
    games = None if player.games is None else player.games + 1
    return {
        "before": change[0],
        "after": change[1],
        "games": games,
        "provisional": elo.provisional(games),
    }
