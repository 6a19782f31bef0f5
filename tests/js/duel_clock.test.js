import assert from 'node:assert/strict';
import { test } from 'node:test';

import * as C from '../../frontend/js/duel/clock.js';

const game = (over = {}) => ({
  turn: 0,
  result: null,
  now: 1_000_000,
  due_at: 1_180_000,
  seats: [
    { time_left: 180_000, out_of_time: false },
    { time_left: 170_000, out_of_time: false },
  ],
  ...over,
});

test('only the clock of the seat to move runs, from time_left and the local time since', () => {
  assert.deepEqual(C.clocksAt(game(), 5000, 5000), [180_000, 170_000]);
  assert.deepEqual(C.clocksAt(game(), 5000, 17_500), [167_500, 170_000]);
  assert.deepEqual(C.clocksAt(game({ turn: 1 }), 5000, 15_000), [180_000, 160_000]);
});

test('a clock stops at zero, after the game, and for a player out of time', () => {
  assert.deepEqual(C.clocksAt(game(), 0, 999_999), [0, 170_000]);
  assert.deepEqual(C.clocksAt(game({ result: { winner: 1 }, turn: null }), 0, 60_000), [180_000, 170_000]);
  const out = game({ seats: [{ time_left: 0, out_of_time: true }, { time_left: 1000, out_of_time: false }] });
  assert.deepEqual(C.clocksAt(out, 0, 50_000), [0, 1000]);
});

test('Unlimited has no clocks', () => {
  const g = game({ seats: [{ time_left: null }, { time_left: null }], due_at: null });
  assert.deepEqual(C.clocksAt(g, 0, 10_000), [null, null]);
  assert.equal(C.mmss(null), '');
  assert.equal(C.clocksAt(null, 0, 0).length, 2);
});

test('clocks read mm:ss, rounded up, and are low from thirty seconds', () => {
  assert.equal(C.mmss(180_000), '3:00');
  assert.equal(C.mmss(1_200_000), '20:00');
  assert.equal(C.mmss(59_001), '1:00');
  assert.equal(C.mmss(9_500), '0:10');
  assert.equal(C.mmss(0), '0:00');
  assert.equal(C.mmss(-5), '0:00');
  assert.equal(C.isLow(30_000), true);
  assert.equal(C.isLow(31_000), false);
  assert.equal(C.isLow(null), false);
});

test('server time runs on from the message; the tick is due when due_at comes, once per due time', () => {
  const g = game();
  assert.equal(C.serverNowAt(g, 5000, 7000), 1_002_000);
  const now = C.serverNowAt(g, 5000, 5000 + 180_000);
  assert.equal(C.tickDue(g.due_at, now - 1, null), false);
  assert.equal(C.tickDue(g.due_at, now, null), true);
  assert.equal(C.tickDue(g.due_at, now + 100, { due: g.due_at, sent: now }), false);
  assert.equal(C.tickDue(null, now, null), false);
});

test("a clock the server says stands still (a bot's while it waits) does not run on the page", () => {
  const g = game({ turn: 1, seats: [{ time_left: 180_000, out_of_time: false }, { time_left: 170_000, out_of_time: false, running: false }] });
  assert.deepEqual(C.clocksAt(g, 5000, 15_000), [180_000, 170_000]);
  g.seats[1].running = true;
  assert.deepEqual(C.clocksAt(g, 5000, 15_000), [180_000, 160_000]);
});
