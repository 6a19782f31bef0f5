// The Duel page: wires the socket, the store and the view. Decides which screen
// shows, turns clicks, drags and keys into events and messages, and runs the two
// effects time asks for (the clocks, the tick when `due_at` comes).
import { createStore } from '../store.js';
import { openSocket, socketUrl } from '../socket.js';
import { delegate, one, show, text } from '../views/dom.js';
import { model, initialState, myTurn } from './model.js';
import { playTiles } from './board.js';
import { tickDue, serverNowAt } from './clock.js';
import { parseSeekHash, limitFromValue, checkAccount, seekLink } from './lobby.js';
import * as V from './view.js';
import { registerWorker } from '../notify.js';

const REFRESH = 'crossing.refresh';
const NAME = 'crossing.name'; // the name the crossword game uses too
const store = createStore(model, initialState);
if (new URLSearchParams(location.search).has('debug')) window.duel = { store };

let socket = { send: () => null };
let link = parseSeekHash(location.hash); // a private game's link, accepted once we are welcomed

function send(action, fields = {}) {
  const seq = socket.send(action, fields);
  if (seq == null) store.dispatch({ type: 'error', error: { code: 'offline', message: 'Not connected: reconnecting, try again in a moment.' } });
  return seq;
}

// --- server messages ----------------------------------------------------------------
function onMessage(message) {
  if (message.type === 'welcome') {
    if (!message.account && localStorage.getItem(REFRESH)) localStorage.removeItem(REFRESH); // no longer accepted
  }
  if (message.type === 'signed_in' && message.refresh) localStorage.setItem(REFRESH, message.refresh);
  store.dispatch({ type: 'server', message, now: Date.now() });
  if (message.type === 'welcome') {
    send('duel_lobby');
    if (message.account) send('duel_games');
    if (link) {
      acceptLink();
    } else if (message.duel) {
      send('duel_open', { game: message.duel });
    } else if (store.get().game && !store.get().game.result) {
      // A reconnect mid-game whose welcome did not name it: ask again.
      send('duel_open', { game: store.get().game.id });
    }
  }
  if (message.type === 'signed_in') {
    send('duel_lobby'); // signing in leaves the lobby
    send('duel_games');
  }
}

// --- lobby --------------------------------------------------------------------------
const lobbyRoot = document.getElementById('lobby');
const gameRoot = document.getElementById('game');
V.mountLimits(lobbyRoot);
V.mountBoard(gameRoot);

delegate(lobbyRoot, 'click', '[data-limit]', (b) => store.dispatch({ type: 'limit', limit: limitFromValue(b.dataset.limit) }));
delegate(lobbyRoot, 'click', '[data-act=seek]', () => clearThen('duel_seek', { limit: store.get().limit, private: false, ...guestName() }));
delegate(lobbyRoot, 'click', '[data-act=friend]', () => clearThen('duel_seek', { limit: store.get().limit, private: true, ...guestName() }));
delegate(lobbyRoot, 'click', '[data-bot]', (b) => clearThen('duel_bot', { level: b.dataset.bot, limit: store.get().limit, ...guestName() }));
delegate(lobbyRoot, 'click', '[data-challenge]', (b) => clearThen('duel_accept', { seek: b.dataset.challenge, ...guestName() }));

// A guest may give a name to show (an account shows its own).
const nameInput = one(lobbyRoot, '#guest-name');
nameInput.value = localStorage.getItem(NAME) || '';
nameInput.addEventListener('change', () => localStorage.setItem(NAME, nameInput.value.trim()));
function guestName() {
  const name = nameInput.value.trim().slice(0, 24);
  return store.get().account || !name ? {} : { name };
}
delegate(lobbyRoot, 'click', '[data-act=cancel]', () => {
  const mine = store.get().lobby?.mine;
  if (mine) clearThen('duel_cancel', { seek: mine.id });
});
delegate(lobbyRoot, 'click', '[data-act=copy]', async () => {
  const href = seekLink(location.href, store.get().lobby?.mine);
  if (!href) return;
  try {
    await navigator.clipboard.writeText(href);
  } catch {
    const input = one(lobbyRoot, '[data-slot=link]');
    input.select();
    document.execCommand?.('copy');
  }
  announce('Link copied.');
});
delegate(lobbyRoot, 'click', '[data-act=sign-out]', () => {
  localStorage.removeItem(REFRESH);
  store.dispatch({ type: 'signed-out' });
  location.reload(); // say hello again, as the guest
});
one(lobbyRoot, '[data-form=sign]').addEventListener('submit', (e) => {
  e.preventDefault();
  const form = e.currentTarget;
  const action = e.submitter?.value === 'sign_up' ? 'sign_up' : 'sign_in';
  const name = form.elements.name.value.trim();
  const password = form.elements.password.value;
  const problem = checkAccount(name, password);
  if (problem) return store.dispatch({ type: 'error', error: { code: 'bad-name', message: problem } });
  if (clearThen(action, { name, password }) == null) return;
  store.dispatch({ type: 'signing', on: true });
  // No answer at all (a dropped socket): let the player try again.
  setTimeout(() => {
    if (!store.get().signing) return;
    store.dispatch({ type: 'signing', on: false });
    store.dispatch({ type: 'error', error: { code: 'too-many', message: 'No answer from the server: try again in a moment.' } });
  }, 15_000);
});

