import { test } from 'node:test';
import assert from 'node:assert/strict';
import { model, initialState, shownBoard, screenOf, canType, isHost, gameTag, sameGame } from '../../frontend/js/model.js';
import { MINI, EMPTY } from './puzzles.js';

const members = [
  { player: 'hana', name: 'Hana', color: '#c0392b', bot: null, present: true, on_game_screen: true },
  { player: 'bot1', name: 'Bot', color: '#2471a3', bot: 'easy', present: true, on_game_screen: true },
];

function playing(extra = {}) {
  return {
    code: 'HVUEN8', you: 'hana', host: 'hana', solo: false, phase: 'playing', mode: 'race', size: 'mini',
    members, waiting_for: [], due_at: null,
    game: {
      mode: 'race', puzzle: MINI, paused: false, over: false,
      seats: { hana: { done: false, gone: false, away: false }, bot1: { done: false, gone: false, away: false } },
      clock: { elapsed_ms: 0, running: true, since: 5000, at: 5000 },
      progress: {}, limit_ms: 300000, board: EMPTY, my_clock: { elapsed_ms: 0, running: true, since: 5000, at: 5000 }, can_undo: false,
      ...extra,
    },
  };
}

const server = (state, message, now = 1000) => model(state, { type: 'server', message, now });
const full = (room, version = 10) => ({ type: 'room', version, full: true, room });

test('with no room the phone is on the home screen', () => {
  assert.equal(screenOf(initialState), 'home');
  const s = server(initialState, { type: 'welcome', player: 'hana', token: 't', saved: { race: true, together: false } });
  assert.equal(s.player, 'hana');
  assert.equal(s.saved.race, true);
});

test('a full view starts the game with the cursor on the first gap and learns the clock offset', () => {
  const s = server(initialState, full(playing()));
  assert.equal(screenOf(s), 'game');
  assert.deepEqual(s.cursor, { square: 2, dir: 'across' });
  assert.equal(s.offset, 4000);
  assert.equal(isHost(s), true);
  assert.equal(canType(s), true);
});

test('screens follow the phase and whether I am on the game screen', () => {
  const v = playing();
  assert.equal(screenOf(server(initialState, full({ ...v, phase: 'lobby' }))), 'lobby');
  assert.equal(screenOf(server(initialState, full({ ...v, phase: 'table' }))), 'table');
  assert.equal(screenOf(server(initialState, full({ ...v, phase: 'results' }))), 'results');
  const away = { ...v, members: [{ ...members[0], on_game_screen: false }, members[1]] };
  assert.equal(screenOf(server(initialState, full(away))), 'lobby');
  assert.equal(screenOf(server(initialState, full({ ...v, phase: 'closed' }))), 'closed');
});

test('a typed letter shows at once and moves the cursor; the server view wins when it arrives', () => {
  let s = server(initialState, full(playing()));
  s = model(s, { type: 'letter', letter: 'S', seq: 21 });
  assert.equal(shownBoard(s)[2], 'S');
  assert.deepEqual(s.cursor, { square: 3, dir: 'across' });
  s = server(s, { type: 'ack', seq: 21, version: 11 });
  assert.equal(shownBoard(s)[2], 'S', 'still shown until version 11 arrives');
  s = server(s, { type: 'room', version: 11, full: false, room: { game: { board: EMPTY.slice(0, 2) + 'Z' + EMPTY.slice(3) } } });
  assert.equal(s.pending.length, 0);
  assert.equal(shownBoard(s)[2], 'Z');
});

test('a refused letter disappears', () => {
  let s = server(initialState, full(playing()));
  s = model(s, { type: 'letter', letter: 'S', seq: 21 });
  s = server(s, { type: 'error', code: 'paused', message: 'The game is paused.', seq: 21 });
  assert.equal(shownBoard(s)[2], '.');
  assert.equal(s.notice.code, 'paused');
});

