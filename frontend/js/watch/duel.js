// The watch page's Duel view: a TV following one Duel — the board large, both clocks,
// scores, whose turn, the last play and the move list, live. When the game is over it
// can be looked back through move by move, each position rebuilt from the game's move
// list (its record: the same moves always give the same boards). The server sends a
// screen no rack and only the bag's size, so there is nothing secret here to hide.
import * as T from '../tiles/board.js';
import { lastPlaySquares, positionAt } from '../duel/table.js';
import { clocksAt, mmss, isLow } from '../duel/clock.js';
import { seatName, seatRating, turnText, reasonText, winnerText } from '../duel/describe.js';
import { paintMoveList, paintUnseen } from '../duel/view.js';
import { mountReplay, lookTo, paintReplay } from '../duel/replay.js';

// A Duel's code is its game id ("g-" and the id); a room's code is six letters.
export const isDuelCode = (code) => /^g-[A-Za-z0-9_-]{3,38}$/.test(String(code ?? '').trim());

let state = null; // {game, received, at: null (live) or the number of moves looked back to}

export const active = () => state != null;

// A `duel` message for the screen: the newest view wins, and a look back stays put.
export function receive(root, message, localNow) {
  const game = message.game;
  if (!game || game.you != null) return; // a screen is never a seat
  if (state && state.game.id === game.id && message.version != null && message.version <= state.version) return;
  const first = !state || state.game.id !== game.id;
  state = { game, version: message.version ?? -1, received: localNow, at: first ? null : state.at };
  if (first) mount(root);
  paint(root);
}

function el(doc, tag, attrs = {}, ...children) {
  const node = doc.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === 'class') node.className = v;
    else if (k.startsWith('data-')) node.dataset[k.slice(5)] = v;
    else node.setAttribute(k, v);
  }
  node.append(...children);
  return node;
}

function mount(root) {
  const doc = root.ownerDocument;
  const seat = (i) => el(doc, 'div', { class: 'dw-seat', 'data-seat': String(i) },
    el(doc, 'span', { class: 'light', 'aria-hidden': 'true' }),
    el(doc, 'span', { class: 'who' }, el(doc, 'span', { class: 'name' }), ' ', el(doc, 'span', { class: 'rating' })),
    el(doc, 'span', { class: 'score' }),
    el(doc, 'span', { class: 'clock' }));
  const board = el(doc, 'div', { class: 'board dw-board', role: 'img', 'data-slot': 'board' });
  T.mountBoard(board, { square: 'span' });
  const replay = mountReplay(doc, 'dw-replay');
  const section = el(doc, 'section', { class: 'screen duel-watch' },
    el(doc, 'header', { class: 'watch-head' },
      el(doc, 'p', { class: 'watch-code' }, el(doc, 'span', { class: 'label' }, 'Duel'), ' ', el(doc, 'span', { 'data-slot': 'code' })),
      el(doc, 'h1', { 'data-slot': 'title' }),
      el(doc, 'p', { class: 'watch-line', 'data-slot': 'line' })),
    el(doc, 'div', { class: 'dw-seats' }, seat(0), seat(1)),
    el(doc, 'div', { class: 'dw-main' },
      el(doc, 'div', { class: 'dw-board-wrap' }, board),
      el(doc, 'aside', { class: 'dw-side' },
        replay,
        el(doc, 'h2', {}, 'Moves'),
        el(doc, 'ol', { class: 'moves', 'data-slot': 'moves' }),
        el(doc, 'h2', {}, 'Unseen tiles'),
        el(doc, 'div', { class: 'unseen', 'data-slot': 'unseen' }))));
  root.replaceChildren(section);
  replay.addEventListener('click', (e) => {
    const go = e.target.closest?.('[data-go]')?.dataset.go;
    if (go) lookBack(root, go);
  });
  section.querySelector('[data-slot=moves]').addEventListener('click', (e) => {
    const li = e.target.closest?.('li');
    if (!li || !state?.game.result) return;
    state.at = [...li.parentElement.children].indexOf(li) + 1;
    paint(root);
  });
}

// The look back's buttons and the TV remote's arrows.
export function lookBack(root, go) {
  if (!state?.game.result) return;
  state.at = lookTo(state.at, state.game.moves.length, go);
  paint(root);
}

function paint(root) {
  const { game } = state;
  const q = (sel) => root.querySelector(sel);
  const over = Boolean(game.result);
  const looking = over && state.at != null && state.at < game.moves.length;
  const shown = looking ? positionAt(game, state.at) : { board: game.board, scores: game.seats.map((s) => s.score), moves: game.moves, n: game.moves.length };
  q('[data-slot=code]').textContent = game.id;
  q('[data-slot=title]').textContent = `${seatName(game.seats[0])} v ${seatName(game.seats[1])}`;
  let line = turnText(game);
  if (over) line = `${winnerText(game)} ${reasonText(game)}`;
  if (looking) line = `Looking back: after move ${shown.n} of ${game.moves.length}`;
  q('[data-slot=line]').textContent = line;

  const last = lastPlaySquares(shown.moves);
  T.paintBoard(q('[data-slot=board]'), game.rules, (row, col) => {
    const ch = shown.board[row]?.[col];
    if (!ch || ch === '.') return null;
    const marked = last.has(`${row},${col}`);
    return { tile: { letter: ch }, marks: marked ? ['sq-last'] : [], label: marked ? 'the last play' : '' };
  });
  q('[data-slot=board]').setAttribute('aria-label', looking ? `The board after move ${shown.n}` : 'The board');

  root.querySelectorAll('.dw-seat').forEach((seatEl) => {
    const i = Number(seatEl.dataset.seat);
    const seat = game.seats[i];
    seatEl.dataset.turn = String(!over && game.turn === i);
    seatEl.querySelector('.name').textContent = seatName(seat);
    seatEl.querySelector('.rating').textContent = seatRating(seat);
    seatEl.querySelector('.score').textContent = String(shown.scores[i]);
  });
  const list = q('[data-slot=moves]');
  paintMoveList(list, { ...game, id: `${game.id}:${shown.n}`, moves: shown.moves });
  [...list.children].forEach((li, i) => li.classList.toggle('current', looking && i === shown.n - 1));
  // The unseen tiles are the live game's: a look back has no bag count to split them by.
  const unseen = q('[data-slot=unseen]');
  unseen.hidden = looking;
  unseen.previousElementSibling.hidden = looking;
  if (!looking) paintUnseen(unseen, game, true);

  paintReplay(q('[data-slot=replay]'), over, shown.n, game.moves.length);
  tick(root, Date.now());
}

// The clocks between messages (called by the page's timer).
export function tick(root, localNow) {
  if (!state) return;
  const { game } = state;
  const looking = game.result && state.at != null && state.at < game.moves.length;
  const clocks = clocksAt(game, state.received, localNow);
  root.querySelectorAll('.dw-seat').forEach((seatEl) => {
    const i = Number(seatEl.dataset.seat);
    const clock = seatEl.querySelector('.clock');
    const ms = clocks[i];
    clock.hidden = ms == null || looking;
    clock.textContent = game.seats[i].out_of_time ? 'out of time' : mmss(ms);
    clock.classList.toggle('low', isLow(ms));
    clock.classList.toggle('running', !game.result && game.turn === i && game.seats[i].running !== false);
  });
}