function clearThen(action, fields) {
  store.dispatch({ type: 'error', error: null });
  return send(action, fields);
}

// --- game ---------------------------------------------------------------------------
const board = one(gameRoot, '[data-slot=board]');
const rack = one(gameRoot, '[data-slot=rack]');
const resignDialog = document.getElementById('confirm-resign');

delegate(board, 'click', '.sq', (cell) => store.dispatch({ type: 'select', row: Number(cell.dataset.row), col: Number(cell.dataset.col) }));
delegate(rack, 'click', '.tile', (tile) => {
  const state = store.get();
  if (state.swapping) return swap(tile.dataset.letter);
  store.dispatch({ type: 'rack', index: Number(tile.dataset.index) });
});
delegate(gameRoot, 'click', '[data-act=submit]', submit);
delegate(gameRoot, 'click', '[data-act=recall]', () => store.dispatch({ type: 'recall' }));
delegate(gameRoot, 'click', '[data-act=swap]', () => store.dispatch({ type: 'swapping', on: !store.get().swapping }));
delegate(gameRoot, 'click', '[data-act=bag]', () => myTurn(store.get()) && store.dispatch({ type: 'swapping', on: !store.get().swapping }));
delegate(gameRoot, 'click', '[data-act=skip]', () => myTurn(store.get()) && clearThen('duel_skip', {}));
delegate(gameRoot, 'click', '[data-act=resign]', () => resignDialog.showModal());
resignDialog.addEventListener('close', () => {
  if (resignDialog.returnValue === 'resign') clearThen('duel_resign', {});
});
delegate(gameRoot, 'click', '[data-act=to-lobby]', () => {
  store.dispatch({ type: 'to-lobby' });
  send('duel_lobby');
  if (store.get().account) send('duel_games'); // the game just finished is on the list now
});
delegate(gameRoot, 'click', '[data-go]', (b) => store.dispatch({ type: 'look', go: b.dataset.go }));
delegate(lobbyRoot, 'click', '[data-replay]', (b) => {
  store.dispatch({ type: 'open-game', id: b.dataset.replay });
  clearThen('duel_open', { game: b.dataset.replay });
});

function submit() {
  const state = store.get();
  if (!myTurn(state) || !state.place.placed.length) return;
  clearThen('duel_play', { tiles: playTiles(state.place) });
}

function swap(letter) {
  if (!myTurn(store.get())) return;
  store.dispatch({ type: 'swapping', on: false });
  clearThen('duel_swap', { letter });
}

// Drag a rack tile, with a finger or a mouse (pointer events): to a square (placed),
// to the bag (swapped) or along the rack (reordered). A press that barely moves is a
// tap, and tap-then-tap works as before.
const bag = one(gameRoot, '[data-act=bag]');
const DRAG_PX = 8;
let drag = null;
let dragEnded = 0; // when a drag ended: the click it leaves behind is not a tap (0: no drag)

function dropTarget(x, y) {
  const under = document.elementFromPoint(x, y);
  return {
    square: under?.closest?.('.sq') && board.contains(under) ? under.closest('.sq') : null,
    bag: under?.closest?.('[data-act=bag]') ?? null,
    onRack: under?.closest?.('[data-slot=rack]') ? under.closest('.tile') ?? rackPlace(x) : null,
  };
}

