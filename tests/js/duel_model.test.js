import assert from 'node:assert/strict';
import { test } from 'node:test';

import { model, initialState, myTurn } from '../../frontend/js/duel/model.js';
import { emptyBoard, playTiles } from '../../frontend/js/duel/board.js';

const game = (over = {}) => ({
  id: 'g1', you: 0, turn: 0, bag: 84, board: emptyBoard(), rack: ['C', 'A', 'T', 'S', 'E', 'A', 'R'],
  premiums: emptyBoard(), limit: 180_000, moves: [], due_at: null, now: 1000, result: null,
  seats: [{ name: 'Ann', time_left: 180_000 }, { name: 'Bot', bot: 'easy', time_left: 180_000 }],
  ...over,
});
const server = (message) => ({ type: 'server', message, now: 50 });
const run = (state, ...events) => events.reduce(model, state);

test('a duel message switches to the game and says whose turn it is', () => {
  const s = run(initialState, server({ type: 'duel', version: 1, game: game() }));
  assert.equal(s.screen, 'game');
  assert.equal(s.announce, 'Your turn.');
  assert.equal(myTurn(s), true);
  assert.deepEqual(s.place.rack, ['C', 'A', 'T', 'S', 'E', 'A', 'R']);
});

test('a rejected play is shown and its tiles stay on the board', () => {
  let s = run(initialState, server({ type: 'duel', version: 1, game: game() }),
    { type: 'select', row: 7, col: 7 }, { type: 'letter', letter: 'C' }, { type: 'letter', letter: 'T' });
  s = model(s, server({ type: 'error', code: 'illegal-play', message: 'CT is not a word.' }));
  assert.equal(s.error.message, 'CT is not a word.');
  assert.equal(s.announce, 'CT is not a word.');
  assert.equal(playTiles(s.place).length, 2);
  // A later message of the same turn keeps them too; an older version is ignored.
  s = model(s, server({ type: 'duel', version: 1, game: game({ bag: 1 }) }));
  assert.equal(s.game.bag, 84);
  s = model(s, server({ type: 'duel', version: 2, game: game() }));
  assert.equal(playTiles(s.place).length, 2);
  assert.equal(s.error.message, 'CT is not a word.');
});

test('touch: a square tapped, then a rack tile tapped, places it; or a tile first, then a square', () => {
  let s = run(initialState, server({ type: 'duel', version: 1, game: game() }), { type: 'select', row: 7, col: 7 }, { type: 'rack', index: 2 });
  assert.deepEqual(playTiles(s.place), [{ row: 7, col: 7, letter: 'T' }]);
  s = run(s, { type: 'select', row: 0, col: 0 }, { type: 'select', row: 0, col: 0 });
  s = run(s, { type: 'select', row: 3, col: 3 });
  s = run(s, { type: 'rack', index: 0 });
  assert.equal(playTiles(s.place).length, 2);
  s = run(s, { type: 'recall' });
  s = run(s, { type: 'select', row: 1, col: 1 });
  const before = s.place.direction;
  s = run(s, { type: 'select', row: 1, col: 1 }); // the same square: it turns, nothing placed
  assert.notEqual(s.place.direction, before);
  assert.equal(s.place.placed.length, 0);
  const held = run(s, { type: 'rack', index: 3 });
  assert.deepEqual(playTiles(held.place), [{ row: 1, col: 1, letter: 'S' }]);
});

test('tile first, then square, places every tile of a turn where it is tapped, down and across', () => {
  for (const [dr, dc, facing] of [[1, 0, 'down'], [0, 1, 'across']]) {
    let s = run(initialState, server({ type: 'duel', version: 1, game: game() }));
    const squares = [0, 1, 2, 3, 4, 5].map((i) => ({ row: 4 + i * dr, col: 7 + i * dc }));
    squares.forEach(({ row, col }, index) => {
      s = run(s, { type: 'rack', index });
      assert.equal(s.chosen, index, `tile ${index} is held for its square`);
      assert.equal(s.place.placed.length, index, 'nothing lands before its square is tapped');
      s = run(s, { type: 'select', row, col });
    });
    assert.deepEqual(playTiles(s.place), squares.map((at, i) => ({ ...at, letter: 'CATSEA'[i] })));
    assert.equal(s.place.direction, facing, 'the highlight faces the way the word runs');
    // After Recall, and after a drag, the next tile tapped is still held for its square.
    s = run(s, { type: 'recall' }, { type: 'rack', index: 0 });
    assert.equal(s.chosen, 0);
    assert.equal(s.place.placed.length, 0);
    s = run(s, { type: 'drop', row: 1, col: 1, index: 6 }, { type: 'rack', index: 0 });
    assert.equal(s.chosen, 0);
    assert.equal(s.place.placed.length, 1);
  }
});

