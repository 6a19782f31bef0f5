// Drawing the Duel page from state. No decisions here beyond what to show; every
// string from the server goes in as text, never as HTML.
import { one, text, show } from '../views/dom.js';
import { squareOf, freeIndexes } from './board.js';
import * as T from '../tiles/board.js';
import { lastPlaySquares, unseenTiles, unseenLine, positionAt } from './table.js';
import { clocksAt, mmss, isLow } from './clock.js';
import { LIMITS, limitLabel, valueFromLimit, whoAmI, challengeable, seekLink, ratedNote, seekRatedLabel } from './lobby.js';
import { seatName, seatNote, moveLine, turnText, reasonText, winnerText, resultRows, ratingText, myGameLine } from './describe.js';
import { mountReplay, paintReplay } from './replay.js';
import { myTurn } from './model.js';

// --- lobby --------------------------------------------------------------------------

// An element of one class holding text (never HTML).
function textEl(doc, tag, className, value) {
  const node = doc.createElement(tag);
  node.className = className;
  node.textContent = value;
  return node;
}

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
  text(one(root, '[data-slot=my-note]'), me.note);
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
  const keys = seeks.map((s) => `${s.id}:${s.will_rate}:${s.rating}:${s.provisional}`).join('|');
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
      rating.textContent = ratingText(s);
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
  paintMyGames(root, state);
}

// My games: a signed-in player's finished games, newest first, each to replay while kept.
function paintMyGames(root, state) {
  const card = one(root, '[data-slot=my-games-card]');
  show(card, Boolean(state.account));
  const games = state.myGames?.games ?? [];
  const now = state.myGames?.now ?? 0;
  const list = one(root, '[data-slot=my-games]');
  const key = JSON.stringify([games.map((g) => g.id), now]);
  show(one(root, '[data-slot=no-games]'), Boolean(state.myGames) && games.length === 0);
  if (list.dataset.key === key) return;
  list.dataset.key = key;
  list.replaceChildren(...games.map((g) => {
    const line = myGameLine(g, now);
    const li = document.createElement('li');
    li.dataset.game = g.id;
    li.append(textEl(document, 'strong', 'my-game-what', line.what), ' ', textEl(document, 'span', 'my-game-detail', line.detail));
    if (line.replay) {
      const b = document.createElement('button');
      b.type = 'button';
      b.dataset.replay = g.id;
      b.textContent = 'Replay';
      b.setAttribute('aria-label', `Replay: ${line.what}`);
      li.append(' ', b);
    }
    return li;
  }));
}

// --- game ---------------------------------------------------------------------------

export function mountBoard(root) {
  T.mountBoard(one(root, '[data-slot=board]'));
  one(root, '[data-slot=look-back]').append(mountReplay(root.ownerDocument, 'replay'));
}

// A finished game looked back to `lookAt` moves: the position then; null when not looking.
function lookedBack(state) {
  const { game, lookAt } = state;
  return game?.result && lookAt != null && lookAt < game.moves.length ? positionAt(game, lookAt) : null;
}

// What each square holds for this player: the board, this turn's tiles and the last
// play's mark (looking back: the board after that move).
function boardLook(state) {
  const { place } = state;
  const back = lookedBack(state);
  const last = lastPlaySquares(back ? back.moves : state.game.moves);
  return (row, col) => {
    const ch = back?.board[row]?.[col];
    const square = back ? (ch && ch !== '.' ? { letter: ch, placed: false } : null) : squareOf(place, row, col);
    const marks = [];
    const words = [];
    if (square?.placed) {
      marks.push('sq-new');
      words.push('placed this turn');
    } else if (square && last.has(`${row},${col}`)) {
      marks.push('sq-last');
      words.push('the last play');
    }
    return { tile: square ? { letter: square.letter } : null, marks, label: words.join(', ') };
  };
}

function paintBoard(root, state) {
  const board = one(root, '[data-slot=board]');
  const { cursor, direction } = state.place;
  // The highlight is the board's cursor: its arrow and the one square in the tab order.
  T.paintBoard(board, state.game.rules, boardLook(state), { cursor: cursor && { ...cursor, direction } });
}