// The rack tile whose place a tile dropped at `x` takes.
function rackPlace(x) {
  const tiles = [...rack.querySelectorAll('.tile')];
  return tiles.find((t) => x < t.getBoundingClientRect().right) ?? tiles[tiles.length - 1] ?? null;
}

document.addEventListener('pointerdown', () => { dragEnded = 0; }, true); // a new press is a new tap
rack.addEventListener('pointerdown', (e) => {
  const tile = e.target.closest('.tile');
  if (!tile || tile.disabled || e.button > 0) return;
  drag = { index: Number(tile.dataset.index), x: e.clientX, y: e.clientY, tile, ghost: null, pointer: e.pointerId };
});
document.addEventListener('pointermove', (e) => {
  if (!drag || e.pointerId !== drag.pointer) return;
  if (!drag.ghost) {
    if (Math.hypot(e.clientX - drag.x, e.clientY - drag.y) < DRAG_PX) return;
    drag.ghost = drag.tile.cloneNode(true);
    drag.ghost.className = 'tile drag-ghost';
    drag.ghost.removeAttribute('aria-label');
    drag.ghost.setAttribute('aria-hidden', 'true');
    document.body.append(drag.ghost);
    drag.tile.classList.add('dragging');
  }
  e.preventDefault();
  drag.ghost.style.transform = `translate(${e.clientX}px, ${e.clientY}px) translate(-50%, -60%)`;
  const over = dropTarget(e.clientX, e.clientY);
  bag.classList.toggle('drop-over', Boolean(over.bag));
  for (const el of board.querySelectorAll('.drop-over')) if (el !== over.square) el.classList.remove('drop-over');
  over.square?.classList.add('drop-over');
}, { passive: false });

function endDrag(e, dropped) {
  if (!drag || e.pointerId !== drag.pointer) return;
  const { ghost, tile, index } = drag;
  drag = null;
  if (!ghost) return; // a tap: its click does the rest
  ghost.remove();
  tile.classList.remove('dragging');
  bag.classList.remove('drop-over');
  for (const el of board.querySelectorAll('.drop-over')) el.classList.remove('drop-over');
  dragEnded = Date.now();
  if (!dropped) return;
  const at = dropTarget(e.clientX, e.clientY);
  if (at.square) store.dispatch({ type: 'drop', row: Number(at.square.dataset.row), col: Number(at.square.dataset.col), index });
  else if (at.bag) {
    const letter = store.get().place.rack[index];
    if (letter) swap(letter);
  } else if (at.onRack) store.dispatch({ type: 'reorder', from: index, to: Number(at.onRack.dataset.index) });
}
document.addEventListener('pointerup', (e) => endDrag(e, true));
document.addEventListener('pointercancel', (e) => endDrag(e, false));
// The click a drag leaves behind (its press and release) is not a tap on a tile.
gameRoot.addEventListener('click', (e) => {
  if (dragEnded && Date.now() - dragEnded < 400 && e.target.closest?.('.tile, .sq')) {
    e.stopPropagation();
    e.preventDefault();
  }
}, true);

delegate(gameRoot, 'click', '[data-act=shuffle]', () => store.dispatch({ type: 'shuffle', random: Math.random }));

