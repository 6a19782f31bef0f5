import assert from 'node:assert/strict';
import { test } from 'node:test';

import * as T from '../../frontend/js/tiles/board.js';
import { detached } from './fake_dom.js';

// A rule set as the server sends it: its own layout and values, not the Duel's.
const layout = Array.from({ length: 15 }, () => '.'.repeat(15));
layout[0] = 'T' + '.'.repeat(13) + 'd';
layout[7] = '.'.repeat(7) + '*' + '.'.repeat(7);
layout[1] = '.t' + '.'.repeat(12) + 'D';
const tiles = [{ letter: 'A', value: 2, count: 9 }, { letter: 'Q', value: 12, count: 1 }];
const rules = { name: 'test', layout, tiles, star_multiplies: true };

const at = (el, row, col) => el.children[row * 15 + col];

test('a board of 225 squares, each knowing its row and column', () => {
  const el = detached();
  T.mountBoard(el);
  assert.equal(el.children.length, 225);
  assert.equal(at(el, 3, 4).dataset.row, '3');
  assert.equal(at(el, 3, 4).dataset.col, '4');
  assert.equal(at(el, 0, 0).tagName, 'BUTTON');
  const still = detached();
  T.mountBoard(still, { square: 'span' });
  assert.equal(still.children[0].tagName, 'SPAN');
});

test('premium squares come from the rule set layout, with one label scheme', () => {
  const el = detached();
  T.mountBoard(el);
  T.paintBoard(el, rules, () => null);
  assert.equal(at(el, 0, 0).textContent, 'TW');
  assert.ok(at(el, 0, 0).classList.contains('sq-tw'));
  assert.equal(at(el, 0, 14).textContent, 'DL');
  assert.equal(at(el, 1, 1).textContent, 'TL');
  assert.equal(at(el, 1, 14).textContent, 'DW');
  assert.equal(at(el, 7, 7).textContent, '★');
  assert.equal(at(el, 7, 7).getAttribute('aria-label'), 'row 8, column 8, centre star, double word');
  assert.equal(at(el, 2, 2).textContent, '');
  assert.equal(at(el, 2, 2).className, 'sq');
});

test("a star that does not double the word is not called a double word (Crossplay's)", () => {
  const el = detached();
  T.mountBoard(el);
  T.paintBoard(el, { ...rules, star_multiplies: false }, () => null);
  assert.equal(at(el, 7, 7).textContent, '★');
  assert.equal(at(el, 7, 7).getAttribute('aria-label'), 'row 8, column 8, centre star');
});

test('switching rule sets redraws the premiums and the values', () => {
  const el = detached();
  T.mountBoard(el);
  const other = { name: 'other', layout: layout.map((row) => [...row].reverse().join('')), tiles: [{ letter: 'Q', value: 10, count: 1 }] };
  const look = (row, col) => (row === 5 && col === 5 ? { tile: { letter: 'Q' } } : null);
  T.paintBoard(el, rules, look);
  assert.equal(at(el, 5, 5).children[1].textContent, '12');
  T.paintBoard(el, other, look);
  assert.equal(at(el, 0, 0).textContent, 'DL');
  assert.equal(at(el, 0, 14).textContent, 'TW');
  assert.equal(at(el, 5, 5).children[1].textContent, '10');
});

test("a tile shows its letter and the rule set's value; a blank shows no value", () => {
  const el = detached();
  T.mountBoard(el);
  const rows = [...layout.map(() => '.'.repeat(15))];
  rows[0] = 'Q' + '.'.repeat(14);
  rows[7] = '.'.repeat(7) + 'Aa' + '.'.repeat(6);
  T.paintBoard(el, rules, T.tilesOf(rows));
  const q = at(el, 0, 0);
  assert.deepEqual(q.children.map((c) => [c.className, c.textContent]), [['sq-letter', 'Q'], ['sq-value', '12']]);
  assert.ok(q.classList.contains('sq-tile') && !q.classList.contains('sq-tw'), 'a tile covers the premium');
  assert.equal(at(el, 7, 7).children[1].textContent, '2');
  assert.equal(at(el, 7, 8).children[0].textContent, 'A');
  assert.equal(at(el, 7, 8).children.length, 1, 'a blank has no value on it, as a real one');
  assert.ok(at(el, 7, 8).classList.contains('sq-blank'));
  assert.equal(at(el, 7, 8).getAttribute('aria-label'), 'row 8, column 9, A, a blank');
});

test('the cursor: its arrow, its words, and the one square in the tab order', () => {
  const el = detached();
  T.mountBoard(el);
  T.paintBoard(el, rules, () => null);
  const tabStops = () => el.children.filter((c) => c.getAttribute('tabindex') === '0').map((c) => [c.dataset.row, c.dataset.col]);
  assert.deepEqual(tabStops(), [['7', '7']], 'no cursor: the centre');
  assert.equal(at(el, 7, 7).getAttribute('aria-current'), 'false');
  T.paintBoard(el, rules, () => null, { cursor: { row: 2, col: 3, direction: 'down' } });
  const cell = at(el, 2, 3);
  assert.ok(cell.classList.contains('sq-cursor') && cell.classList.contains('sq-cursor-down'));
  assert.equal(cell.getAttribute('aria-current'), 'true');
  assert.equal(cell.getAttribute('aria-label'), 'row 3, column 4, typing down');
  assert.deepEqual(tabStops(), [['2', '3']]);
  assert.equal(el.children.filter((c) => c.classList.contains('sq-cursor')).length, 1);
  T.paintBoard(el, rules, () => null, { cursor: { row: 2, col: 3, direction: 'across' } });
  assert.ok(cell.classList.contains('sq-cursor-across') && !cell.classList.contains('sq-cursor-down'));
  T.paintBoard(el, rules, () => null);
  assert.ok(!cell.classList.contains('sq-cursor'));
  assert.equal(cell.getAttribute('aria-current'), 'false');
  assert.deepEqual(tabStops(), [['7', '7']]);
});

test('a board of spans (a picture, not for tapping) has no tab stop', () => {
  const el = detached();
  T.mountBoard(el, { square: 'span' });
  T.paintBoard(el, rules, () => null);
  assert.ok(el.children.every((c) => c.getAttribute('tabindex') === null && c.getAttribute('aria-current') === null));
});

test("a page's marks and words join the square's; an unchanged square is not touched again", () => {
  const el = detached();
  T.mountBoard(el);
  const look = (row, col) => (row === 7 && col === 7 ? { tile: { letter: 'A' }, marks: ['sq-last'], label: 'the last play' } : null);
  T.paintBoard(el, rules, look);
  const centre = at(el, 7, 7);
  assert.ok(centre.classList.contains('sq-last'));
  assert.equal(centre.getAttribute('aria-label'), 'row 8, column 8, A, the last play');
  const writes = el.children.map((c) => c.writes);
  T.paintBoard(el, rules, look);
  assert.deepEqual(el.children.map((c) => c.writes), writes);
  T.paintBoard(el, rules, () => null);
  assert.equal(centre.writes, writes[7 * 15 + 7] + 1);
  assert.equal(centre.textContent, '★');
});

test('values and counts read from the rule set', () => {
  assert.equal(T.valueOf(rules, 'q'), 0, 'lower case is a blank');
  assert.equal(T.valueOf(rules, 'Q'), 12);
  assert.equal(T.valueOf(rules, 'Z'), 0);
  assert.deepEqual(T.countsOf(rules), { A: 9, Q: 1 });
});
