import assert from 'node:assert/strict';
import { test } from 'node:test';

import * as B from '../../frontend/js/duel/board.js';

const RACK = ['C', 'A', 'T', 'S', 'E', 'A', 'R'];
const fresh = () => B.placement(B.emptyBoard(), RACK);
const withRow = (board, row, line) => board.map((r, i) => (i === row ? line : r));

test('letters carry the standard Scrabble values', () => {
  assert.equal(B.valueOf('A'), 1);
  assert.equal(B.valueOf('q'), 10);
  assert.equal(B.valueOf('K'), 5);
  assert.equal(Object.keys(B.LETTER_VALUES).length, 26);
});

test('clicking a square highlights it; clicking it again turns across to down and back', () => {
  let s = B.select(fresh(), 7, 7);
  assert.deepEqual(s.cursor, { row: 7, col: 7 });
  assert.equal(s.direction, 'across');
  s = B.select(s, 7, 7);
  assert.equal(s.direction, 'down');
  s = B.select(s, 7, 7);
  assert.equal(s.direction, 'across');
  s = B.select(s, 3, 4);
  assert.deepEqual(s.cursor, { row: 3, col: 4 });
  assert.equal(s.direction, 'across');
});

test('typing a rack letter places it at the highlight and moves on along the direction', () => {
  let s = B.select(fresh(), 7, 7);
  s = B.type(s, 'c');
  s = B.type(s, 'A');
  s = B.type(s, 'T');
  assert.deepEqual(B.playTiles(s), [
    { row: 7, col: 7, letter: 'C' },
    { row: 7, col: 8, letter: 'A' },
    { row: 7, col: 9, letter: 'T' },
  ]);
  assert.deepEqual(s.cursor, { row: 7, col: 10 });
  assert.deepEqual(B.freeIndexes(s), [3, 4, 5, 6]);
});

test('a letter not free on the rack places nothing; two of a letter come from two rack places', () => {
  let s = B.select(fresh(), 0, 0);
  assert.equal(B.type(s, 'Z'), s);
  s = B.type(B.type(s, 'A'), 'A');
  assert.deepEqual(s.placed.map((t) => t.index), [1, 5]);
  assert.equal(B.type(s, 'A'), s);
});

test('down placement skips over letters already on the board', () => {
  const board = withRow(B.emptyBoard(), 8, '.......O.......');
  let s = B.turn(B.select(B.placement(board, RACK), 7, 7));
  assert.equal(s.direction, 'down');
  s = B.type(s, 'T');
  assert.deepEqual(s.cursor, { row: 9, col: 7 }, 'the O is stepped over');
  s = B.type(s, 'E');
  assert.deepEqual(B.playTiles(s), [
    { row: 7, col: 7, letter: 'T' },
    { row: 9, col: 7, letter: 'E' },
  ]);
  // A highlight on a board letter types into the next empty square.
  s = B.type(B.select(B.recall(s), 8, 7), 'S');
  assert.deepEqual(B.playTiles(s), [{ row: 9, col: 7, letter: 'S' }]);
});

test('arrows move the highlight within the board; with none it starts at the centre', () => {
  let s = B.arrow(fresh(), 0, 1);
  assert.deepEqual(s.cursor, { row: 7, col: 7 });
  s = B.arrow(s, 0, 1);
  assert.deepEqual(s.cursor, { row: 7, col: 8 });
  s = B.arrow(B.arrow(s, -1, 0), -1, 0);
  assert.deepEqual(s.cursor, { row: 5, col: 8 });
  const corner = B.select(fresh(), 0, 0);
  assert.equal(B.arrow(corner, -1, 0), corner);
  assert.equal(B.arrow(corner, 0, -1), corner);
});

test('Backspace takes the last placed tile back and the highlight goes to its square', () => {
  let s = B.type(B.type(B.select(fresh(), 7, 7), 'C'), 'A');
  s = B.backspace(s);
  assert.deepEqual(B.playTiles(s), [{ row: 7, col: 7, letter: 'C' }]);
  assert.deepEqual(s.cursor, { row: 7, col: 8 });
  s = B.backspace(s);
  assert.deepEqual(s.placed, []);
  assert.equal(B.backspace(s), s);
});

test('Recall takes every tile of the turn back to the rack', () => {
  let s = B.type(B.type(B.type(B.select(fresh(), 7, 5), 'C'), 'A'), 'T');
  s = B.recall(s);
  assert.deepEqual(s.placed, []);
  assert.deepEqual(B.freeIndexes(s), [0, 1, 2, 3, 4, 5, 6]);
  assert.deepEqual(s.cursor, { row: 7, col: 5 });
});

test('dropping a rack tile on a square places it; not on a board letter; a placed one there goes back', () => {
  const board = withRow(B.emptyBoard(), 7, '.......O.......');
  let s = B.placement(board, RACK);
  assert.equal(B.placeAt(s, 7, 7, 0), s, 'an occupied square takes nothing');
  s = B.placeAt(s, 7, 6, 0);
  assert.deepEqual(B.playTiles(s), [{ row: 7, col: 6, letter: 'C' }]);
  s = B.placeAt(s, 7, 6, 2);
  assert.deepEqual(B.playTiles(s), [{ row: 7, col: 6, letter: 'T' }]);
  assert.ok(B.freeIndexes(s).includes(0), 'the C is back on the rack');
  assert.equal(B.placeAt(s, 7, 5, 2), s, 'a tile already on the board cannot go twice');
  assert.deepEqual(B.squareOf(s, 7, 7), { letter: 'O', placed: false });
  assert.deepEqual(B.squareOf(s, 7, 6), { letter: 'T', placed: true });
  assert.equal(B.squareOf(s, 0, 0), null);
});

test('a single placed tile can be taken back', () => {
  let s = B.placeAt(B.placeAt(fresh(), 7, 7, 0), 7, 8, 1);
  s = B.takeBack(s, 7, 7);
  assert.deepEqual(B.playTiles(s), [{ row: 7, col: 8, letter: 'A' }]);
});

test('after a rejected play the tiles stay; after an accepted one the board has them and they go', () => {
  let s = B.type(B.type(B.select(fresh(), 7, 7), 'C'), 'A');
  // Rejected: the same board and rack come back (or nothing does).
  const kept = B.sync(s, B.emptyBoard(), RACK);
  assert.deepEqual(B.playTiles(kept), B.playTiles(s));
  // Accepted: the board holds CA, the rack is refilled.
  const board = withRow(B.emptyBoard(), 7, '.......CA......');
  const done = B.sync(s, board, ['T', 'S', 'E', 'A', 'R', 'Q', 'I']);
  assert.deepEqual(done.placed, []);
  assert.deepEqual(done.rack, ['T', 'S', 'E', 'A', 'R', 'Q', 'I']);
  // A tile whose letter left the rack (a swap) goes; one still there moves to its new place.
  s = B.placeAt(B.placeAt(fresh(), 0, 0, 0), 0, 1, 2);
  const swapped = B.sync(s, B.emptyBoard(), ['T', 'A', 'X']);
  assert.deepEqual(swapped.placed, [{ row: 0, col: 1, letter: 'T', index: 0 }]);
});
