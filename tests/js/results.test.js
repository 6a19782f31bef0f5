import { test } from 'node:test';
import assert from 'node:assert/strict';
import { litSquares, scoreLine, ordinal, resultLook, titleFor } from '../../frontend/js/views/results.js';
import { MINI, SOLVED } from './puzzles.js';

test("a player's earned slots light up their squares", () => {
  assert.deepEqual([...litSquares(MINI, ['1a', '3d'])].sort((a, b) => a - b), [2, 3, 4, 9, 14, 19]);
  assert.equal(litSquares(MINI, []).size, 0);
});

test('race scores read as perfect with a time, or squares right', () => {
  const race = { mode: 'race' };
  assert.equal(scoreLine(race, { perfect: true, right: 21, squares: 21, time_ms: 65_000 }), 'perfect · 1:05');
  assert.equal(scoreLine(race, { perfect: false, right: 19, squares: 21, time_ms: 270_000 }), '19/21 right · 4:30');
  assert.equal(scoreLine({ mode: 'together' }, { squares: 1 }), '1 square');
});

test('places read as ordinals', () => {
  assert.deepEqual([1, 2, 3, 4, 11, 12, 13, 21, 22].map(ordinal), ['1st', '2nd', '3rd', '4th', '11th', '12th', '13th', '21st', '22nd']);
});

test('the Together result colors squares by earner and lights one player', () => {
  const view = {
    members: [{ player: 'ann', name: 'Ann', color: '#2e86ab' }],
    game: {
      mode: 'together', puzzle: MINI, board: SOLVED,
      result: { owners: { 2: 'ann' }, misses: [{ square: 22, answer: 'S', letter: '.' }], standings: [{ player: 'ann', words: ['1a'] }] },
    },
  };
  const look = resultLook(view, 'ann');
  assert.equal(look.fill(2), '#2e86ab');
  assert.equal(look.fill(3), null);
  assert.equal(look.misses.get(22), 'S');
  assert.deepEqual([...look.lit], [2, 3, 4]);
  assert.equal(resultLook(view, null).lit, null);
  // Read square by square: the letter, right or what it should be, and who earned it.
  assert.equal(look.label(2, 'S'), 'Row 1, column 3: S, right, earned by Ann');
  assert.equal(look.label(22, ''), 'Row 5, column 3: empty, should be S');
});

test('a race result reads each square as right, or wrong with its right letter', () => {
  const view = { game: { mode: 'race', puzzle: MINI, board: SOLVED, result: { misses: [{ square: 7, answer: 'I', letter: 'Q' }], standings: [] } } };
  const look = resultLook(view, null);
  assert.equal(look.label(7, 'Q'), 'Row 2, column 3: Q, wrong, should be I');
  assert.equal(look.label(8, 'D'), 'Row 2, column 4: D, right');
});

test('the title says who won, and owns up to a tie', () => {
  const game = (standings) => ({ mode: 'race', puzzle: MINI, result: { standings } });
  const two = [{ player: 'a', place: 1 }, { player: 'b', place: 2 }];
  assert.equal(titleFor(game(two), two[0]), 'You won!');
  assert.equal(titleFor(game(two), two[1]), 'You came 2nd');
  const tied = [{ player: 'a', place: 1 }, { player: 'b', place: 1 }];
  assert.equal(titleFor(game(tied), tied[1]), 'Tied for first!');
  assert.equal(titleFor(game(tied), undefined), 'Results');
});

test('on your own nobody won: the title says how many squares were right, and the time', () => {
  const race = (me) => ({ mode: 'race', puzzle: MINI, result: { standings: [me] } });
  const mistakes = { player: 'a', place: 1, perfect: false, right: 19, squares: 21, time_ms: 252_000 };
  assert.equal(titleFor(race(mistakes), mistakes), '19 of 21 right, 4:12');
  const nothing = { ...mistakes, right: 0, time_ms: 9_000 };
  assert.equal(titleFor(race(nothing), nothing), '0 of 21 right, 0:09');
  const perfect = { ...mistakes, perfect: true, right: 21 };
  assert.equal(titleFor(race(perfect), perfect), 'All 21 right, 4:12');
  // Together keeps no time of each player's: the game's clock, and its board's misses.
  const me = { player: 'a', place: 1, squares: 6 };
  const together = {
    mode: 'together', puzzle: MINI, clock: { elapsed_ms: 61_000, running: false },
    result: { standings: [me], misses: [{ square: 22, answer: 'S', letter: '.' }, { square: 2, answer: 'S', letter: 'Q' }] },
  };
  assert.equal(titleFor(together, me), '19 of 21 right, 1:01');
});
