import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as K from '../../frontend/js/clock.js';

test('a running clock runs on from when it started; a stopped one does not', () => {
  assert.equal(K.elapsed({ elapsed_ms: 5000, running: true, since: 1000, at: 2000 }, 3500), 7500);
  assert.equal(K.elapsed({ elapsed_ms: 5000, running: false, since: null, at: 1000 }, 3500), 5000);
  assert.equal(K.elapsed({ elapsed_ms: 5000, running: true, since: 1000, at: 1000 }, 900), 5000);
});

test('a stop and a start, as diffs of a held reading, show the server\'s time', () => {
  // Started at 1000; Done at 4000 banks 3 s; taken back at 9000 runs on from there.
  let reading = { elapsed_ms: 0, running: true, since: 1000, at: 1000 };
  reading = { ...reading, elapsed_ms: 3000, running: false, since: null };
  assert.equal(K.elapsed(reading, 8000), 3000);
  reading = { ...reading, running: true, since: 9000 };
  assert.equal(K.elapsed(reading, 10_000), 4000);
});

test('server time is estimated from the offset learnt at a reading', () => {
  const offset = K.offsetFrom(1_700_000_000_000, 1_699_999_998_000);
  assert.equal(offset, 2000);
  assert.equal(K.serverNow(1_699_999_999_000, offset), 1_700_000_001_000);
});

test('time left shows only in the last minute of a limit', () => {
  const reading = { elapsed_ms: 250_000, running: true, since: 0, at: 0 };
  assert.equal(K.timeLeft(300_000, reading, 0), 50_000);
  assert.equal(K.showTimeLeft(K.timeLeft(300_000, reading, 0)), true);
  assert.equal(K.showTimeLeft(K.timeLeft(300_000, { ...reading, elapsed_ms: 230_000 }, 0)), false);
  assert.equal(K.timeLeft(null, reading, 0), null);
  assert.equal(K.timeLeft(300_000, reading, 99_000), 0);
});

test('clocks read as minutes and seconds', () => {
  assert.equal(K.formatClock(0), '0:00');
  assert.equal(K.formatClock(65_900), '1:05');
  assert.equal(K.formatClock(3_725_000), '1:02:05');
  assert.equal(K.formatLeft(59_001), '1:00');
  assert.equal(K.formatLeft(0), '0:00');
});

test('a tick goes out once per due time, and again only after the retry wait', () => {
  assert.equal(K.tickDue(null, 10, null), false);
  assert.equal(K.tickDue(100, 99, null), false);
  assert.equal(K.tickDue(100, 100, null), true);
  assert.equal(K.tickDue(100, 200, { due: 100, sent: 150 }), false);
  assert.equal(K.tickDue(100, 5200, { due: 100, sent: 150 }), true);
  assert.equal(K.tickDue(300, 300, { due: 100, sent: 299 }), true);
});
