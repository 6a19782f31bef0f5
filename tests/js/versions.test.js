import { test } from 'node:test';
import assert from 'node:assert/strict';
import { receiveRoom } from '../../frontend/js/versions.js';

const held = { view: { phase: 'lobby', members: [] }, version: 4 };

test('a full view replaces whatever is held', () => {
  const out = receiveRoom({ view: null, version: 0 }, { version: 9, full: true, room: { phase: 'table' } });
  assert.deepEqual(out, { view: { phase: 'table' }, version: 9, snapshot: false });
});

test('the next version applies as a patch', () => {
  const out = receiveRoom(held, { version: 5, full: false, room: { phase: 'table' } });
  assert.equal(out.view.phase, 'table');
  assert.equal(out.version, 5);
  assert.equal(out.snapshot, false);
});

test('a skipped version asks for a snapshot and keeps the held view', () => {
  const out = receiveRoom(held, { version: 6, full: false, room: { phase: 'table' } });
  assert.equal(out.snapshot, true);
  assert.equal(out.view, held.view);
  assert.equal(out.version, 4);
});

test('a patch before any full view asks for a snapshot', () => {
  assert.equal(receiveRoom({ view: null, version: 0 }, { version: 1, full: false, room: {} }).snapshot, true);
});

test('an old or repeated version is ignored', () => {
  const out = receiveRoom(held, { version: 4, full: false, room: { phase: 'results' } });
  assert.equal(out.view, held.view);
  assert.equal(out.snapshot, false);
});
