// The game app: wires the socket, the store and the screens together. The screens
// are functions over state; this file only decides which one is showing, turns
// keys into commands, and runs the few effects (snapshot, tick) the state asks for.
import { createStore } from './store.js';
import { model, initialState, screenOf, canType, isHost, shownBoard, KEPT_ACTIONS, gameTag, sameGame } from './model.js';
import { openSocket, socketUrl } from './socket.js';
import { commandFor } from './keys.js';
import { deleteAt, slotAt, slotsOf } from './cursor.js';
import { tickDue, serverNow } from './clock.js';
import { fillsOnTheirOwn } from './progress.js';
import { clone, one, text, show } from './views/dom.js';
import { bindToggle, onWelcome, registerWorker } from './notify.js';
import { rememberDealt } from './dealt.js';
import * as home from './views/home.js';
import * as lobby from './views/lobby.js';
import * as table from './views/table.js';
import * as game from './views/game.js';
import * as results from './views/results.js';

const SCREENS = {
  home,
  lobby,
  table,
  game,
  results,
  closed: {
    mount: (root, ctx) => one(root, '[data-act="home"]').addEventListener('click', () => ctx.dispatch({ type: 'left' })),
    update: () => {},
  },
};

const store = createStore(model, initialState);
// For the browser scenario and for looking into a live game from the console.
if (new URLSearchParams(location.search).has('debug')) window.crossing = { store };
const params = new URLSearchParams(location.search);
const invite = (params.get('room') || '').toUpperCase();
let socket = { send: () => 0, resend: () => [] };
let joinedInvite = false;

const ENTERING = new Set(['host', 'join', 'pick_up']);
function send(action, fields = {}) {
  if (ENTERING.has(action)) store.dispatch({ type: 'entering' });
  return socket.send(action, fields);
}

// Turns a command from either keyboard into messages and state events.
function command(cmd) {
  const state = store.get();
  if (!cmd) return;
  if (cmd.kind === 'help') return store.dispatch({ type: 'help', open: true });
  if (screenOf(state) !== 'game') return;
  switch (cmd.kind) {
    case 'letter': {
      if (!canType(state)) return;
      const seq = send('type', { square: state.cursor.square, letter: cmd.letter });
      if (seq == null) return offline();
      return store.dispatch({ type: 'letter', letter: cmd.letter, seq });
    }
    case 'delete': {
      if (!canType(state)) return;
      const { clear } = deleteAt(state.view.game.puzzle, shownBoard(state), state.cursor);
      const seq = clear == null ? null : send('clear', { square: clear });
      if (clear != null && seq == null) return offline();
      return store.dispatch({ type: 'delete', seq });
    }
    case 'undo':
      if (canType(state)) send('undo');
      return;
    case 'pause':
      if (isHost(state)) send(state.view.game.paused ? 'resume' : 'pause');
      return;
    case 'arrow':
      return store.dispatch({ type: 'arrow', dx: cmd.dx, dy: cmd.dy });
    case 'clue':
      return store.dispatch({ type: 'clue', step: cmd.step });
    case 'turn':
      return store.dispatch({ type: 'turn' });
  }
}

function offline() {
  store.dispatch({ type: 'notice', notice: { code: 'offline', message: 'Not connected: reconnecting, try again in a moment.' } });
}

function leave() {
  const state = store.get();
  const playing = state.view?.phase === 'playing';
  // The host's × ends the game for everyone: worth one question first.
  if (isHost(state) && playing && !state.view.solo && !window.confirm('Leave and end the game for everyone?')) return;
  if (state.view) send('close');
  store.dispatch({ type: 'left' });
}

const ctx = { send, dispatch: store.dispatch, command, leave, getState: store.get, invite };

// --- rendering, once per frame at most --------------------------------------------
const app = document.getElementById('app');
let frame = 0;
let focusAfterPaint = null;

function render() {
  frame = 0;
  const state = store.get();
  const name = screenOf(state);
  const screen = SCREENS[name];
  if (app.dataset.screen !== name) {
    const root = clone(`tpl-${name}`);
    app.replaceChildren(root);
    app.dataset.screen = name;
    screen.mount(root, ctx);
    bindToggle(root, ctx);
    const heading = root.querySelector('h1');
    if (heading && name !== 'game') heading.setAttribute('tabindex', '-1');
    // The results are read from their title down, in order.
    if (heading && name === 'results') focusAfterPaint = heading;
  }
  screen.update(app.firstElementChild, state);
  if (name === 'game' && app.dataset.focused !== 'game') {
    // Straight onto the board: the cursor's square is the grid's one tab stop.
    app.dataset.focused = 'game';
    focusAfterPaint = app.querySelector('[data-slot="grid"] [tabindex="0"]');
  } else if (name !== 'game') delete app.dataset.focused;
  if (focusAfterPaint && !help.open) focusAfterPaint.focus();
  focusAfterPaint = null;
  const status = document.getElementById('status');
  show(status, !state.connected);
  // Decided by the attempts to connect, not navigator.onLine: a browser can say it is
  // online with no way through, and offline while the page's own server answers.
  text(status, state.unreachable ? "Can't reach the game: you may be offline. Trying again…" : 'Connecting…');
  paintNotice(state);
  paintHelp(state);
}

store.subscribe(() => {
  if (!frame) frame = requestAnimationFrame(render);
  runEffects();
});

