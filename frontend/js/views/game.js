// The game screen: players along the top, the grid, the clue bar and the game's own
// keyboard (no text input is ever focused, so the phone's keyboard stays shut).
import { clone, one, text, show, delegate, keyedList, nameOf, colorOf } from './dom.js';
import { buildGrid, paintGrid, paintProgress } from './grid.js';
import { KEY_ROWS, commandForKey } from '../keys.js';
import { shownBoard, canType, isHost, mySeat } from '../model.js';
import { wordOf, clueOf, slotAt } from '../cursor.js';
import * as K from '../clock.js';
import { progressOf } from '../progress.js';
import { MODE_NAMES, SIZE_NAMES } from './table.js';
import { paintHostNews } from './host_news.js';

export function mount(root, ctx) {
  const keyboard = one(root, '[data-slot="keyboard"]');
  keyboard.replaceChildren(...KEY_ROWS.map((row) => {
    const div = document.createElement('div');
    div.className = 'key-row';
    for (const key of row) {
      const b = document.createElement('button');
      b.type = 'button';
      b.className = key === '⌫' ? 'key wide' : 'key';
      b.dataset.key = key;
      b.textContent = key;
      if (key === '⌫') b.setAttribute('aria-label', 'Delete');
      div.append(b);
    }
    return div;
  }));
  // pointerdown, not click: a fast typist's next tap can land before the click fires.
  delegate(keyboard, 'pointerdown', '[data-key]', (b, e) => {
    e.preventDefault();
    const command = commandForKey(b.dataset.key);
    if (command) ctx.command(command);
  });
  delegate(keyboard, 'click', '[data-key]', (b, e) => {
    // Keyboard users (Enter/Space on a focused key) arrive here with no pointerdown.
    if (e.detail === 0) ctx.command(commandForKey(b.dataset.key));
  });
  delegate(one(root, '[data-slot="grid"]'), 'click', '[data-square]', (cell) =>
    ctx.dispatch({ type: 'tap', square: Number(cell.dataset.square) }));
  for (const dir of ['across', 'down']) {
    delegate(one(root, `[data-slot="${dir}"]`), 'click', '[data-clue]', (b) =>
      ctx.dispatch({ type: 'go-clue', id: b.dataset.clue }));
  }
  delegate(root, 'click', '[data-act]', (b) => {
    const state = ctx.getState();
    const seat = mySeat(state);
    switch (b.dataset.act) {
      case 'prev-clue': return ctx.command({ kind: 'clue', step: -1 });
      case 'next-clue': return ctx.command({ kind: 'clue', step: 1 });
      case 'turn': return ctx.command({ kind: 'turn' });
      case 'undo': return ctx.command({ kind: 'undo' });
      case 'done': return ctx.send(seat?.done ? 'take_back' : 'done');
      case 'pause': return ctx.command({ kind: 'pause' });
      case 'resume': return ctx.send('resume');
      case 'end':
        // Ending checks every board as it stands: not something to do by a slip.
        if (window.confirm('End the game now and check every board as it stands?')) ctx.send('end');
        return;
      case 'help': return ctx.dispatch({ type: 'help', open: true });
      case 'close': return ctx.leave();
    }
  });
}

function racerItem() {
  return clone('tpl-racer');
}

// Along the top: each player's name, and in a race a small board of the squares they
// have filled (never letters) with the share of the board that is.
function paintRacers(root, state) {
  const { view } = state;
  const game = view.game;
  const race = game.mode === 'race';
  const players = Object.keys(game.seats);
  const list = one(root, '[data-slot="racers"]');
  list.classList.toggle('race', race);
  list.style.setProperty('--racers', players.length);
  const now = K.serverNow(Date.now(), state.offset);
  keyedList(list, players, (p) => p, racerItem, (li, p) => {
    const seat = game.seats[p];
    const color = colorOf(view, p);
    const name = p === view.you ? 'You' : nameOf(view, p);
    one(li, '.swatch').style.background = color;
    text(one(li, '.name'), name);
    const board = one(li, '.progress-grid');
    show(board, race);
    let share = '';
    if (race) {
      const progress = progressOf(game, p, now);
      paintProgress(board, game.puzzle, progress, color);
      share = `${Math.round(progress.fraction * 100)}%`;
    }
    text(one(li, '.share'), share);
    const tag = seat.gone ? 'left' : seat.done ? 'Done' : seat.away ? 'away' : '';
    text(one(li, '.tag'), tag);
    li.classList.toggle('done', !!seat.done);
    li.setAttribute('aria-label', [name, share && `${share} filled`, tag].filter(Boolean).join(', '));
  });
}

