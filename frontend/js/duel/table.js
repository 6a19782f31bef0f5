// What a Duel table shows around the board, from the game view alone: the last play's
// squares, a play written as players write it, and the tiles not yet seen. Pure; used
// by the Duel page and by the watch page's Duel view.
import { countsOf, SIZE } from '../tiles/board.js';

// The squares of the last play ("r,c" keys): marked until the next play.
export function lastPlaySquares(moves) {
  const last = [...(moves ?? [])].reverse().find((m) => m.kind === 'play');
  return new Set((last?.tiles ?? []).map(([row, col]) => `${row},${col}`));
}

// "8H QUIXOTE", and the cross words after it: "8H CAT · AT, TO".
export function playText(move) {
  const [main, ...cross] = move.words ?? [];
  const head = [move.at, main].filter(Boolean).join(' ');
  return cross.length ? `${head} · ${cross.join(', ')}` : head;
}

// Letters not yet seen by `game.you`: the bag and the opponent's rack, by letter
// (every tile in the rule set less the board and your own rack). A watcher, who has
// no rack, sees the bag and both racks.
export function unseenTiles(game) {
  const left = { ...countsOf(game?.rules) };
  const take = (ch) => {
    const letter = ch.toUpperCase();
    if (left[letter]) left[letter] -= 1;
  };
  for (const row of game?.board ?? []) for (const ch of row) if (ch !== '.') take(ch);
  for (const ch of game?.rack ?? []) take(ch);
  const letters = Object.keys(left).sort().map((letter) => ({ letter, count: left[letter] }));
  const total = letters.reduce((n, l) => n + l.count, 0);
  return { letters, total, bag: game?.bag ?? 0, racks: total - (game?.bag ?? 0) };
}

// The tracker's line under the letters.
export function unseenLine(unseen, watching) {
  const where = watching ? 'on the racks' : 'on their rack';
  return `${unseen.total} unseen: ${unseen.bag} in the bag, ${unseen.racks} ${where}`;
}

// The game as it stood after its first `n` moves, rebuilt from its move list (the
// record): the board, the scores and the moves so far. The same record always gives
// the same positions, so a finished game can be looked back through move by move.
export function positionAt(game, n) {
  const all = game?.moves ?? [];
  const moves = all.slice(0, Math.max(0, Math.min(n, all.length)));
  const rows = Array.from({ length: SIZE }, () => Array(SIZE).fill('.'));
  const scores = [0, 0];
  for (const move of moves) {
    if (move.kind === 'play') for (const [row, col, letter] of move.tiles) rows[row][col] = letter;
    scores[move.seat] += move.score ?? 0;
  }
  return { board: rows.map((r) => r.join('')), scores, moves, n: moves.length };
}
