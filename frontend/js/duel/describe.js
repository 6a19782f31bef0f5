// The game in words: names beside ratings, the move list, the turn, the result.
// Pure, so the view only places strings.

import { playText } from './table.js';

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
  return ratingText(seat);
}

// A registered player's rating as shown anywhere: "provisional" beside it until the
// account's first rated games are played (a game against it moves no other rating).
export function ratingText(who) {
  const rating = String(who?.rating ?? 1000);
  return who?.provisional ? `${rating}, provisional` : rating;
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
      return { who, what: playText(move), score: move.score };
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

// Each way a game ends in its own sentence, with the names the moves give it.
export function reasonText(game) {
  const result = game?.result;
  if (!result) return '';
  const moves = game.moves ?? [];
  const name = (seat) => (seat == null ? 'A player' : seatName(game.seats[seat]));
  const flags = moves.filter((m) => m.kind === 'time').map((m) => m.seat);
  const lastOf = (kind) => [...moves].reverse().find((m) => m.kind === kind)?.seat ?? null;
  let sentence;
  switch (result.reason) {
    case 'tiles':
      sentence = flags.length
        ? `${name(flags[0])}'s time ran out; ${name(1 - flags[0])} played on and used the last tiles.`
        : `The bag was empty and ${name(lastOf('play'))} played out their rack.`;
      break;
    case 'time':
      sentence = flags.length === 2
        ? `${name(flags[0])}'s time ran out, then ${name(flags[1])}'s.`
        : 'Both clocks ran out.';
      break;
    case 'resigned':
      // The loser resigned: the move says who (else the winner's other seat).
      sentence = `${name(lastOf('resign') ?? (result.winner == null ? null : 1 - result.winner))} resigned.`;
      break;
    case 'zeros':
      sentence = 'Four turns in a row scored nothing, two by each player.';
      break;
    case 'zeros_alone':
      sentence = flags.length
        ? `${name(flags[0])}'s time ran out, then ${name(1 - flags[0])} scored nothing two turns in a row.`
        : 'One time ran out, then the player left scored nothing two turns in a row.';
      break;
    default:
      sentence = String(result.reason);
  }
  return result.aborted ? `${sentence} It ended before both players had moved, so it is not rated.` : sentence;
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
    const other = game.seats[1 - i];
    if (rating && rating.before === rating.after && other?.provisional) {
      change = `${rating.before} (±0: ${seatName(other)}'s rating is provisional)`;
    } else if (rating) change = `${rating.before} → ${rating.after} (${signed(rating.after - rating.before)})`;
    else if (seat.bot) change = 'bot, not rated';
    else if (!seat.rated) change = 'guest, not rated';
    else if (result.aborted) change = 'aborted, not rated';
    else change = 'not rated';
    return { seat: i, name: seatName(seat), score, change, winner: result.winner === i };
  });
}

// One finished game in My games (the server's `duel_games` entry): what happened, in
// words, and whether it can still be opened and replayed at `now` (server ms).
const HOW = {
  tiles: 'played out', time: 'on time', resigned: 'by resignation', zeros: 'four zero turns', zeros_alone: 'zero turns',
};
export function myGameLine(g, now) {
  const outcome = { won: 'Won', lost: 'Lost', draw: 'Drew' }[g.outcome] ?? g.outcome;
  const mine = g.scores?.[g.you] ?? 0;
  const theirs = g.scores?.[1 - g.you] ?? 0;
  const who = g.opponent?.name || (g.opponent?.bot ? 'a bot' : 'a guest');
  const parts = [HOW[g.reason] ?? g.reason];
  if (g.aborted) parts.push('not rated: ended before both had moved');
  else if (g.rating) parts.push(`${g.rating.before} → ${g.rating.after} (${signed(g.rating.after - g.rating.before)})`);
  else parts.push('not rated');
  return {
    what: `${outcome} ${mine}–${theirs} v ${who}`,
    detail: parts.join(' · '),
    replay: now < g.kept_until,
  };
}
