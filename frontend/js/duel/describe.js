// The game in words: names beside ratings, the move list, the turn, the result.
// Pure, so the view only places strings.

const LEVEL = { easy: 'Easy', medium: 'Medium', hard: 'Hard' };

export function seatName(seat) {
  if (!seat) return '';
  return seat.bot ? `${seat.name || 'Bot'}` : seat.name || 'Guest';
}

// What sits beside a name: a bot's level, a rating, or a guest's unrated 1000.
export function seatRating(seat) {
  if (!seat) return '';
  if (seat.bot) {
    const level = LEVEL[seat.bot] ?? seat.bot;
    // The level shows once: in the name if the server put it there, else here.
    return String(seat.name ?? '').toLowerCase().includes(String(seat.bot).toLowerCase()) ? '' : `${level} bot`;
  }
  if (!seat.rated) return `${seat.rating ?? 1000}, guest`;
  return String(seat.rating);
}

// What shows beside a player's name in a game: the rating, and "away" while the
// other player's phone has no connection (their clock still runs).
export function seatNote(seat, over) {
  const rating = seatRating(seat);
  if (over || !seat || seat.connected !== false) return rating;
  return rating ? `${rating} · away` : 'away';
}

export function moveLine(move, seats) {
  const who = seatName(seats?.[move.seat]);
  switch (move.kind) {
    case 'play':
      return { who, what: (move.words ?? []).join(', '), score: move.score };
    case 'swap':
      return { who, what: 'swapped a tile', score: 0 };
    case 'skip':
      return { who, what: 'skipped', score: 0 };
    case 'resign':
      return { who, what: 'resigned', score: 0 };
    case 'time':
      return { who, what: 'ran out of time', score: 0 };
    default:
      return { who, what: move.kind, score: move.score ?? 0 };
  }
}

export function turnText(game) {
  if (!game) return '';
  if (game.result) return 'The game is over.';
  if (game.turn == null) return '';
  if (game.turn === game.you) return 'Your turn.';
  return `${seatName(game.seats[game.turn])}'s turn.`;
}

const REASONS = {
  tiles: 'The tiles ran out and a rack was played out.',
  time: 'Both clocks ran out.',
  resigned: 'resigned.',
  zeros: 'Four turns in a row scored nothing.',
};

export function reasonText(game) {
  const result = game?.result;
  if (!result) return '';
  if (result.reason === 'resigned') {
    // The loser resigned: the winner is the other seat.
    const loser = result.winner == null ? null : 1 - result.winner;
    return loser == null ? 'A player resigned.' : `${seatName(game.seats[loser])} resigned.`;
  }
  return REASONS[result.reason] ?? result.reason;
}

export function winnerText(game) {
  const result = game?.result;
  if (!result) return '';
  if (result.winner == null) return "It's a draw.";
  if (result.winner === game.you) return 'You won!';
  return `${seatName(game.seats[result.winner])} won.`;
}

export function signed(n) {
  return n > 0 ? `+${n}` : n < 0 ? `−${Math.abs(n)}` : '±0';
}

// One row per seat: name, score, and the rating change (or why there is none).
export function resultRows(game) {
  const result = game?.result;
  if (!result) return [];
  return game.seats.map((seat, i) => {
    const score = result.scores?.[i] ?? seat.score;
    const rating = result.ratings?.[i];
    let change;
    if (rating) change = `${rating.before} → ${rating.after} (${signed(rating.after - rating.before)})`;
    else change = seat.bot ? 'bot, not rated' : 'guest, not rated';
    return { seat: i, name: seatName(seat), score, change, winner: result.winner === i };
  });
}
