import assert from 'node:assert/strict';
import { test } from 'node:test';

import * as B from '../../frontend/js/duel/board.js';

const RACK = ['C', 'A', 'T', 'S', 'E', 'A', 'R'];
const fresh = () => B.placement(B.emptyBoard(), RACK);
const withRow = (board, row, line) => board.map((r, i) => (i === row ? line : r));

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
  assert.deepEqual(done.rack, ['A', 'T', 'S', 'E', 'R', 'Q', 'I'], 'the kept tiles in their order, the new last');
  // A tile whose letter left the rack (a swap) goes; one still there moves to its new place.
  s = B.placeAt(B.placeAt(fresh(), 0, 0, 0), 0, 1, 2);
  const swapped = B.sync(s, B.emptyBoard(), ['T', 'A', 'X']);
  assert.deepEqual(swapped.rack, ['A', 'T', 'X'], 'the letters kept keep their order');
  assert.deepEqual(swapped.placed, [{ row: 0, col: 1, letter: 'T', index: 1 }]);
});

test("the rack keeps the player's order through the server's sorted racks; new tiles go last", () => {
  assert.deepEqual(B.arrange(['R', 'A', 'C', 'E'], ['A', 'C', 'E', 'R']), ['R', 'A', 'C', 'E']);
  assert.deepEqual(B.arrange(['R', 'A', 'C', 'E'], ['A', 'B', 'E', 'R']), ['R', 'A', 'E', 'B']);
  assert.deepEqual(B.arrange(['A', 'A', 'B'], ['A', 'B', 'B']), ['A', 'B', 'B']);
});

test('a rack tile moved to another place; a tile on the board follows its letter', () => {
  let s = B.placeAt(fresh(), 7, 7, 0); // C on the centre
  s = B.reorder(s, 0, 6);
  assert.deepEqual(s.rack, ['A', 'T', 'S', 'E', 'A', 'R', 'C']);
  assert.deepEqual(s.placed, [{ row: 7, col: 7, letter: 'C', index: 6 }]);
  assert.deepEqual(B.freeIndexes(s), [0, 1, 2, 3, 4, 5]);
  assert.equal(B.reorder(s, 2, 9), s, 'off the rack: nothing');
});

test('shuffle gives a new order of the same letters, and tiles on the board follow', () => {
  const seq = [0.9, 0.1, 0.5, 0.3, 0.7, 0.2, 0.8];
  let n = 0;
  const random = () => seq[n++ % seq.length];
  let s = B.placeAt(fresh(), 7, 7, 3); // S
  s = B.shuffle(s, random);
  assert.notDeepEqual(s.rack, RACK);
  assert.deepEqual([...s.rack].sort(), [...RACK].sort());
  assert.equal(s.rack[s.placed[0].index], 'S');
  const same = B.placement(B.emptyBoard(), ['E', 'E']);
  assert.equal(B.shuffle(same), same);
});
