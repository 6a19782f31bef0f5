// The socket over a fake WebSocket and fake timers: what a page sends when its
// connection dies without a close (a tunnel), when it comes back, and after a reload.
import { test, mock, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { openSocket } from '../../frontend/js/socket.js';
import { heartbeat, PING_MS, DEAD_MS, CONNECT_MS, OFFLINE_AFTER } from '../../frontend/js/heartbeat.js';
import { memoryStorage } from './memory_storage.js';

class FakeSocket {
  static CONNECTING = 0;
  static OPEN = 1;
  static CLOSED = 3;
  static made = [];
  constructor(url) {
    this.url = url;
    this.readyState = FakeSocket.CONNECTING;
    this.sent = [];
    this.handlers = {};
    this.closed = false;
    FakeSocket.made.push(this);
  }
  addEventListener(type, fn) {
    (this.handlers[type] ||= []).push(fn);
  }
  emit(type, e = {}) {
    for (const fn of this.handlers[type] || []) fn(e);
  }
  send(text) {
    this.sent.push(JSON.parse(text));
  }
  close() {
    this.closed = true; // in a tunnel no close event ever follows
  }
  open() {
    this.readyState = FakeSocket.OPEN;
    this.emit('open');
  }
  hear(message) {
    this.emit('message', { data: JSON.stringify(message) });
  }
}

globalThis.WebSocket = FakeSocket;
globalThis.window = { addEventListener() {} };
globalThis.document = { addEventListener() {}, visibilityState: 'visible' };

const GAME = { room: 'HVUEN8', puzzle: 'cw-000000000001' };
const KEPT = new Set(['type', 'clear', 'done']);

function page({ storage = memoryStorage(), kept = memoryStorage(), alive = true } = {}) {
  const statuses = [];
  const heard = [];
  const socket = openSocket({
    url: 'ws://game/ws', storage, kept,
    onMessage: (m) => heard.push(m),
    onStatus: (connected, how) => statuses.push({ connected, ...how }),
    keep: (action) => (KEPT.has(action) ? GAME : null),
    alive: () => alive,
  });
  return { socket, statuses, heard, storage, kept };
}

const welcome = (player = 'hana') => ({ type: 'welcome', player, token: 't', room: GAME.room, saved: {} });
const last = () => FakeSocket.made.at(-1);
const actions = (ws) => ws.sent.map((f) => f.action);

function start(now = 1_000_000) {
  FakeSocket.made = [];
  mock.timers.enable({ apis: ['setTimeout', 'setInterval', 'Date'], now });
}
afterEach(() => mock.timers.reset());

// Opens the socket now being dialled and gives it its seat back in the room.
function seated(p, player = 'hana') {
  const ws = last();
  ws.open();
  ws.hear(welcome(player));
  return ws;
}

test('letters lost in a tunnel go again after the reconnect with their own seqs, oldest first, before anything new', () => {
  start();
  const p = page();
  const first = seated(p);
  assert.deepEqual(p.socket.resend(() => true), []); // nothing was waiting
  const a = p.socket.send('type', { square: 2, letter: 'A' });
  first.hear({ type: 'ack', seq: a, version: 11 });
  // Quiet for a moment: the page asks whether the socket still carries frames.
  mock.timers.tick(PING_MS + 500);
  const ping = first.sent.at(-1);
  assert.equal(ping.action, 'ping');
  assert.ok(ping.seq > a, 'a ping is numbered from the same counter');
  // The tunnel: nothing comes back, and no close either.
  const b = p.socket.send('type', { square: 3, letter: 'B' });
  const c = p.socket.send('clear', { square: 4 });
  assert.ok(b > ping.seq && c > b);
  assert.ok(p.statuses.every((s) => s.connected));
  mock.timers.tick(DEAD_MS);
  assert.deepEqual(p.statuses.at(-1), { connected: false, unreachable: false }, 'dead within DEAD_MS of the ping');
  assert.equal(first.closed, true);
  // Typed while connecting again: kept too.
  const d = p.socket.send('type', { square: 5, letter: 'D' });
  assert.ok(d > c);
  mock.timers.tick(500); // the first redial comes within half a second
  const second = last();
  assert.notEqual(second, first);
  second.open();
  second.hear(welcome());
  const e = p.socket.send('done'); // typed before the room's view is back: waits its turn
  assert.deepEqual(actions(second), ['hello']);
  const again = p.socket.resend(() => true);
  assert.deepEqual(again.map((f) => f.seq), [b, c, d, e]);
  assert.deepEqual(second.sent.slice(1).map((f) => f.seq), [b, c, d, e]);
  assert.deepEqual(second.sent[1], { action: 'type', seq: b, square: 3, letter: 'B' });
  assert.ok(!second.sent.some((f) => f.action === 'ping' || f.seq === a), 'neither the ping nor the answered letter');
  // Answered now: nothing more is kept, and a new letter goes straight out.
  for (const seq of [b, c, d, e]) second.hear({ type: 'ack', seq, version: 12, duplicate: seq === b });
  const f = p.socket.send('type', { square: 6, letter: 'F' });
  assert.equal(second.sent.at(-1).seq, f);
  assert.ok(f > second.sent[0].seq, 'the new letter is numbered after the hello');
});

test('a page reloaded sends its unanswered letters again, for the same player and game only', () => {
  start();
  const storage = memoryStorage();
  const kept = memoryStorage();
  const before = page({ storage, kept });
  seated(before);
  before.socket.resend(() => true);
  const b = before.socket.send('type', { square: 3, letter: 'B' });
  const c = before.socket.send('type', { square: 4, letter: 'C' });
  before.socket.close();
  // The reloaded page: same tab, same storages.
  const after = page({ storage, kept });
  const ws = seated(after);
  const again = after.socket.resend((tag) => tag.room === GAME.room && tag.puzzle === GAME.puzzle);
  assert.deepEqual(again.map((f) => [f.seq, f.letter]), [[b, 'B'], [c, 'C']]);
  assert.deepEqual(ws.sent.slice(1).map((f) => f.seq), [b, c]);
  // Another game, or another player: dropped, never sent.
  const other = page({ storage: memoryStorage(), kept });
  seated(other);
  assert.deepEqual(other.socket.resend(() => false), []);
  const third = page({ storage: memoryStorage(), kept });
  seated(third, 'someone-else');
  assert.deepEqual(third.socket.resend(() => true), []);
});

test('a game screen pings only when quiet, and a lobby not at all', () => {
  start();
  const p = page({ alive: false });
  const ws = seated(p);
  mock.timers.tick(DEAD_MS * 3);
  assert.deepEqual(actions(ws), ['hello']);
  assert.deepEqual(p.statuses, [{ connected: true }]);
});

test('a socket that never opens is given up, and after a few such attempts the page says it cannot reach the game', () => {
  start();
  const p = page();
  for (let i = 1; i <= OFFLINE_AFTER; i += 1) {
    const ws = last();
    mock.timers.tick(CONNECT_MS);
    assert.equal(ws.closed, true);
    assert.deepEqual(p.statuses.at(-1), { connected: false, unreachable: i >= OFFLINE_AFTER });
    mock.timers.tick(15000); // the longest backoff
  }
  seated(p);
  p.socket.resend(() => true);
  mock.timers.tick(PING_MS + 500);
  last().hear({ type: 'ack', seq: last().sent.at(-1).seq, version: null });
  assert.ok(!p.heard.some((m) => m.type === 'ack'), 'the answer to a ping is not the page\'s');
  mock.timers.tick(DEAD_MS);
  assert.equal(p.statuses.at(-1).connected, true, 'a socket that answers stays');
});

test('the heartbeat: ask when quiet, wait while a frame is out, dead when nothing answers', () => {
  const quiet = { now: 10_000, lastSent: 10_000 - PING_MS, lastHeard: 5000, awaiting: null };
  assert.equal(heartbeat(quiet), 'ping');
  assert.equal(heartbeat({ ...quiet, lastHeard: 9000 }), 'wait', 'heard from lately');
  assert.equal(heartbeat({ ...quiet, awaiting: 10_000 - DEAD_MS + 1 }), 'wait');
  assert.equal(heartbeat({ ...quiet, awaiting: 10_000 - DEAD_MS }), 'dead');
});
