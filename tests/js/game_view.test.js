import { test } from 'node:test';
import assert from 'node:assert/strict';
import { squareLabel, clueLine, waitingFor } from '../../frontend/js/views/game.js';
import { MINI } from './puzzles.js';

const across = MINI.clues.across[0];
const first = across.squares[0];

test('a square says its number, its clue, its letter or empty, and if it is highlighted', () => {
  const word = new Set(across.squares);
  const cursor = { square: first, dir: 'across' };
  const label = squareLabel(MINI, cursor, word, first, '');
  assert.equal(label, `square ${MINI.numbers[first]}, ${across.number} Across: ${across.clue}, empty, in the highlighted word`);
  const other = MINI.clues.down.at(-1).squares.at(-1);
  const far = squareLabel(MINI, cursor, word, other, 'Q');
  assert.match(far, /, Q$/);
  assert.doesNotMatch(far, /highlighted/);
});

test('a clue is read with its number, direction and length', () => {
  assert.equal(clueLine({ ...across, dir: 'across' }), `${across.number} Across, ${across.squares.length} letters: ${across.clue}`);
});

test('once I am Done, the check waits for everyone still playing, bots too', () => {
  const view = { waiting_for: ['ann'], game: { over: false, seats: { me: { done: true }, bot: { done: false }, ann: { done: false }, gone: { gone: true } } } };
  assert.deepEqual(waitingFor(view, view.game.seats.me), ['bot', 'ann']);
  assert.deepEqual(waitingFor(view, { done: false }), ['ann']);
});