test('delete clears the square before an empty one and moves there', () => {
  let s = server(initialState, full(playing()));
  s = model(s, { type: 'letter', letter: 'S', seq: 1 });
  s = model(s, { type: 'delete', seq: 2 });
  assert.equal(shownBoard(s)[2], '.');
  assert.deepEqual(s.cursor, { square: 2, dir: 'across' });
});

test('no typing while Done or paused', () => {
  const done = playing({ seats: { hana: { done: true, gone: false, away: false } } });
  let s = server(initialState, full(done));
  assert.equal(canType(s), false);
  s = model(s, { type: 'letter', letter: 'S', seq: 1 });
  assert.equal(shownBoard(s), EMPTY);
  assert.equal(canType(server(initialState, full(playing({ paused: true })))), false);
});

test('a skipped version asks for a snapshot, and the full view clears the ask', () => {
  let s = server(initialState, full(playing()));
  s = server(s, { type: 'room', version: 12, full: false, room: { phase: 'results' } });
  assert.equal(s.wantSnapshot, true);
  assert.equal(screenOf(s), 'game');
  s = server(s, full(playing(), 12));
  assert.equal(s.wantSnapshot, false);
});

test('undo puts the cursor where the ack says', () => {
  let s = server(initialState, full(playing()));
  s = server(s, { type: 'ack', seq: 3, version: 11, cursor: 12 });
  assert.equal(s.cursor.square, 12);
});

test('a saved board on start asks the host instead of showing an error', () => {
  let s = server(initialState, full({ ...playing(), phase: 'table' }));
  s = server(s, { type: 'error', code: 'saved-board', message: 'There is a saved board.', seq: 8 });
  assert.equal(s.askSaved, true);
  assert.equal(s.notice, null);
});

test('taps, turns, clue steps and arrows move the cursor', () => {
  let s = server(initialState, full(playing()));
  s = model(s, { type: 'tap', square: 7 });
  assert.deepEqual(s.cursor, { square: 7, dir: 'across' });
  s = model(s, { type: 'tap', square: 7 });
  assert.equal(s.cursor.dir, 'down');
  s = model(s, { type: 'turn' });
  assert.equal(s.cursor.dir, 'across');
  s = model(s, { type: 'clue', step: 1 });
  assert.deepEqual(s.cursor, { square: 10, dir: 'across' });
  s = model(s, { type: 'go-clue', id: '5d' });
  assert.deepEqual(s.cursor, { square: 6, dir: 'down' });
  s = model(s, { type: 'arrow', dx: 0, dy: 1 });
  assert.deepEqual(s.cursor, { square: 11, dir: 'down' });
});

test('a tap on a player in the results lights their words, a second tap puts them out', () => {
  let s = server(initialState, full({ ...playing(), phase: 'results' }));
  s = model(s, { type: 'light', player: 'bot1' });
  assert.equal(s.lit, 'bot1');
  s = model(s, { type: 'light', player: 'bot1' });
  assert.equal(s.lit, null);
});

test('play again takes the host from the results to picking the next puzzle; the others stay', () => {
  const results = { ...playing(), phase: 'results' };
  let s = server(initialState, full(results));
  s = model(s, { type: 'choosing', open: true });
  assert.equal(screenOf(s), 'table');
  const guest = model(server(initialState, full({ ...results, you: 'bot1' })), { type: 'choosing', open: true });
  assert.equal(screenOf(guest), 'results');
  s = server(s, full(playing(), 11));
  assert.equal(s.choosing, false);
  assert.equal(screenOf(s), 'game');
});

