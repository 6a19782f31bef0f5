// Drawing the Duel page from state. No decisions here beyond what to show; every
// string from the server goes in as text, never as HTML.
import { one, text, show } from '../views/dom.js';
import { SIZE, squareOf, freeIndexes, valueOf } from './board.js';
import { clocksAt, mmss, isLow } from './clock.js';
import { LIMITS, limitLabel, valueFromLimit, whoAmI, challengeable, seekLink, ratedNote, seekRatedLabel } from './lobby.js';
import { seatName, seatNote, moveLine, turnText, reasonText, winnerText, resultRows } from './describe.js';
import { myTurn } from './model.js';

const PREMIUM = {
  d: { cls: 'sq-dl', label: 'DL', name: 'double letter' },
  t: { cls: 'sq-tl', label: 'TL', name: 'triple letter' },
  D: { cls: 'sq-dw', label: 'DW', name: 'double word' },
  T: { cls: 'sq-tw', label: 'TW', name: 'triple word' },
  '*': { cls: 'sq-star', label: '★', name: 'centre star, double word' },
};

export const premiumOf = (premiums, row, col) => PREMIUM[premiums?.[row]?.[col]] ?? null;

// --- lobby --------------------------------------------------------------------------

export function mountLimits(root) {
  const group = one(root, '[data-slot=limits]');
  group.replaceChildren(...LIMITS.map((l) => {
    const b = document.createElement('button');
    b.type = 'button';
    b.dataset.limit = valueFromLimit(l.ms);
    b.textContent = l.label;
    return b;
  }));
}

export function paintLobby(root, state) {
  const me = whoAmI(state.account);
  text(one(root, '[data-slot=my-name]'), me.name);
  text(one(root, '[data-slot=my-rating]'), me.rating);
  text(one(root, '[data-slot=my-note]'), me.guest ? 'guest, not rated' : '');
  show(one(root, '[data-form=sign]'), me.guest);
  show(one(root, '[data-slot=guest-name]'), me.guest);
  show(one(root, '[data-slot=sign-label]'), me.guest);
  show(one(root, '[data-act=sign-out]'), !me.guest);
  const signError = state.error && ['name-taken', 'bad-name', 'weak-password', 'wrong-password', 'too-many'].includes(state.error.code)
    ? state.error.message : '';
  text(one(root, '[data-slot=sign-error]'), signError || (state.signing ? 'Signing in…' : ''));
  for (const b of root.querySelectorAll('[data-form=sign] button')) b.disabled = Boolean(state.signing) || !state.welcomed;

  text(one(root, '[data-slot=rated-note]'), ratedNote(state.account));
  for (const b of root.querySelectorAll('[data-limit]')) {
    b.setAttribute('aria-pressed', String(b.dataset.limit === valueFromLimit(state.limit)));
  }
  const lobby = state.lobby;
  const mine = lobby?.mine ?? null;
  show(one(root, '[data-slot=mine]'), Boolean(mine));
  const busy = !state.welcomed;
  for (const b of root.querySelectorAll('[data-act=seek], [data-act=friend]')) b.disabled = busy || Boolean(mine);
  for (const b of root.querySelectorAll('[data-bot]')) b.disabled = busy;
  if (mine) {
    text(one(root, '[data-slot=mine-text]'), mine.private
      ? `Your private game (${limitLabel(mine.limit)}) is waiting: send this link to the friend you want to play.`
      : `Your game (${limitLabel(mine.limit)}) is waiting for an opponent…`);
    const link = mine.private ? seekLink(location.href, mine) : null;
    show(one(root, '[data-slot=link-row]'), Boolean(link));
    const input = one(root, '[data-slot=link]');
    if (link && input.value !== link) input.value = link;
  }

  const seeks = challengeable(lobby);
  const list = one(root, '[data-slot=seeks]');
  const keys = seeks.map((s) => `${s.id}:${s.will_rate}`).join('|');
  if (list.dataset.keys !== keys) {
    list.replaceChildren(...seeks.map((s) => {
      const li = document.createElement('li');
      li.className = 'seek';
      li.dataset.seek = s.id;
      const who = document.createElement('span');
      who.className = 'who';
      const name = document.createElement('strong');
      name.textContent = s.name;
      const rating = document.createElement('span');
      rating.className = 'rating';
      rating.textContent = String(s.rating ?? 1000);
      who.append(name, ' ', rating);
      const limit = document.createElement('span');
      limit.className = 'limit';
      limit.textContent = `${limitLabel(s.limit)} · ${seekRatedLabel(s)}`;
      const b = document.createElement('button');
      b.type = 'button';
      b.dataset.challenge = s.id;
      b.textContent = 'Challenge';
      b.setAttribute('aria-label', `Challenge ${s.name}, ${limitLabel(s.limit)}, ${seekRatedLabel(s)}`);
      li.append(who, limit, b);
      return li;
    }));
    list.dataset.keys = keys;
  }
  show(one(root, '[data-slot=no-seeks]'), seeks.length === 0);
}

