import { test } from 'node:test';
import assert from 'node:assert/strict';
import { botProgress, progressOf, whiteCount, fillsOnTheirOwn } from '../../frontend/js/progress.js';
import { MINI } from './puzzles.js';

const fills = [[1000, 2], [2500, 3], [4000, 4]];

test('a bot has filled the squares whose moment the race clock has passed', () => {
  assert.deepEqual(botProgress(fills, 0, 21), { filled: [], fraction: 0 });
  assert.deepEqual(botProgress(fills, 2500, 21).filled, [2, 3]);
  assert.equal(botProgress(fills, 9999, 3).fraction, 1);
});

test("a bot's board fills as the clock runs; a person's comes from the view", () => {
  const game = {
    puzzle: MINI, over: false,
    clock: { elapsed_ms: 2000, running: true, since: 10_000, at: 10_000 },
    bot_fills: { bot1: fills },
    progress: { ann: { filled: [5], fraction: 0.0476 }, bot1: { filled: [2], fraction: 0.0476 } },
  };
  assert.equal(whiteCount(MINI), 21);
  assert.deepEqual(progressOf(game, 'bot1', 10_000).filled, [2]);
  assert.deepEqual(progressOf(game, 'bot1', 12_100).filled, [2, 3, 4]);
  assert.deepEqual(progressOf(game, 'ann', 12_100).filled, [5]);
  assert.deepEqual(progressOf({ ...game, clock: { ...game.clock, running: false, since: null } }, 'bot1', 99_000).filled, [2]);
  assert.equal(fillsOnTheirOwn(game), true);
  assert.equal(fillsOnTheirOwn({ ...game, over: true }), false);
});
