// The watch page: a TV that follows a room. Race boards show squares only (from
// progress, never letters); the Together board shows its letters in their writers'
// colors; then the check's results.
import { createStore } from './store.js';
import { model, initialState } from './model.js';
import { openSocket, socketUrl } from './socket.js';
import { elapsed, formatClock, formatLeft, serverNow, showTimeLeft, timeLeft } from './clock.js';
import { clone, one, text, show, keyedList, nameOf, colorOf } from './views/dom.js';
import { buildGrid, paintGrid, paintProgress } from './views/grid.js';
import { fitBoards } from './views/fit.js';
import { SIZE_NAMES, MODE_NAMES } from './views/table.js';
import { paintStandings, resultLook } from './views/results.js';
import { progressOf, fillsOnTheirOwn } from './progress.js';
import * as DuelWatch from './watch/duel.js'; // a Duel's code shows the Duel view instead

const store = createStore(model, { ...initialState, watching: true });
const params = new URLSearchParams(location.search);
let code = params.get('duel') || (params.get('room') || '').toUpperCase();
let socket = { send: () => 0 };
// Ask to watch once per request (a code typed, the link's code, a reconnect), never
// again by itself after a refusal: a wrong code would only hit the rate limit.
let wantWatch = !!code;

const app = document.getElementById('app');
let frame = 0;

function askToWatch() {
  const state = store.get();
  if (wantWatch && code && state.player && state.connected) {
    wantWatch = false;
    if (DuelWatch.isDuelCode(code)) socket.send('duel_watch', { game: code });
    else socket.send('watch', { code });
  }
}

function mountEnter(root) {
  const input = one(root, '#code');
  input.value = code;
  one(root, 'form').addEventListener('submit', (e) => {
    e.preventDefault();
    const typed = input.value.trim();
    code = DuelWatch.isDuelCode(typed) ? typed : typed.toUpperCase(); // a Duel's code has case
    if (!code) return input.focus();
    history.replaceState(null, '', `?${DuelWatch.isDuelCode(code) ? 'duel' : 'room'}=${encodeURIComponent(code)}`);
    wantWatch = true;
    askToWatch();
  });
  input.focus();
}

const TITLES = { lobby: 'Getting ready', table: 'Choosing the next puzzle', playing: '', results: 'Results', closed: 'The room is closed' };

function paintShow(root, state) {
  const view = state.view;
  const game = view.phase === 'playing' || view.phase === 'results' ? view.game : null;
  text(one(root, '[data-slot="code"]'), view.code);
  const title = game ? `${MODE_NAMES[game.mode]} · ${SIZE_NAMES[view.size] || ''}` : '';
  text(one(root, '[data-slot="title"]'), view.phase === 'playing' ? title : TITLES[view.phase] || '');
  document.title = `Crossing Words · Watch${view.phase === 'playing' ? ` · ${title}` : ''}`;
  const waiting = (view.waiting_for || []).map((p) => nameOf(view, p));
  let line = '';
  if (view.phase === 'lobby' || view.phase === 'table') line = `Join with the code ${view.code}`;
  if (view.phase === 'playing' && game.paused) line = 'Paused';
  else if (waiting.length) line = `Waiting for ${waiting.join(', ')}…`;
  text(one(root, '[data-slot="line"]'), line);

  const members = game ? [] : view.members;
  keyedList(one(root, '[data-slot="members"]'), members, (m) => m.player, () => clone('tpl-member'), (li, m) => {
    one(li, '.swatch').style.background = m.color;
    text(one(li, '.who'), m.name);
    text(one(li, '.tag'), m.bot ? `${m.bot} bot` : '');
  });

  const racing = game && game.mode === 'race' && view.phase === 'playing';
  root.classList.toggle('racing', !!racing);
  const boards = one(root, '[data-slot="boards"]');
  show(boards, racing);
  if (racing) paintBoards(boards, state);

  const shared = one(root, '[data-slot="shared"]');
  const showShared = game && (game.mode === 'together' || view.phase === 'results');
  show(shared, !!showShared);
  if (showShared) {
    const grid = one(root, '[data-slot="grid"]');
    buildGrid(grid, game.puzzle);
    if (view.phase === 'results' && game.result) {
      paintGrid(grid, game.puzzle, resultLook(view, null));
      grid.classList.toggle('owned', game.mode === 'together');
    } else {
      paintGrid(grid, game.puzzle, {
        board: game.board,
        tint: (sq) => (game.writers?.[sq] ? colorOf(view, game.writers[sq]) : null),
      });
    }
    const standings = one(root, '[data-slot="standings"]');
    if (game.result) paintStandings(standings, view, null, { tappable: false });
    else {
      // While playing Together: who is in, and who has said We're done.
      keyedList(standings, Object.keys(game.seats), (p) => p, () => clone('tpl-standing'), (li, p) => {
        const seat = game.seats[p];
        text(one(li, '.place'), '');
        one(li, '.swatch').style.background = colorOf(view, p);
        text(one(li, '.who'), nameOf(view, p));
        text(one(li, '.score'), seat.gone ? 'left' : seat.done ? "We're done" : '');
      });
    }
  }
  paintClock(root, state, Date.now());
}

