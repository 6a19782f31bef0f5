// How full each racer's board is. People's progress comes in the view; a race bot's
// is read off its plan (game.bot_fills: [race-clock ms, square] pairs), so its board
// fills in between messages as the race clock runs.
import { elapsed } from './clock.js';

export const whiteCount = (puzzle) => puzzle.width * puzzle.height - puzzle.blocks.length;

export function botProgress(fills, clockMs, squares) {
  const filled = fills.filter(([at]) => at <= clockMs).map(([, square]) => square);
  return { filled, fraction: squares ? filled.length / squares : 0 };
}

export function progressOf(game, player, now) {
  const fills = game.bot_fills?.[player];
  if (fills && !game.over) return botProgress(fills, elapsed(game.clock, now), whiteCount(game.puzzle));
  return game.progress?.[player] || { filled: [], fraction: 0 };
}

// Whether anything on screen moves with the clock alone.
export const fillsOnTheirOwn = (game) => !!game && !game.over && !!game.bot_fills && Object.keys(game.bot_fills).length > 0;
