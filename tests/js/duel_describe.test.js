import assert from 'node:assert/strict';
import { test } from 'node:test';

import { reasonText } from '../../frontend/js/duel/describe.js';

const seats = [{ name: 'Ann' }, { name: 'Bob' }];
const ended = (reason, moves, extra = {}) => ({ you: 0, seats, moves, result: { reason, winner: 0, scores: [50, 40], ...extra } });
const play = (seat) => ({ seat, kind: 'play', score: 10, words: ['CAT'], tiles: [] });
const m = (seat, kind) => ({ seat, kind, score: 0, words: [], tiles: [] });

test('the tiles running out names who played out their rack', () => {
  assert.equal(reasonText(ended('tiles', [play(1), play(0)])), 'The bag was empty and Ann played out their rack.');
});

test('one flag, then the tiles: says whose time ran out and who played on', () => {
  assert.equal(reasonText(ended('tiles', [play(0), m(1, 'time'), play(0)])),
    "Bob's time ran out; Ann played on and used the last tiles.");
});

test('both flags: says whose fell first', () => {
  assert.equal(reasonText(ended('time', [play(0), m(1, 'time'), play(0), m(0, 'time')])),
    "Bob's time ran out, then Ann's.");
});

test('one flag, then two zero turns by the player left: not "four turns in a row"', () => {
  const text = reasonText(ended('zeros_alone', [play(0), m(0, 'time'), m(1, 'skip'), m(1, 'swap')]));
  assert.equal(text, "Ann's time ran out, then Bob scored nothing two turns in a row.");
  assert.doesNotMatch(text, /Four/);
});

test('four zero turns, two each', () => {
  assert.equal(reasonText(ended('zeros', [m(0, 'skip'), m(1, 'skip'), m(0, 'swap'), m(1, 'skip')])),
    'Four turns in a row scored nothing, two by each player.');
});

test('a resignation names who resigned, even after a flag', () => {
  assert.equal(reasonText(ended('resigned', [m(0, 'time'), m(1, 'resign')])), 'Bob resigned.');
});

test('an aborted game says it is not rated', () => {
  assert.equal(reasonText(ended('resigned', [m(1, 'resign')], { aborted: true })),
    'Bob resigned. It ended before both players had moved, so it is not rated.');
});
