import { test } from 'node:test';
import assert from 'node:assert/strict';
import { hostNews } from '../../frontend/js/views/host_news.js';

const members = [{ player: 'hana', name: 'Hana' }, { player: 'ann', name: 'Ann' }, { player: 'bo', name: 'Bo' }];
const passed = (you) => ({ you, host: 'ann', host_was: 'hana', members });

test('the new host is told the role is theirs, and what it lets them do', () => {
  assert.equal(hostNews(passed('ann')), 'Hana has been away two minutes, so you are the host now: you pick the puzzle, and can pause or end a game.');
});

test('the old host and everyone else are told who hosts now', () => {
  assert.equal(hostNews(passed('hana')), 'Your phone was away two minutes, so Ann is the host now.');
  assert.equal(hostNews(passed('bo')), 'Hana has been away two minutes, so Ann is the host now.');
});

test('no news when the role has not passed on', () => {
  assert.equal(hostNews({ you: 'ann', host: 'hana', host_was: null, members }), '');
  assert.equal(hostNews({ you: 'ann', host: 'hana', members }), ''); // a server that does not say
  assert.equal(hostNews(null), '');
});