function paintRack(root, state) {
  const rack = one(root, '[data-slot=rack]');
  const { place } = state;
  const free = new Set(freeIndexes(place));
  const key = `${place.rack.join('')}|${[...free].join(',')}|${state.chosen}|${state.swapping}|${state.game.id}`;
  const rules = state.game.rules;
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
    v.textContent = String(T.valueOf(rules, letter));
    b.append(l, v);
    const used = !free.has(i);
    b.disabled = used;
    b.classList.toggle('used', used);
    b.tabIndex = 0;
    if (state.chosen === i) b.setAttribute('aria-pressed', 'true');
    const points = T.valueOf(rules, letter);
    // The name starts with what the tile shows (letter and value), so a voice user can say it.
    b.setAttribute('aria-label', state.swapping ? `Swap ${letter}${points}` : `${letter}${points}: ${letter}, ${points} point${points === 1 ? '' : 's'}`);
    return b;
  }));
}

function paintPlayers(root, state) {
  const game = state.game;
  const back = lookedBack(state);
  for (const el of root.querySelectorAll('.players [data-seat]')) {
    const i = Number(el.dataset.seat);
    const seat = game.seats[i];
    const on = game.result == null && game.turn === i;
    el.dataset.turn = String(on);
    el.classList.toggle('you', game.you === i);
    text(one(el, '.name'), `${seatName(seat)}${game.you === i ? ' (you)' : ''}`);
    text(one(el, '.rating'), seatNote(seat, game.result != null));
    text(one(el, '.score'), back ? back.scores[i] : seat.score);
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

// The move list: who, where and what ("8H QUIXOTE"), and the score.
export function paintMoveList(list, game) {
  const moves = game.moves ?? [];
  if (list.children.length === moves.length && list.dataset.game === game.id) return;
  list.dataset.game = game.id;
  const document = list.ownerDocument;
  list.replaceChildren(...moves.map((m) => {
    const line = moveLine(m, game.seats);
    const li = document.createElement('li');
    li.dataset.kind = m.kind;
    li.append(
      textEl(document, 'span', 'move-who', line.who),
      textEl(document, 'span', 'move-what', line.what),
      textEl(document, 'span', 'move-score', String(line.score)),
    );
    return li;
  }));
  list.scrollTop = list.scrollHeight;
}

// The unseen-tile tracker: each letter not yet seen, and how many.
export function paintUnseen(el, game, watching) {
  const unseen = unseenTiles(game);
  const key = `${unseen.letters.map((l) => l.count).join(',')}|${unseen.bag}`;
  if (el.dataset.key === key) return;
  el.dataset.key = key;
  const doc = el.ownerDocument;
  const list = doc.createElement('ul');
  list.className = 'unseen-letters';
  for (const { letter, count } of unseen.letters) {
    const li = doc.createElement('li');
    li.className = count ? 'unseen-letter' : 'unseen-letter none';
    li.dataset.letter = letter;
    li.textContent = `${letter} ${count}`;
    li.setAttribute('aria-label', `${letter}: ${count}`);
    list.append(li);
  }
  const line = doc.createElement('p');
  line.className = 'unseen-line';
  line.textContent = unseenLine(unseen, watching);
  el.replaceChildren(line, list);
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
  paintBoard(root, state);
  paintRack(root, state);
  paintUnseen(one(root, '[data-slot=unseen]'), game, game.you == null);
  paintPlayers(root, state);
  const back = lookedBack(state);
  const shown = back ?? { moves: game.moves, n: game.moves.length };
  const list = one(root, '[data-slot=moves]');
  paintMoveList(list, { ...game, id: `${game.id}:${shown.n}`, moves: shown.moves });
  paintResult(root, state);
  paintReplay(one(root, '[data-slot=replay]'), Boolean(game.result), shown.n, game.moves.length);
  text(one(root, '[data-slot=turn]'), back ? `Looking back: after move ${back.n} of ${game.moves.length}` : turnText(game));
  text(one(root, '[data-slot=rated]'), game.rated ? 'Rated game' : 'Unrated game');
  const tv = `watch.html?duel=${encodeURIComponent(game.id)}`;
  const watchLink = one(root, '[data-slot=watch-link]');
  if (watchLink.getAttribute('href') !== tv) watchLink.setAttribute('href', tv);
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