// --- game ---------------------------------------------------------------------------

export function mountBoard(root) {
  const board = one(root, '[data-slot=board]');
  const cells = [];
  for (let row = 0; row < SIZE; row += 1) {
    for (let col = 0; col < SIZE; col += 1) {
      const b = document.createElement('button');
      b.type = 'button';
      b.className = 'sq';
      b.dataset.row = String(row);
      b.dataset.col = String(col);
      cells.push(b);
    }
  }
  board.replaceChildren(...cells);
}

function paintSquare(cell, state, premiums, row, col) {
  const place = state.place;
  const square = squareOf(place, row, col);
  const premium = premiumOf(premiums, row, col);
  const cursor = place.cursor && place.cursor.row === row && place.cursor.col === col;
  const classes = ['sq'];
  if (square) classes.push('sq-tile');
  else if (premium) classes.push(premium.cls);
  if (square?.placed) classes.push('sq-new');
  if (cursor) classes.push('sq-cursor', `sq-cursor-${place.direction}`);
  const cls = classes.join(' ');
  // One square in the tab order (the highlight, else the centre); arrows move within the board.
  const home = place.cursor ? cursor : row === 7 && col === 7;
  cell.tabIndex = home ? 0 : -1;
  const key = `${cls}|${square?.letter ?? ''}|${premium?.label ?? ''}`;
  if (cell.dataset.key === key) return;
  cell.dataset.key = key;
  cell.className = cls;
  const where = `row ${row + 1}, column ${col + 1}`;
  if (square) {
    const letter = document.createElement('span');
    letter.className = 'sq-letter';
    letter.textContent = square.letter;
    const value = document.createElement('span');
    value.className = 'sq-value';
    value.textContent = String(valueOf(square.letter));
    cell.replaceChildren(letter, value);
    cell.setAttribute('aria-label', `${where}, ${square.letter}${square.placed ? ', placed this turn' : ''}`);
  } else {
    cell.textContent = premium ? premium.label : '';
    cell.setAttribute('aria-label', premium ? `${where}, ${premium.name}` : where);
  }
  cell.setAttribute('aria-current', cursor ? 'true' : 'false');
}

function paintRack(root, state) {
  const rack = one(root, '[data-slot=rack]');
  const { place } = state;
  const free = new Set(freeIndexes(place));
  const key = `${place.rack.join('')}|${[...free].join(',')}|${state.chosen}|${state.swapping}`;
  if (rack.dataset.key === key) return;
  rack.dataset.key = key;
  rack.replaceChildren(...place.rack.map((letter, i) => {
    const b = document.createElement('button');
    b.type = 'button';
    b.className = 'tile';
    b.dataset.index = String(i);
    b.dataset.letter = letter;
    const l = document.createElement('span');
    l.className = 'tile-letter';
    l.textContent = letter;
    const v = document.createElement('span');
    v.className = 'tile-value';
    v.textContent = String(valueOf(letter));
    b.append(l, v);
    const used = !free.has(i);
    b.disabled = used;
    b.classList.toggle('used', used);
    b.draggable = !used;
    if (state.chosen === i) b.setAttribute('aria-pressed', 'true');
    b.setAttribute('aria-label', state.swapping ? `Swap ${letter}` : `${letter}, ${valueOf(letter)} point${valueOf(letter) === 1 ? '' : 's'}`);
    return b;
  }));
}

function paintPlayers(root, state) {
  const game = state.game;
  for (const el of root.querySelectorAll('.players [data-seat]')) {
    const i = Number(el.dataset.seat);
    const seat = game.seats[i];
    const on = game.result == null && game.turn === i;
    el.dataset.turn = String(on);
    el.classList.toggle('you', game.you === i);
    text(one(el, '.name'), `${seatName(seat)}${game.you === i ? ' (you)' : ''}`);
    text(one(el, '.rating'), seatNote(seat, game.result != null));
    text(one(el, '.score'), seat.score);
    one(el, '.light').title = on ? 'to move' : '';
  }
}