// The computer's keyboard.
const ARROWS = { ArrowLeft: [0, -1], ArrowRight: [0, 1], ArrowUp: [-1, 0], ArrowDown: [1, 0] };
document.addEventListener('keydown', (e) => {
  const state = store.get();
  if (state.screen !== 'game' || !state.game || state.game.result) return;
  if (e.target.closest?.('input, textarea, select, dialog')) return;
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  const onSquare = Boolean(e.target.closest?.('.sq'));
  const onButton = Boolean(e.target.closest?.('button')) && !onSquare;
  if (/^[a-zA-Z]$/.test(e.key)) {
    e.preventDefault();
    if (!state.place.cursor) store.dispatch({ type: 'arrow', dr: 0, dc: 0 });
    store.dispatch({ type: 'letter', letter: e.key.toUpperCase() });
    return focusCursor();
  }
  const rackTile = e.target.closest?.('[data-slot=rack] .tile');
  if (rackTile && e.shiftKey && (e.key === 'ArrowLeft' || e.key === 'ArrowRight')) {
    // Shift+arrows on a rack tile move it along the rack; the focus goes with it.
    e.preventDefault();
    const from = Number(rackTile.dataset.index);
    const to = from + (e.key === 'ArrowLeft' ? -1 : 1);
    store.dispatch({ type: 'reorder', from, to });
    render();
    rack.querySelector(`[data-index="${Math.max(0, Math.min(to, rack.children.length - 1))}"]`)?.focus();
    return;
  }
  if (ARROWS[e.key]) {
    e.preventDefault();
    const [dr, dc] = ARROWS[e.key];
    store.dispatch({ type: 'arrow', dr, dc });
    focusCursor();
    return;
  }
  switch (e.key) {
    case 'Backspace':
    case 'Delete':
      e.preventDefault();
      store.dispatch({ type: 'backspace' });
      return focusCursor();
    case 'Enter':
      if (onButton) return; // the focused button's own job
      e.preventDefault();
      return submit();
    case ' ':
      if (onButton) return;
      e.preventDefault();
      return store.dispatch({ type: 'turn' });
    case 'Escape':
      if (state.swapping) return store.dispatch({ type: 'swapping', on: false });
      return store.dispatch({ type: 'recall' });
    default:
  }
});

// Arrows move the focus with the highlight, so a screen reader reads the square.
function focusCursor() {
  const { cursor } = store.get().place;
  if (!cursor || !board.contains(document.activeElement)) return;
  board.children[cursor.row * 15 + cursor.col]?.focus();
}

// --- rendering ------------------------------------------------------------------------
let frame = 0;
let announced = '';
function announce(message) {
  const el = document.getElementById('announce');
  el.textContent = '';
  // A fresh node each time, so the same words twice are still read.
  requestAnimationFrame(() => { el.textContent = message; });
}

function render() {
  frame = 0;
  const state = store.get();
  const screen = state.screen === 'game' && state.game ? 'game' : 'lobby';
  document.getElementById('app').dataset.screen = screen;
  show(lobbyRoot, screen === 'lobby');
  show(gameRoot, screen === 'game');
  if (screen === 'lobby') {
    V.paintLobby(lobbyRoot, state);
    const lobbyError = one(lobbyRoot, '[data-slot=lobby-error]');
    const generic = state.error && !['name-taken', 'bad-name', 'weak-password', 'wrong-password', 'too-many'].includes(state.error.code);
    show(lobbyError, Boolean(generic));
    text(lobbyError, generic ? state.error.message : '');
  } else {
    // A move took the highlight away: a square keeping the focus would look like one.
    if (!state.place.cursor && board.contains(document.activeElement)) document.activeElement.blur();
    V.paintGame(gameRoot, state);
    V.paintClocks(gameRoot, state, Date.now());
  }
  const status = document.getElementById('status');
  show(status, !state.connected);
  if (state.announce && state.announce !== announced) {
    announced = state.announce;
    announce(state.announce);
  }
}

store.subscribe(() => {
  if (!frame) frame = requestAnimationFrame(render);
});

// The clocks run between messages; a due time reached here is told to the server.
setInterval(() => {
  const state = store.get();
  if (!state.game || state.screen !== 'game') return;
  V.paintClocks(gameRoot, state, Date.now());
  const now = serverNowAt(state.game, state.received, Date.now());
  if (state.connected && tickDue(state.game.due_at, now, state.lastTick)) {
    if (send('tick') != null) store.dispatch({ type: 'ticked', due: state.game.due_at, sent: now });
  }
}, 250);

// --- start ------------------------------------------------------------------------------
async function start() {
  const url = await socketUrl();
  socket = openSocket({
    url,
    onMessage,
    hello: () => {
      const refresh = localStorage.getItem(REFRESH);
      return refresh ? { refresh } : {};
    },
    onStatus: (connected) => connected || store.dispatch({ type: 'connected', connected }),
  });
}

window.addEventListener('hashchange', () => {
  link = parseSeekHash(location.hash);
  if (link && store.get().welcomed) acceptLink();
});

function acceptLink() {
  send('duel_accept', { seek: link.seek, ...(link.token ? { token: link.token } : {}), ...guestName() });
  link = null;
  history.replaceState(null, '', location.pathname + location.search);
}

render();
start();
registerWorker(); // a player who comes straight to a Duel link gets the offline shell too
document.body.dataset.ready = 'true';
