import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fitBoards } from '../../frontend/js/views/fit.js';

test('two racers on a wide TV sit side by side, as tall as the screen allows', () => {
  const { cols, size } = fitBoards(2, 1280, 600, { gap: 20, caption: 40 });
  assert.equal(cols, 2);
  assert.equal(size, 560);
});

test('six racers on a TV fill it in rows, and every board fits', () => {
  const { cols, size } = fitBoards(6, 1280, 600, { gap: 20, caption: 40 });
  assert.equal(cols, 3);
  const rows = Math.ceil(6 / cols);
  assert.ok(rows * (size + 40) + (rows - 1) * 20 <= 600);
  assert.ok(cols * size + (cols - 1) * 20 <= 1280);
  assert.ok(size >= 250);
});

test('one racer takes the whole height', () => {
  assert.deepEqual(fitBoards(1, 1280, 600, { gap: 20, caption: 40 }), { cols: 1, size: 560 });
});
