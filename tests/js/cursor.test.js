import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as C from '../../frontend/js/cursor.js';
import { MINI, EMPTY, SOLVED } from './puzzles.js';

// Squares of the Mini:  row0 _ _ 2 3 4 / row1 5-9 / row2 10-14 / row3 15-19 / row4 20 21 22 _ _
const fill = (board, squares, letter = 'X') => {
  const chars = board.split('');
  for (const q of squares) chars[q] = letter;
  return chars.join('');
};

test('slots come in clue-list order: across, then down', () => {
  assert.deepEqual(C.slotsOf(MINI).map((s) => s.id), ['1a', '4a', '6a', '7a', '8a', '1d', '2d', '3d', '4d', '5d']);
});

test('the first cursor sits on the first gap', () => {
  assert.deepEqual(C.firstCursor(MINI, EMPTY), { square: 2, dir: 'across' });
  assert.deepEqual(C.firstCursor(MINI, fill(EMPTY, [2, 3, 4, 5])), { square: 6, dir: 'across' });
});

test('typing moves to the next empty square of the word', () => {
  const board = fill(EMPTY, [5]);
  assert.deepEqual(C.afterLetter(MINI, board, { square: 5, dir: 'across' }), { square: 6, dir: 'across' });
  const skip = fill(EMPTY, [5, 6, 7]);
  assert.deepEqual(C.afterLetter(MINI, skip, { square: 5, dir: 'across' }), { square: 8, dir: 'across' });
});

test('typing wraps back to an earlier gap in the same word', () => {
  const board = fill(EMPTY, [6, 7, 8, 9]);
  assert.deepEqual(C.afterLetter(MINI, board, { square: 9, dir: 'across' }), { square: 5, dir: 'across' });
});

test('from a full word, typing goes on to the next word with a gap', () => {
  const board = fill(EMPTY, [2, 3, 4, 5, 6, 7, 8, 9]);
  assert.deepEqual(C.afterLetter(MINI, board, { square: 9, dir: 'across' }), { square: 10, dir: 'across' });
  // the last across word full: on to the down words (1d still has gaps)
  const acrossDone = fill(EMPTY, [20, 21, 22, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19]);
  assert.deepEqual(C.afterLetter(MINI, acrossDone, { square: 22, dir: 'across' }), { square: 22, dir: 'across' });
});

test('the next word with a gap wraps round the clue list', () => {
  const board = fill(SOLVED, [3], '.');
  assert.deepEqual(C.afterLetter(MINI, board, { square: 21, dir: 'down' }), { square: 3, dir: 'across' });
});

test('with no gap anywhere, typing steps to the next square of the word', () => {
  assert.deepEqual(C.afterLetter(MINI, SOLVED, { square: 5, dir: 'across' }), { square: 6, dir: 'across' });
  assert.deepEqual(C.afterLetter(MINI, SOLVED, { square: 9, dir: 'across' }), { square: 9, dir: 'across' });
});

test('tapping the same square turns; another square keeps the direction', () => {
  const cursor = { square: 7, dir: 'across' };
  assert.deepEqual(C.tap(MINI, cursor, 7), { square: 7, dir: 'down' });
  assert.deepEqual(C.tap(MINI, { square: 7, dir: 'down' }, 12), { square: 12, dir: 'down' });
  assert.deepEqual(C.tap(MINI, cursor, 0), cursor, 'a block is not a square to type in');
});

test('turning the clue bar flips direction', () => {
  assert.deepEqual(C.turn(MINI, { square: 12, dir: 'across' }), { square: 12, dir: 'down' });
});

test('delete clears the square it is on when it holds a letter', () => {
  const board = fill(EMPTY, [5, 6]);
  assert.deepEqual(C.deleteAt(MINI, board, { square: 6, dir: 'across' }), { clear: 6, cursor: { square: 6, dir: 'across' } });
});

test('delete on an empty square clears the one before it and moves there', () => {
  const board = fill(EMPTY, [5, 6]);
  assert.deepEqual(C.deleteAt(MINI, board, { square: 7, dir: 'across' }), { clear: 6, cursor: { square: 6, dir: 'across' } });
  assert.deepEqual(C.deleteAt(MINI, EMPTY, { square: 7, dir: 'across' }), { clear: null, cursor: { square: 6, dir: 'across' } });
});

test('delete at the start of a word steps back into the word before', () => {
  const board = fill(EMPTY, [4]);
  assert.deepEqual(C.deleteAt(MINI, board, { square: 5, dir: 'across' }), { clear: 4, cursor: { square: 4, dir: 'across' } });
  assert.deepEqual(C.deleteAt(MINI, EMPTY, { square: 2, dir: 'across' }), { clear: null, cursor: { square: 2, dir: 'across' } });
});

test('next and previous clue land on the first gap, wrapping round the list', () => {
  assert.deepEqual(C.stepClue(MINI, EMPTY, { square: 3, dir: 'across' }, 1), { square: 5, dir: 'across' });
  assert.deepEqual(C.stepClue(MINI, fill(EMPTY, [5, 6]), { square: 3, dir: 'across' }, 1), { square: 7, dir: 'across' });
  assert.deepEqual(C.stepClue(MINI, EMPTY, { square: 3, dir: 'across' }, -1), { square: 6, dir: 'down' });
  assert.deepEqual(C.stepClue(MINI, SOLVED, { square: 6, dir: 'down' }, 1), { square: 2, dir: 'across' });
});

test('a clue in the lists goes to its word', () => {
  assert.deepEqual(C.goToClue(MINI, EMPTY, '3d'), { square: 4, dir: 'down' });
  assert.equal(C.goToClue(MINI, EMPTY, '9z'), null);
});

test('arrows turn to their axis first, then move over blocks', () => {
  assert.deepEqual(C.arrow(MINI, { square: 7, dir: 'across' }, 0, 1), { square: 7, dir: 'down' });
  assert.deepEqual(C.arrow(MINI, { square: 7, dir: 'down' }, 0, 1), { square: 12, dir: 'down' });
  assert.deepEqual(C.arrow(MINI, { square: 22, dir: 'across' }, 1, 0), { square: 22, dir: 'across' });
  assert.deepEqual(C.arrow(MINI, { square: 7, dir: 'down' }, 0, -1), { square: 2, dir: 'down' });
  assert.deepEqual(C.arrow(MINI, { square: 2, dir: 'down' }, 0, -1), { square: 2, dir: 'down' });
});

test('the highlighted word and its clue follow the cursor', () => {
  assert.deepEqual(C.wordOf(MINI, { square: 12, dir: 'down' }), [2, 7, 12, 17, 22]);
  assert.equal(C.clueOf(MINI, { square: 12, dir: 'across' }).id, '6a');
});