export function paintClocks(root, state, localNow) {
  const game = state.game;
  if (!game) return;
  const clocks = clocksAt(game, state.received, localNow);
  root.querySelectorAll('.players [data-seat]').forEach((el) => {
    const i = Number(el.dataset.seat);
    const clock = one(el, '.clock');
    const ms = clocks[i];
    const out = game.seats[i].out_of_time;
    show(clock, ms != null);
    text(clock, out ? 'out of time' : mmss(ms));
    clock.classList.toggle('low', isLow(ms));
    clock.classList.toggle('running', game.result == null && game.turn === i && game.seats[i].running !== false);
    clock.setAttribute('aria-label', ms == null ? '' : `${mmss(ms)} left`);
  });
}

function paintMoves(root, state) {
  const list = one(root, '[data-slot=moves]');
  const moves = state.game.moves ?? [];
  if (list.children.length === moves.length && list.dataset.game === state.game.id) return;
  list.dataset.game = state.game.id;
  list.replaceChildren(...moves.map((m) => {
    const line = moveLine(m, state.game.seats);
    const li = document.createElement('li');
    const who = document.createElement('span');
    who.className = 'move-who';
    who.textContent = line.who;
    const what = document.createElement('span');
    what.className = 'move-what';
    what.textContent = line.what;
    const score = document.createElement('span');
    score.className = 'move-score';
    score.textContent = String(line.score);
    li.append(who, what, score);
    return li;
  }));
  list.scrollTop = list.scrollHeight;
}

function paintResult(root, state) {
  const game = state.game;
  const panel = one(root, '[data-slot=result]');
  const appearing = panel.hidden && Boolean(game.result);
  show(panel, Boolean(game.result));
  if (!game.result) return;
  if (appearing) {
    const heading = one(panel, '[data-slot=winner]');
    requestAnimationFrame(() => heading.focus({ preventScroll: true }));
    panel.scrollIntoView?.({ block: 'nearest' });
  }
  text(one(panel, '[data-slot=winner]'), winnerText(game));
  text(one(panel, '[data-slot=reason]'), reasonText(game));
  const rows = resultRows(game);
  const body = one(panel, '[data-slot=result-rows]');
  const key = JSON.stringify(rows);
  if (body.dataset.key === key) return;
  body.dataset.key = key;
  body.replaceChildren(...rows.map((r) => {
    const tr = document.createElement('tr');
    if (r.winner) tr.className = 'winner';
    tr.dataset.seat = String(r.seat);
    for (const [cls, value] of [['name', r.name], ['score', r.score], ['change', r.change]]) {
      const td = document.createElement(cls === 'name' ? 'th' : 'td');
      if (cls === 'name') td.scope = 'row';
      td.className = cls;
      td.textContent = String(value);
      tr.append(td);
    }
    return tr;
  }));
}

export function paintGame(root, state) {
  const game = state.game;
  if (!game) return;
  const cells = one(root, '[data-slot=board]').children;
  for (let row = 0; row < SIZE; row += 1) {
    for (let col = 0; col < SIZE; col += 1) paintSquare(cells[row * SIZE + col], state, game.premiums, row, col);
  }
  paintRack(root, state);
  paintPlayers(root, state);
  paintMoves(root, state);
  paintResult(root, state);
  text(one(root, '[data-slot=turn]'), turnText(game));
  text(one(root, '[data-slot=rated]'), game.rated ? 'Rated game' : 'Unrated game');
  text(one(root, '[data-slot=bag]'), game.bag);
  const error = one(root, '[data-slot=error]');
  show(error, Boolean(state.error));
  text(error, state.error?.message ?? '');
  const over = Boolean(game.result);
  const mine = myTurn(state);
  const playing = game.you != null && !over;
  one(root, '[data-act=submit]').disabled = !mine || state.place.placed.length === 0;
  one(root, '[data-act=recall]').disabled = state.place.placed.length === 0;
  const swap = one(root, '[data-act=swap]');
  swap.disabled = !mine || game.bag < 1;
  swap.setAttribute('aria-pressed', String(state.swapping));
  show(one(root, '[data-slot=swap-hint]'), state.swapping);
  one(root, '[data-act=skip]').disabled = !mine;
  one(root, '[data-act=resign]').disabled = !playing;
  root.classList.toggle('over', over);
  root.classList.toggle('my-turn', mine);
}