test('the lobby, sign-in and back to lobby', () => {
  let s = run(initialState, server({ type: 'welcome', player: 'p', token: 't', account: null, duel: 'g9' }));
  assert.equal(s.resume, 'g9');
  assert.equal(s.account, null);
  s = model(s, server({ type: 'signed_in', player: 'p2', name: 'ann', rating: 1000, games: 0, provisional: true, refresh: 'r' }));
  assert.deepEqual(s.account, { name: 'ann', rating: 1000, games: 0, provisional: true });
  s = model(s, server({ type: 'lobby', seeks: [], mine: null, now: 1 }));
  assert.equal(s.lobby.mine, null);
  s = model(s, server({ type: 'duel', version: 3, game: game({ result: { winner: 0 }, turn: null }) }));
  assert.equal(s.announce, 'The game is over. You won!');
  s = model(s, { type: 'to-lobby' });
  assert.equal(s.screen, 'lobby');
  // A late message of the game just left does not pull the page back.
  s = model(s, server({ type: 'duel', version: 4, game: game({ result: { winner: 0 }, turn: null }) }));
  assert.equal(s.screen, 'lobby');
});

test('signing in waits for the answer; an error or signed_in ends the wait', () => {
  let s = run(initialState, server({ type: 'welcome', account: null, duel: null }), { type: 'signing', on: true });
  assert.equal(s.signing, true);
  s = model(s, server({ type: 'error', code: 'wrong-password', message: 'Wrong name or password.' }));
  assert.equal(s.signing, false);
  assert.equal(s.error.code, 'wrong-password');
  s = run(s, { type: 'signing', on: true }, server({ type: 'signed_in', name: 'ann', rating: 1010, games: 12, provisional: false, refresh: 'r' }));
  assert.equal(s.signing, false);
  assert.equal(s.error, null);
  assert.deepEqual(s.account, { name: 'ann', rating: 1010, games: 12, provisional: false });
});

test("the opponent's move is announced before the turn", () => {
  let s = run(initialState, server({ type: 'duel', version: 1, game: game({ turn: 1 }) }));
  assert.equal(s.announce, "Bot's turn.");
  const moves = [{ seat: 1, kind: 'play', score: 14, words: ['OX', 'CATS'], tiles: [] }];
  s = model(s, server({ type: 'duel', version: 2, game: game({ turn: 0, moves }) }));
  assert.equal(s.announce, 'Bot played OX, CATS for 14. Your turn.');
  const more = [...moves, { seat: 0, kind: 'skip', score: 0, words: [], tiles: [] }, { seat: 1, kind: 'swap', score: 0, words: [], tiles: [] }];
  s = model(s, server({ type: 'duel', version: 4, game: game({ turn: 0, moves: more }) }));
  assert.equal(s.announce, 'Bot swapped a tile. Your turn.');
});

test("a rated result moves the account's rating, and counts the game, shown in the lobby", () => {
  let s = run(initialState, server({ type: 'signed_in', name: 'ann', rating: 1000, games: 9, provisional: true, refresh: 'r' }),
    server({ type: 'duel', version: 1, game: game() }));
  const ratings = [{ before: 1000, after: 1016, games: 10, provisional: false }, { before: 1000, after: 984, games: 30, provisional: false }];
  const result = { reason: 'resigned', winner: 0, scores: [0, 0], ratings };
  s = model(s, server({ type: 'duel', version: 2, game: game({ turn: null, result }) }));
  assert.deepEqual(s.account, { name: 'ann', rating: 1016, games: 10, provisional: false });
  // The same result told again counts nothing more.
  s = model(s, server({ type: 'duel', version: 3, game: game({ turn: null, result }) }));
  assert.equal(s.account.games, 10);
  // A guest has no account to move.
  const guest = run(initialState, server({ type: 'duel', version: 2, game: game({ turn: null, result }) }));
  assert.equal(guest.account, null);
});