function paintLists(root, puzzle, current) {
  for (const dir of ['across', 'down']) {
    const list = one(root, `[data-slot="${dir}"]`);
    keyedList(list, puzzle.clues[dir], (s) => s.id, (s) => {
      const li = document.createElement('li');
      const b = document.createElement('button');
      b.type = 'button';
      b.dataset.clue = s.id;
      const n = document.createElement('span');
      n.className = 'clue-num';
      n.textContent = s.number;
      const t = document.createElement('span');
      t.textContent = s.clue;
      b.append(n, t);
      li.append(b);
      return li;
    }, (li, s) => {
      const on = current && current.id === s.id && current.dir === dir;
      li.firstChild.classList.toggle('current', !!on);
      if (on) li.firstChild.setAttribute('aria-current', 'true');
      else li.firstChild.removeAttribute('aria-current');
    });
  }
}

export function update(root, state) {
  const { view } = state;
  const game = view.game;
  const puzzle = game.puzzle;
  const host = isHost(state);
  const seat = mySeat(state);
  const board = shownBoard(state);
  text(one(root, '[data-slot="heading"]'), `${MODE_NAMES[game.mode]} · ${SIZE_NAMES[view.size] || ''}`);
  paintRacers(root, state);
  paintHostNews(root, view);

  const waiting = waitingFor(view, seat);
  show(one(root, '[data-slot="waiting"]'), waiting.length > 0);
  text(one(root, '[data-slot="waiting"]'), waiting.length ? `Waiting for ${waiting.map((p) => nameOf(view, p)).join(', ')}…` : '');

  const grid = one(root, '[data-slot="grid"]');
  buildGrid(grid, puzzle, { tappable: true });
  grid.setAttribute('aria-label', `Crossword, ${puzzle.width} by ${puzzle.height}`);
  const together = game.mode === 'together';
  const word = new Set(wordOf(puzzle, state.cursor));
  paintGrid(grid, puzzle, {
    board,
    cursor: state.cursor,
    word,
    tint: together ? (sq) => (game.writers?.[sq] ? colorOf(view, game.writers[sq]) : null) : null,
    label: (sq, letter) => squareLabel(puzzle, state.cursor, word, sq, letter),
  });
  grid.classList.toggle('together', together);
  // Focus follows the cursor while it is in the grid, so a screen reader reads the
  // square the next letter will land in.
  const focused = document.activeElement;
  if (state.cursor && focused?.dataset?.square !== undefined && grid.contains(focused) &&
      Number(focused.dataset.square) !== state.cursor.square) {
    grid.querySelector(`[data-square="${state.cursor.square}"]`)?.focus();
  }

  const current = clueOf(puzzle, state.cursor);
  announce(root, current ? clueLine(current) : '', seat, game);
  text(one(root, '[data-slot="clue-num"]'), current ? `${current.number}${current.dir === 'across' ? 'A' : 'D'}` : '');
  text(one(root, '[data-slot="clue-text"]'), current ? current.clue : '');
  paintLists(root, puzzle, current);

  const typing = canType(state);
  root.classList.toggle('keyboard-off', !typing);
  for (const key of root.querySelectorAll('[data-key]')) key.disabled = !typing;

  const undo = one(root, '[data-act="undo"]');
  undo.disabled = !typing || (game.mode === 'race' && !game.can_undo);
  const done = one(root, '[data-act="done"]');
  show(done, !!seat && !seat.gone);
  const doneWord = together ? "We're done" : 'Done';
  text(done, seat?.done ? 'Take it back' : doneWord);
  done.setAttribute('aria-pressed', String(!!seat?.done));
  show(one(root, '[data-act="end"]'), host && !view.solo);
  const pause = one(root, '[data-act="pause"]');
  show(pause, host);
  text(pause, game.paused ? '▶' : '❚❚');
  pause.setAttribute('aria-label', game.paused ? 'Carry on' : 'Pause for everyone');
  show(one(root, '[data-slot="paused"]'), game.paused);
  show(one(root, '[data-act="resume"]'), host);
  // Only the host pauses: everyone else is told who, and Done waits for the game.
  text(one(root, '[data-slot="paused-by"]'), host ? 'Paused' : `Paused by ${nameOf(view, view.host)}`);
  done.disabled = !!game.paused;
  paintClock(root, state, Date.now());
}