// A notice shows for four seconds from when it is new: the repaints in between (a
// race bot's board filling in, four times a second) must not start its time again.
let noticeShown = null;
function paintNotice(state) {
  const el = document.getElementById('notice');
  if (!state.notice) return show(el, false);
  text(el, state.notice.message);
  show(el, true);
  if (noticeShown === state.notice) return;
  const shown = (noticeShown = state.notice);
  setTimeout(() => {
    if (store.get().notice === shown) store.dispatch({ type: 'notice', notice: null });
  }, 4000);
}

const help = document.getElementById('help');
help.querySelector('.help-body').append(clone('tpl-help'));
help.addEventListener('close', () => store.dispatch({ type: 'help', open: false }));
function paintHelp(state) {
  if (state.help && !help.open) {
    help.showModal();
    // Start reading at the top, not at the closing button at the bottom.
    help.querySelector('h2').focus();
    help.scrollTop = 0;
  }
  if (!state.help && help.open) help.close();
}

// --- effects the state asks for ---------------------------------------------------
let lastDealt = null;
function runEffects() {
  const state = store.get();
  // Back in the room after a reconnect: first what was typed and never answered.
  if (state.rejoin === 'due') {
    const frames = socket.resend((tag) => sameGame(tag, state));
    return store.dispatch({ type: 'resent', frames });
  }
  if (state.wantSnapshot) {
    store.dispatch({ type: 'snapshot-asked' });
    send('snapshot');
  }
  // The room shows the puzzle only once the start that dealt it was written: the host's
  // phone remembers it from then (see dealt.js).
  const puzzle = state.view?.game?.puzzle?.id;
  if (puzzle && puzzle !== lastDealt && isHost(state)) {
    lastDealt = puzzle;
    rememberDealt(localStorage, state.view.size, puzzle);
  }
  if (invite && !joinedInvite && state.player && !state.view) {
    const name = home.storedName();
    if (name) {
      joinedInvite = true;
      send('join', { code: invite, name });
    }
  }
}

// The clock runs on the phone between messages, and a due time reached here is
// reported to the server (which checks it against its own clock).
setInterval(() => {
  const state = store.get();
  if (app.dataset.screen === 'game') game.paintClock(app.firstElementChild, state, Date.now());
  // Race bots fill in by the clock alone: redraw their meters as it runs.
  if (app.dataset.screen === 'game' && fillsOnTheirOwn(state.view?.game) && !frame) {
    frame = requestAnimationFrame(render);
  }
  const now = serverNow(Date.now(), state.offset);
  if (state.view && state.connected && tickDue(state.view.due_at, now, state.lastTick)) {
    send('tick');
    store.dispatch({ type: 'ticked', due: state.view.due_at, sent: now });
  }
}, 250);

// --- the computer's keyboard --------------------------------------------------------
document.addEventListener('keydown', (e) => {
  if (e.target.closest && e.target.closest('input, textarea, select')) return;
  if (help.open) return;
  const cmd = commandFor(e);
  if (!cmd) return;
  const state = store.get();
  if (screenOf(state) !== 'game' && cmd.kind !== 'help') return;
  // Space, Enter and Tab on a focused button (other than a square) keep their usual
  // jobs, so the game's buttons stay reachable and usable from the keyboard.
  if ((cmd.kind === 'turn' || cmd.kind === 'clue') &&
      e.target.closest('button') && !e.target.closest('[data-square]')) return;
  // Tab moves from clue to clue, and out of the grid after the last one (Shift+Tab
  // before the first), so the keyboard is never shut in.
  if (e.key === 'Tab' && leavesGrid(state, cmd.step)) return;
  e.preventDefault();
  // Someone typing on a real keyboard does not need the one on screen.
  if (cmd.kind === 'letter') document.body.classList.add('own-keys');
  command(cmd);
});
function leavesGrid(state, step) {
  const puzzle = state.view?.game?.puzzle;
  const slot = puzzle && state.cursor && slotAt(puzzle, state.cursor.square, state.cursor.dir);
  if (!slot) return true;
  const slots = slotsOf(puzzle);
  const i = slots.findIndex((s) => s.id === slot.id && s.dir === state.cursor.dir);
  return step > 0 ? i === slots.length - 1 : i === 0;
}
document.addEventListener('pointerdown', (e) => {
  if (e.pointerType === 'touch') document.body.classList.remove('own-keys');
});

// --- start --------------------------------------------------------------------------
async function start() {
  if (params.has('fixture')) {
    const { replay } = await import('./fixture.js');
    socket = { send: (action, fields) => (console.log('send', action, fields), Date.now()), resend: () => [] };
    return replay(params.get('fixture'), store);
  }
  const url = await socketUrl();
  socket = openSocket({
    url,
    onMessage: (message) => {
      if (message.type === 'welcome') onWelcome(message, send);
      store.dispatch({ type: 'server', message, now: Date.now() });
    },
    // Connected counts from the welcome (see the model); only a drop is news here.
    onStatus: (connected, how) => connected || store.dispatch({ type: 'connected', connected, ...how }),
    keep: (action) => (KEPT_ACTIONS.has(action) ? gameTag(store.get()) : null),
    alive: () => screenOf(store.get()) === 'game',
  });
}

registerWorker();
render();
start();
