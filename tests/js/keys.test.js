import { test } from 'node:test';
import assert from 'node:assert/strict';
import { commandFor, commandForKey, KEY_ROWS } from '../../frontend/js/keys.js';

const key = (k, mods = {}) => commandFor({ key: k, shiftKey: false, ctrlKey: false, metaKey: false, altKey: false, ...mods });

test('letters type in capitals', () => {
  assert.deepEqual(key('q'), { kind: 'letter', letter: 'Q' });
  assert.deepEqual(key('Q', { shiftKey: true }), { kind: 'letter', letter: 'Q' });
});

test('the computer keys map to the game commands', () => {
  assert.deepEqual(key('Backspace'), { kind: 'delete' });
  assert.deepEqual(key('ArrowUp'), { kind: 'arrow', dx: 0, dy: -1 });
  assert.deepEqual(key('Tab'), { kind: 'clue', step: 1 });
  assert.deepEqual(key('Enter', { shiftKey: true }), { kind: 'clue', step: -1 });
  assert.deepEqual(key('Tab', { shiftKey: true }), { kind: 'clue', step: -1 });
  assert.deepEqual(key(' '), { kind: 'turn' });
  assert.deepEqual(key('Escape'), { kind: 'pause' });
  assert.deepEqual(key('?', { shiftKey: true }), { kind: 'help' });
});

test('Ctrl-Z and Command-Z undo; other shortcuts are left to the browser', () => {
  assert.deepEqual(key('z', { ctrlKey: true }), { kind: 'undo' });
  assert.deepEqual(key('z', { metaKey: true }), { kind: 'undo' });
  assert.equal(key('r', { ctrlKey: true }), null);
  assert.equal(key('1'), null);
  assert.equal(key('F5'), null);
});

test('the on-screen keyboard has every letter once, and delete', () => {
  const keys = KEY_ROWS.join('');
  assert.equal(new Set(keys.replace('⌫', '')).size, 26);
  assert.deepEqual(commandForKey('⌫'), { kind: 'delete' });
  assert.deepEqual(commandForKey('M'), { kind: 'letter', letter: 'M' });
});