test('a dropped socket keeps unanswered letters shown until the room after the reconnect has them', () => {
  let s = server(initialState, full(playing()));
  s = model(s, { type: 'letter', letter: 'S', seq: 21 });
  s = model(s, { type: 'connected', connected: false });
  assert.equal(shownBoard(s)[2], 'S');
  s = server(s, { type: 'welcome', player: 'hana', token: 't', saved: {}, room: 'HVUEN8' });
  assert.equal(s.rejoin, 'waiting', 'the kept letters wait for the room view');
  s = server(s, full(playing(), 12));
  assert.equal(s.rejoin, 'due');
  assert.equal(shownBoard(s)[2], 'S');
  s = model(s, { type: 'resent', frames: [{ action: 'type', seq: 21, square: 2, letter: 'S' }] });
  assert.equal(s.rejoin, null);
  assert.equal(s.pending.length, 1);
  s = server(s, { type: 'ack', seq: 21, version: 13, duplicate: false });
  s = server(s, { type: 'room', version: 13, full: true, room: playing({ board: `##S${EMPTY.slice(3)}` }) });
  assert.equal(s.pending.length, 0);
  assert.equal(shownBoard(s)[2], 'S');
});

test('after a reload the letters sent again show on the board, and only in the game they were typed in', () => {
  let s = server(initialState, { type: 'welcome', player: 'hana', token: 't', saved: {}, room: 'HVUEN8' });
  s = server(s, full(playing()));
  assert.equal(s.rejoin, 'due');
  assert.ok(sameGame(gameTag(s), s));
  assert.ok(!sameGame({ ...gameTag(s), puzzle: 'cw-other' }, s));
  assert.ok(!sameGame({ ...gameTag(s), room: 'OTHER1' }, s));
  s = model(s, { type: 'resent', frames: [
    { action: 'type', seq: 5, square: 3, letter: 'X' }, { action: 'done', seq: 6 }, { action: 'clear', seq: 7, square: 2 },
  ] });
  assert.equal(shownBoard(s).slice(2, 4), '.X');
});

test('left while disconnected: the room we left does not hold the kept frames back', () => {
  let s = server(initialState, full(playing()));
  s = model(s, { type: 'connected', connected: false });
  s = model(s, { type: 'left' });
  s = server(s, { type: 'welcome', player: 'hana', token: 't', saved: {}, room: 'HVUEN8' });
  s = server(s, full(playing(), 12));
  assert.equal(screenOf(s), 'home');
  assert.equal(s.rejoin, 'due', 'the socket is told to send nothing and forget them');
});

test('a page that cannot reach the game says so until a welcome', () => {
  let s = model(initialState, { type: 'connected', connected: false, unreachable: true });
  assert.equal(s.unreachable, true);
  s = server(s, { type: 'welcome', player: 'hana', token: 't', saved: {}, room: null });
  assert.equal(s.unreachable, false);
  assert.equal(s.rejoin, 'due', 'nothing to wait for: any kept frame is dropped');
});

test('putting down a race on your own shows it can be picked up', () => {
  const solo = { ...playing(), solo: true };
  let s = model(server(initialState, full(solo)), { type: 'left' });
  assert.equal(screenOf(s), 'home');
  assert.equal(s.saved.race, true);
  s = model(server(initialState, full(playing())), { type: 'left' });
  assert.equal(s.saved.race, false);
});

test('a welcome with no room to go back to drops the room we held', () => {
  let s = server(initialState, full(playing()));
  s = server(s, { type: 'welcome', player: 'hana', token: 't', saved: { race: false, together: true }, room: null });
  assert.equal(screenOf(s), 'home');
  assert.equal(s.saved.together, true);
});

test('after leaving, the room we left no longer pulls us back; entering another one does', () => {
  let s = model(server(initialState, full(playing())), { type: 'left' });
  s = server(s, full({ ...playing(), phase: 'closed' }, 11));
  assert.equal(screenOf(s), 'home');
  s = model(s, { type: 'entering' });
  s = server(s, full({ ...playing(), code: 'NEW123', phase: 'lobby' }, 1));
  assert.equal(screenOf(s), 'lobby');
});

test('the connection counts as up only once the welcome has come', () => {
  let s = model(initialState, { type: 'connected', connected: false });
  assert.equal(s.connected, false);
  s = server(s, { type: 'welcome', player: 'hana', token: 't', saved: { race: false, together: false }, room: null });
  assert.equal(s.connected, true);
});
