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

import { positionAt, lastPlaySquares, playText, unseenTiles, unseenLine } from '../../frontend/js/duel/table.js';

const rules = { layout: [], tiles: [{ letter: 'A', value: 1, count: 3 }, { letter: 'T', value: 1, count: 2 }, { letter: 'C', value: 3, count: 1 }] };
const record = {
  rules,
  moves: [
    { seat: 0, kind: 'play', score: 10, words: ['CAT'], tiles: [[7, 6, 'C'], [7, 7, 'A'], [7, 8, 'T']], at: '8G' },
    { seat: 1, kind: 'skip', score: 0, words: [], tiles: [] },
    { seat: 0, kind: 'play', score: 4, words: ['AT'], tiles: [[8, 7, 'T']], at: 'H8' },
  ],
};

test('a finished game looked back through: each position rebuilt from the move list', () => {
  const start = positionAt(record, 0);
  assert.equal(start.board.join('').replace(/\./g, ''), '');
  const one = positionAt(record, 1);
  assert.equal(one.board[7], '......CAT......');
  assert.deepEqual(one.scores, [10, 0]);
  assert.deepEqual([...lastPlaySquares(one.moves)], ['7,6', '7,7', '7,8']);
  const end = positionAt(record, 3);
  assert.equal(end.board[8], '.......T.......');
  assert.deepEqual(end.scores, [14, 0]);
  assert.deepEqual([...lastPlaySquares(end.moves)], ['8,7']);
  assert.deepEqual(positionAt(record, 99), end, 'past the end is the end');
  assert.deepEqual(positionAt(record, 3), positionAt(record, 3), 'the same record, the same positions');
});

test('a play reads as where it starts, its word and its cross words', () => {
  assert.equal(playText({ at: '8H', words: ['QUIXOTE'] }), '8H QUIXOTE');
  assert.equal(playText({ at: 'G7', words: ['FOR', 'NO'] }), 'G7 FOR · NO');
});

test('the unseen tiles: every tile less the board and your rack; a screen has no rack', () => {
  const game = { rules, board: positionAt(record, 1).board, rack: ['A'], bag: 1 };
  const unseen = unseenTiles(game);
  assert.deepEqual(unseen.letters, [{ letter: 'A', count: 1 }, { letter: 'C', count: 0 }, { letter: 'T', count: 1 }]);
  assert.equal(unseenLine(unseen, false), '2 unseen: 1 in the bag, 1 on their rack');
  const screen = unseenTiles({ ...game, rack: '' });
  assert.equal(unseenLine(screen, true), '3 unseen: 1 in the bag, 2 on the racks');
});

import { ratingText, seatRating, resultRows } from '../../frontend/js/duel/describe.js';
import { whoAmI } from '../../frontend/js/duel/lobby.js';

test('a provisional rating says so beside it, in the lobby, the game and the result', () => {
  assert.equal(ratingText({ rating: 1000, provisional: true }), '1000, provisional');
  assert.equal(ratingText({ rating: 1047, provisional: false }), '1047');
  assert.equal(seatRating({ rated: true, rating: 1000, provisional: true }), '1000, provisional');
  assert.equal(whoAmI({ name: 'ann', rating: 1000, games: 3, provisional: true }).note, 'provisional, 3 rated games so far');
  assert.equal(whoAmI({ name: 'ann', rating: 1000, games: 12, provisional: false }).note, '');
  // Against a provisional opponent nothing moves, and the result says why.
  const seats = [{ name: 'Ann', rated: true, rating: 1001 }, { name: 'Throwaway', rated: true, rating: 1000, provisional: true }];
  const ratings = [{ before: 1001, after: 1001, games: 13, provisional: false }, { before: 1000, after: 984, games: 1, provisional: true }];
  const rows = resultRows({ seats, result: { winner: 0, scores: [0, 0], ratings } });
  assert.equal(rows[0].change, "1001 (±0: Throwaway's rating is provisional)");
  assert.equal(rows[1].change, '1000 → 984 (−16)'); // the newcomer moves against an established rating
});

import { myGameLine } from '../../frontend/js/duel/describe.js';

test('a finished game in My games, in words, and whether it can still be replayed', () => {
  const g = {
    id: 'g-1', you: 1, outcome: 'won', reason: 'resigned', scores: [12, 40], moves: 3, aborted: false,
    opponent: { name: 'Bob', bot: null, rated: true }, rating: { before: 1000, after: 1016 }, kept_until: 5000,
  };
  assert.deepEqual(myGameLine(g, 4999), { what: 'Won 40–12 v Bob', detail: 'by resignation · 1000 → 1016 (+16)', replay: true });
  assert.equal(myGameLine(g, 5000).replay, false);
  const bot = { ...g, outcome: 'lost', aborted: true, rating: null, opponent: { name: 'Easy bot', bot: 'easy', rated: false } };
  assert.equal(myGameLine(bot, 0).what, 'Lost 40–12 v Easy bot');
  assert.equal(myGameLine(bot, 0).detail, 'by resignation · not rated: ended before both had moved');
});