test('the highlight clears after every play, so a rack tile tapped next turn is held, not dropped on the old square', () => {
  let s = run(initialState, server({ type: 'duel', version: 1, game: game() }),
    { type: 'select', row: 7, col: 7 }, { type: 'letter', letter: 'C' }, { type: 'letter', letter: 'A' });
  assert.deepEqual(s.place.cursor, { row: 7, col: 9 });
  const board = emptyBoard().map((r, i) => (i === 7 ? '.......CA......' : r));
  const played = { seat: 0, kind: 'play', score: 8, words: ['CA'], tiles: [[7, 7, 'C'], [7, 8, 'A']], at: '8H' };
  s = model(s, server({ type: 'duel', version: 2, game: game({ board, turn: 1, moves: [played], rack: ['T', 'S', 'E', 'A', 'R', 'O', 'N'] }) }));
  assert.equal(s.place.cursor, null);
  const reply = { seat: 1, kind: 'skip', score: 0, words: [], tiles: [] };
  s = model(s, server({ type: 'duel', version: 3, game: game({ board, turn: 0, moves: [played, reply], rack: ['T', 'S', 'E', 'A', 'R', 'O', 'N'] }) }));
  s = model(s, { type: 'rack', index: 0 });
  assert.equal(s.chosen, 0, 'held for the next square tapped');
  assert.deepEqual(playTiles(s.place), []);
});

test('the rack is reordered and shuffled on the page, and keeps that order when the server answers', () => {
  let s = run(initialState, server({ type: 'duel', version: 1, game: game() }), { type: 'reorder', from: 6, to: 0 });
  assert.deepEqual(s.place.rack, ['R', 'C', 'A', 'T', 'S', 'E', 'A']);
  s = model(s, server({ type: 'duel', version: 2, game: game({ rack: ['A', 'A', 'C', 'E', 'R', 'S', 'T'] }) }));
  assert.deepEqual(s.place.rack, ['R', 'C', 'A', 'T', 'S', 'E', 'A']);
  s = model(s, { type: 'shuffle', random: () => 0 });
  assert.notDeepEqual(s.place.rack, ['R', 'C', 'A', 'T', 'S', 'E', 'A']);
});

test('My games: the list arrives, a game left before can be opened again and looked back through', () => {
  const games = [{ id: 'g1', you: 0, outcome: 'won', scores: [20, 8], kept_until: 9 }];
  let s = run(initialState, server({ type: 'duel_games', games, now: 1 }));
  assert.deepEqual(s.myGames, { games, now: 1 });
  const moves = [
    { seat: 0, kind: 'play', score: 12, words: ['CAT'], tiles: [[7, 7, 'C'], [7, 8, 'A'], [7, 9, 'T']], at: '8H' },
    { seat: 1, kind: 'skip', score: 0, words: [], tiles: [] },
    { seat: 1, kind: 'resign', score: 0, words: [], tiles: [] },
  ];
  const over = game({ turn: null, moves, result: { reason: 'resigned', winner: 0, scores: [12, 0] } });
  s = run(s, server({ type: 'duel', version: 5, game: over }), { type: 'to-lobby' });
  assert.equal(s.dismissed, 'g1');
  s = run(s, server({ type: 'duel', version: 6, game: over }));
  assert.equal(s.screen, 'lobby', 'a late message of a game left is not shown');
  s = run(s, { type: 'open-game', id: 'g1' }, server({ type: 'duel', version: 6, game: over }));
  assert.equal(s.screen, 'game');
  s = run(s, { type: 'look', go: 'start' });
  assert.equal(s.lookAt, 0);
  s = run(s, { type: 'look', go: 'on' }, { type: 'look', go: 'on' });
  assert.equal(s.lookAt, 2);
  s = run(s, { type: 'look', go: 'on' });
  assert.equal(s.lookAt, null, 'the last move is the game as it ended');
  // A game still in play cannot be looked back through.
  const live = run(initialState, server({ type: 'duel', version: 1, game: game() }), { type: 'look', go: 'start' });
  assert.equal(live.lookAt, null);
});