// A race on the TV: every racer's board, as large as the screen allows for all of them.
function paintBoards(boards, state) {
  const { view } = state;
  const game = view.game;
  const racers = Object.keys(game.seats);
  const top = boards.getBoundingClientRect().top;
  const fit = fitBoards(racers.length, boards.clientWidth, window.innerHeight - top - 16, { gap: 24, caption: 48 });
  boards.style.setProperty('--board-cols', fit.cols);
  boards.style.setProperty('--board-size', `${Math.max(80, fit.size)}px`);
  const now = serverNow(Date.now(), state.offset);
  keyedList(boards, racers, (p) => p, () => clone('tpl-board'), (fig, p) => {
    const progress = progressOf(game, p, now);
    const color = colorOf(view, p);
    const grid = one(fig, '.grid');
    paintProgress(grid, game.puzzle, progress, color);
    grid.setAttribute('aria-label', `${nameOf(view, p)}'s board`);
    const seat = game.seats[p];
    one(fig, '.swatch').style.background = color;
    text(one(fig, '.who'), nameOf(view, p));
    text(one(fig, '.fraction'), `${Math.round(progress.fraction * 100)}%`);
    text(one(fig, '.tag'), seat.gone ? 'left' : seat.done ? 'Done ✓' : seat.away ? 'away' : '');
    fig.classList.toggle('done', !!seat.done);
    fig.classList.toggle('gone', !!seat.gone);
  });
}

function paintClock(root, state, localNow) {
  const el = one(root, '[data-slot="clock"]');
  const game = state.view?.game;
  if (!el) return;
  if (!game || state.view.phase !== 'playing') return text(el, '');
  const now = serverNow(localNow, state.offset);
  const left = game.mode === 'race' ? timeLeft(game.limit_ms, game.clock, now) : null;
  const urgent = showTimeLeft(left);
  text(el, urgent ? `${formatLeft(left)} left` : formatClock(elapsed(game.clock, now)));
  el.classList.toggle('urgent', urgent);
}

function render() {
  frame = 0;
  const state = store.get();
  const name = DuelWatch.active() ? 'duel' : state.view ? 'show' : 'enter';
  if (name !== 'duel' && app.dataset.screen !== name) {
    const root = clone(`tpl-${name}`);
    app.replaceChildren(root);
    app.dataset.screen = name;
    if (name === 'enter') mountEnter(root);
  }
  app.dataset.screen = name;
  if (name === 'show') paintShow(app.firstElementChild, state);
  show(document.getElementById('status'), !state.connected);
  const notice = document.getElementById('notice');
  show(notice, !!state.notice);
  text(notice, state.notice?.message);
  if (state.notice) {
    const shown = state.notice;
    setTimeout(() => store.get().notice === shown && store.dispatch({ type: 'notice', notice: null }), 5000);
  }
}

store.subscribe((state) => {
  if (!frame) frame = requestAnimationFrame(render);
  if (state.wantSnapshot) {
    // The server refuses `snapshot` from a watch connection (it has no player), but
    // watching again answers with a full view, which is all a gap needs.
    store.dispatch({ type: 'snapshot-asked' });
    socket.send('watch', { code: state.view?.code || code });
  }
  askToWatch();
});

setInterval(() => {
  const state = store.get();
  if (app.dataset.screen === 'show') paintClock(app.firstElementChild, state, Date.now());
  DuelWatch.tick(app, Date.now());
  if (fillsOnTheirOwn(state.view?.game) && !frame) frame = requestAnimationFrame(render);
  // No tick from here: `tick` is for members, and the players' phones send it.
}, 250);

async function start() {
  if (params.has('fixture')) {
    const { replay } = await import('./fixture.js');
    return replay(params.get('fixture'), store);
  }
  socket = openSocket({
    url: await socketUrl(),
    prefix: 'crossing.watch',
    onMessage: (message) => {
      if (message.type === 'duel') return DuelWatch.receive(app, message, Date.now());
      store.dispatch({ type: 'server', message, now: Date.now() });
    },
    onStatus: (connected) => {
      // A new connection is a new watch screen: ask again after a reconnect.
      if (connected && code) wantWatch = true;
      // Connected counts from the welcome (see the model); only a drop is news here.
      if (!connected) store.dispatch({ type: 'connected', connected });
    },
  });
}

// A TV remote's arrows look back through a finished Duel.
const LOOK = { ArrowLeft: 'back', ArrowRight: 'on', Home: 'start', End: 'end' };
document.addEventListener('keydown', (e) => {
  if (DuelWatch.active() && LOOK[e.key] && !e.target.closest?.('input')) DuelWatch.lookBack(app, LOOK[e.key]);
});

window.addEventListener('resize', () => { if (!frame) frame = requestAnimationFrame(render); });
render();
start();
