import assert from 'node:assert/strict';
import { test } from 'node:test';

import * as L from '../../frontend/js/duel/lobby.js';
import * as D from '../../frontend/js/duel/describe.js';

test('the time limits offered are 3, 5, 10, 20 minutes and Unlimited', () => {
  assert.deepEqual(L.LIMITS.map((l) => l.ms), [180_000, 300_000, 600_000, 1_200_000, null]);
  assert.equal(L.limitLabel(180_000), '3 min');
  assert.equal(L.limitLabel(null), 'Unlimited');
  assert.equal(L.limitFromValue(''), null);
  assert.equal(L.limitFromValue('600000'), 600_000);
  assert.equal(L.valueFromLimit(null), '');
});

test('a private game link carries the seek and its token, and reads back', () => {
  const href = L.seekLink('https://example.org/app/duel.html', { id: 's1', token: 'abc_-9' });
  assert.equal(href, 'https://example.org/app/duel.html#seek=s1&token=abc_-9');
  assert.deepEqual(L.parseSeekHash(new URL(href).hash), { seek: 's1', token: 'abc_-9' });
  assert.equal(L.parseSeekHash(''), null);
  assert.equal(L.parseSeekHash('#x=1'), null);
  assert.equal(L.seekLink('https://example.org/', { id: 's2', token: null }), null);
});

test('a guest is 1000, not rated; an account shows its rating', () => {
  assert.deepEqual(L.whoAmI(null), { name: 'Guest', rating: 1000, note: 'guest, not rated', guest: true });
  assert.equal(L.whoAmI({ name: 'ann', rating: 1032 }).rating, 1032);
});

test('your own waiting game is not in the list to Challenge', () => {
  const lobby = { seeks: [{ id: 'a' }, { id: 'b' }], mine: { id: 'a' } };
  assert.deepEqual(L.challengeable(lobby).map((s) => s.id), ['b']);
  assert.deepEqual(L.challengeable(null), []);
});

test('names and passwords are checked as the server checks them', () => {
  assert.equal(L.checkAccount('ann_1', 'password1'), null);
  assert.match(L.checkAccount('an', 'password1'), /3 to 20/);
  assert.match(L.checkAccount('ann!', 'password1'), /3 to 20/);
  assert.match(L.checkAccount('ann', 'short'), /8 to 128/);
});

const seats = [
  { name: 'Ann', rating: 1016, rated: true, bot: null, score: 40 },
  { name: 'Hard bot', rating: 1000, rated: false, bot: 'hard', score: 12 },
];

test('names show their rating, a guest is marked, a bot shows its level', () => {
  assert.equal(D.seatRating(seats[0]), '1016');
  assert.equal(D.seatRating(seats[1]), '', 'the name says Hard already');
  assert.equal(D.seatRating({ name: 'Robo', bot: 'easy' }), 'Easy bot');
  assert.equal(D.seatRating({ name: 'g', rating: 1000, rated: false, bot: null }), '1000, guest');
});

test('moves read as who, what and the score', () => {
  assert.deepEqual(D.moveLine({ seat: 0, kind: 'play', score: 20, words: ['FOR', 'NO'], at: 'G7' }, seats), { who: 'Ann', what: 'G7 FOR · NO', score: 20 });
  assert.equal(D.moveLine({ seat: 0, kind: 'play', score: 110, words: ['QUIXOTE'], at: '8H' }, seats).what, '8H QUIXOTE');
  assert.equal(D.moveLine({ seat: 1, kind: 'swap', score: 0 }, seats).what, 'swapped a tile');
  assert.equal(D.moveLine({ seat: 1, kind: 'skip', score: 0 }, seats).what, 'skipped');
  assert.equal(D.moveLine({ seat: 0, kind: 'time', score: 0 }, seats).what, 'ran out of time');
});

test('the turn and the result in words, with each rating change', () => {
  const game = { you: 0, turn: 1, seats, result: null };
  assert.equal(D.turnText(game), "Hard bot's turn.");
  assert.equal(D.turnText({ ...game, turn: 0 }), 'Your turn.');
  const over = { ...game, turn: null, result: { reason: 'resigned', winner: 0, scores: [40, 12], ratings: [{ before: 1000, after: 1016 }, null] } };
  assert.equal(D.winnerText(over), 'You won!');
  assert.equal(D.reasonText(over), 'Hard bot resigned.');
  assert.deepEqual(D.resultRows(over), [
    { seat: 0, name: 'Ann', score: 40, change: '1000 → 1016 (+16)', winner: true },
    { seat: 1, name: 'Hard bot', score: 12, change: 'bot, not rated', winner: false },
  ]);
  const draw = { ...over, result: { reason: 'zeros', winner: null, scores: [5, 5], ratings: [{ before: 1000, after: 990 }, null] } };
  assert.equal(D.winnerText(draw), "It's a draw.");
  assert.match(D.reasonText(draw), /Four turns/);
  assert.equal(D.resultRows(draw)[0].change, '1000 → 990 (−10)');
});

test('a player whose phone is gone shows away until the game is over', () => {
  const bob = { name: 'Bob', rating: 1016, rated: true, bot: null, connected: false };
  assert.equal(D.seatNote(bob, false), '1016 · away');
  assert.equal(D.seatNote({ ...bob, connected: true }, false), '1016');
  assert.equal(D.seatNote(bob, true), '1016', 'nobody is waited for after the end');
});

test('the lobby says before a game whether it will be rated', () => {
  assert.match(L.ratedNote(null), /guest.*not rated/i);
  assert.match(L.ratedNote({ name: 'Ann', rating: 1000 }), /Rated when another signed-in player/);
  assert.equal(L.seekRatedLabel({ will_rate: true }), 'rated');
  assert.equal(L.seekRatedLabel({ will_rate: false }), 'unrated');
});

test('an account in an unrated game reads "not rated", an aborted one says so', () => {
  const s = [{ name: 'Ann', rated: true, score: 3 }, { name: 'Gus', rated: false, score: 0 }];
  const game = { you: 0, seats: s, moves: [], result: { reason: 'resigned', winner: 0, scores: [3, 0], ratings: [null, null] } };
  assert.deepEqual(D.resultRows(game).map((r) => r.change), ['not rated', 'guest, not rated']);
  const both = [{ name: 'Ann', rated: true }, { name: 'Bob', rated: true }];
  const aborted = { ...game, seats: both, result: { ...game.result, aborted: true } };
  assert.deepEqual(D.resultRows(aborted).map((r) => r.change), ['aborted, not rated', 'aborted, not rated']);
});
