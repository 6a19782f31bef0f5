import { test } from 'node:test';
import assert from 'node:assert/strict';
import { nextChoice, choiceSettled } from '../../frontend/js/model.js';

const view = { mode: 'race', size: 'midi' };

test('a tap on a size keeps the mode the host just tapped, before the room shows it', () => {
  const first = nextChoice(null, view, { mode: 'together' });
  assert.deepEqual(first, { mode: 'together', size: 'midi' });
  const second = nextChoice(first, view, { size: 'mini' }); // view still says race
  assert.deepEqual(second, { mode: 'together', size: 'mini' });
});

test('the pending choice is forgotten once the room shows it', () => {
  assert.equal(choiceSettled({ mode: 'together', size: 'mini' }, view), false);
  assert.equal(choiceSettled({ mode: 'together', size: 'mini' }, { mode: 'together', size: 'mini' }), true);
  assert.equal(choiceSettled(null, view), true);
});