const DIR = { across: 'Across', down: 'Down' };
export const clueLine = (slot) => `${slot.number} ${DIR[slot.dir]}, ${slot.squares.length} letters: ${slot.clue}`;

// What a square says to a screen reader: its number, the clue of its word (in the
// cursor's direction when it has one), its letter or "empty", and whether it is in
// the highlighted word.
export function squareLabel(puzzle, cursor, word, sq, letter) {
  const mine = cursor?.dir || 'across';
  const dir = slotAt(puzzle, sq, mine) ? mine : mine === 'across' ? 'down' : 'across';
  const slot = slotAt(puzzle, sq, dir);
  const number = puzzle.numbers[sq];
  const parts = [];
  if (number) parts.push(`square ${number}`);
  if (slot) parts.push(`${slot.number} ${DIR[dir]}: ${slot.clue}`);
  parts.push(letter || 'empty');
  if (word.has(sq)) parts.push('in the highlighted word');
  return parts.join(', ');
}

// The live region: a new clue, and a change of Done or pause, read out once each.
const heardBy = new WeakMap(); // screen root -> what was last announced there
function announce(root, clue, seat, game) {
  const el = one(root, '[data-slot="announce"]');
  if (!heardBy.has(root)) heardBy.set(root, {});
  const heard = heardBy.get(root);
  const lines = [];
  if (clue !== heard.clue) lines.push(clue);
  const done = String(!!seat?.done);
  if (heard.done !== undefined && done !== heard.done) {
    lines.push(seat?.done ? 'You are done: the keyboard is off until you take it back.' : 'Taken back: type on.');
  }
  const paused = String(!!game.paused);
  if (heard.paused !== undefined && paused !== heard.paused) lines.push(game.paused ? 'Paused.' : 'Carrying on.');
  Object.assign(heard, { clue, done, paused });
  if (lines.length) text(el, lines.filter(Boolean).join(' '));
}

// Who the check waits for: players away within their grace, and, once I am Done,
// everyone still playing (a bot still solving, too).
export function waitingFor(view, seat) {
  const game = view.game;
  const away = view.waiting_for || [];
  if (!seat?.done || game.over) return away;
  const playing = Object.entries(game.seats).filter(([, s]) => !s.done && !s.gone).map(([p]) => p);
  return [...new Set([...playing, ...away])];
}

// Called every frame-ish between messages too: the clock runs on the phone.
export function paintClock(root, state, localNow) {
  const game = state.view?.game;
  const el = one(root, '[data-slot="clock"]');
  if (!game || !el) return;
  const now = K.serverNow(localNow, state.offset);
  const mine = game.my_clock || game.clock;
  let shown = K.formatClock(K.elapsed(mine, now));
  let urgent = false;
  if (game.mode === 'race') {
    const left = K.timeLeft(game.limit_ms, game.clock, now);
    if (K.showTimeLeft(left)) {
      shown = `${K.formatLeft(left)} left`;
      urgent = true;
    }
  }
  if (game.paused) shown = `${shown} · paused`;
  text(el, shown);
  el.classList.toggle('urgent', urgent);
}
