import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createOutbox, resendDelay, RESEND_LIMIT } from '../../frontend/js/resend.js';

function harness() {
  const posted = [];
  const timers = [];
  const outbox = createOutbox({
    post: (text) => posted.push(text),
    schedule: (fn, ms) => timers.push({ fn, ms }),
    random: () => 1,
  });
  const fire = () => timers.splice(0).forEach((t) => t.fn());
  return { outbox, posted, timers, fire };
}

const busy = (seq) => ({ type: 'error', code: 'busy', seq, message: 'busy' });

test('a letter refused busy goes again with the same seq until it is acknowledged', () => {
  const { outbox, posted, timers, fire } = harness();
  const frame = JSON.stringify({ action: 'type', seq: 7, square: 3, letter: 'A' });
  outbox.sent(7, frame);
  assert.equal(outbox.received(busy(7)), true); // the page does not drop the letter
  assert.equal(timers.length, 1);
  fire();
  assert.deepEqual(posted, [frame]);
  assert.equal(outbox.received(busy(7)), true);
  fire();
  assert.deepEqual(posted, [frame, frame]);
  assert.ok(timers.length === 0);
  assert.equal(outbox.received({ type: 'ack', seq: 7, version: 9 }), false); // the page hears the ack
  assert.equal(outbox.size, 0);
});

test('the waits grow and are bounded, and after the limit the page hears the refusal', () => {
  const { outbox, timers, fire } = harness();
  outbox.sent(1, '{}');
  const waits = [];
  for (let i = 0; i < RESEND_LIMIT; i += 1) {
    assert.equal(outbox.received(busy(1)), true);
    waits.push(timers[0].ms);
    fire();
  }
  assert.deepEqual(waits, [...waits].sort((a, b) => a - b));
  assert.ok(waits.at(-1) <= 4000);
  assert.equal(outbox.received(busy(1)), false);
  assert.equal(outbox.size, 0);
});

test('a letter the server could not save goes again for as long as it takes', () => {
  const { outbox, posted, timers, fire } = harness();
  const frame = JSON.stringify({ action: 'type', seq: 4, square: 1, letter: 'B' });
  outbox.sent(4, frame);
  const storage = { type: 'error', code: 'storage', seq: 4, message: 'could not save' };
  const waits = [];
  for (let i = 0; i < RESEND_LIMIT * 3; i += 1) {
    assert.equal(outbox.received(storage), true); // kept, never dropped
    waits.push(timers[0].ms);
    fire();
  }
  assert.equal(posted.length, RESEND_LIMIT * 3);
  assert.ok(posted.every((text) => text === frame)); // the same seq every time
  assert.ok(waits.at(-1) <= 4000 && waits.at(-1) >= waits[0]);
  assert.equal(outbox.received({ type: 'ack', seq: 4, version: 3 }), false);
  assert.equal(outbox.size, 0);
});

test('other refusals and unknown seqs are the page\'s to handle', () => {
  const { outbox, timers } = harness();
  outbox.sent(2, '{}');
  assert.equal(outbox.received({ type: 'error', code: 'bad-letter', seq: 2, message: 'no' }), false);
  assert.equal(outbox.received(busy(99)), false);
  assert.equal(timers.length, 0);
});

test('a socket that closes forgets what was waiting, so nothing is sent on the next one', () => {
  const { outbox, posted, fire } = harness();
  outbox.sent(3, 'x');
  outbox.received(busy(3));
  outbox.clear();
  fire();
  assert.deepEqual(posted, []);
});

test('jitter keeps the wait between half and all of the step', () => {
  assert.equal(resendDelay(0, () => 0), 75);
  assert.equal(resendDelay(0, () => 1), 150);
  assert.equal(resendDelay(10, () => 1), 4000);
});
