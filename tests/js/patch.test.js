import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mergePatch } from '../../frontend/js/patch.js';

test('objects merge key by key and null removes a key', () => {
  const view = { phase: 'playing', game: { board: '..', paused: false, result: { a: 1 } } };
  const next = mergePatch(view, { game: { board: 'A.', result: null } });
  assert.deepEqual(next, { phase: 'playing', game: { board: 'A.', paused: false } });
});

test('arrays and scalars are replaced whole', () => {
  assert.deepEqual(mergePatch({ a: [1, 2, 3] }, { a: [4] }), { a: [4] });
  assert.deepEqual(mergePatch({ a: { b: 1 } }, { a: 5 }), { a: 5 });
  assert.deepEqual(mergePatch({ a: 5 }, { a: { b: 1, c: null } }), { a: { b: 1 } });
});

test('the held view is never mutated', () => {
  const view = Object.freeze({ game: Object.freeze({ board: '..' }) });
  const next = mergePatch(view, { game: { board: 'AB' } });
  assert.equal(view.game.board, '..');
  assert.equal(next.game.board, 'AB');
});

test('an empty patch changes nothing and a non-object patch replaces the target', () => {
  assert.deepEqual(mergePatch({ a: 1 }, {}), { a: 1 });
  assert.equal(mergePatch({ a: 1 }, 'x'), 'x');
  assert.deepEqual(mergePatch(null, { a: 1 }), { a: 1 });
});
