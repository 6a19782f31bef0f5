// Results: the ranking, and the board as it was checked. Race shows my own board with
// its misses; Together shows who earned each square, and lights a player's words.
import { clone, one, text, show, delegate, keyedList, nameOf, colorOf } from './dom.js';
import { buildGrid, paintGrid, whereIs } from './grid.js';
import { isHost } from '../model.js';
import { formatClock } from '../clock.js';
import { paintHostNews } from './host_news.js';

const REASONS = { done: 'Everyone is done.', end: 'The host ended the game.', limit: 'Time is up.' };

export function scoreLine(game, s) {
  if (game.mode === 'together') return `${s.squares} ${s.squares === 1 ? 'square' : 'squares'}`;
  const time = formatClock(s.time_ms);
  return s.perfect ? `perfect · ${time}` : `${s.right}/${s.squares} right · ${time}`;
}

// The squares of the words a player earned, for lighting them up.
export function litSquares(puzzle, words) {
  const byId = new Map([...puzzle.clues.across, ...puzzle.clues.down].map((s) => [s.id, s.squares]));
  return new Set(words.flatMap((id) => byId.get(id) || []));
}

export function mount(root, ctx) {
  delegate(one(root, '[data-slot="standings"]'), 'click', '[data-player]', (b) =>
    ctx.dispatch({ type: 'light', player: b.dataset.player }));
  delegate(root, 'click', '[data-act]', (b) => {
    switch (b.dataset.act) {
      case 'again': return ctx.dispatch({ type: 'choosing', open: true });
      case 'to_lobby': return ctx.send('to_lobby');
      case 'help': return ctx.dispatch({ type: 'help', open: true });
      case 'close': return ctx.leave();
    }
  });
}

export function paintStandings(list, view, lit, { tappable }) {
  const game = view.game;
  keyedList(list, game.result.standings, (s) => s.player, () => clone('tpl-standing'), (li, s) => {
    const b = one(li, 'button');
    b.dataset.player = s.player;
    b.disabled = !tappable;
    b.setAttribute('aria-pressed', String(lit === s.player));
    text(one(li, '.place'), s.place);
    one(li, '.swatch').style.background = colorOf(view, s.player);
    text(one(li, '.who'), s.player === view.you ? `${nameOf(view, s.player)} (you)` : nameOf(view, s.player));
    text(one(li, '.score'), scoreLine(game, s));
  });
}

export function resultLook(view, lit) {
  const game = view.game;
  const result = game.result;
  const misses = new Map((result.misses || []).map((m) => [m.square, m.answer]));
  // What a screen reader hears of each square: the letter, and right or what it should be.
  const said = (sq, letter) => {
    const miss = misses.get(sq);
    const checked = miss == null ? `${letter}, right` : `${letter || 'empty'}${letter ? ', wrong' : ''}, should be ${miss}`;
    return `${whereIs(sq, game.puzzle.width)}: ${checked}`;
  };
  if (game.mode === 'together') {
    const words = lit ? result.standings.find((s) => s.player === lit)?.words || [] : null;
    const owner = (sq) => result.owners[sq];
    return {
      board: game.board,
      misses,
      fill: (sq) => (owner(sq) ? colorOf(view, owner(sq)) : null),
      lit: words ? litSquares(game.puzzle, words) : null,
      label: (sq, letter) => said(sq, letter) + (owner(sq) ? `, earned by ${nameOf(view, owner(sq))}` : ''),
    };
  }
  // A watch screen has no board of its own: it shows the solution.
  return { board: game.board ?? result.solution, misses, label: said };
}

export function update(root, state) {
  const { view } = state;
  const game = view.game;
  const result = game.result;
  if (!result) return;
  const together = game.mode === 'together';
  paintHostNews(root, view);
  const me = result.standings.find((s) => s.player === view.you);
  const alone = result.standings.length === 1;
  text(one(root, '[data-slot="title"]'), titleFor(game, me));
  // On your own, "Everyone is done" is only you tapping Done: the title says the rest.
  text(one(root, '[data-slot="reason"]'), alone && result.reason === 'done' ? '' : REASONS[result.reason] || '');
  paintStandings(one(root, '[data-slot="standings"]'), view, state.lit, { tappable: together });
  text(one(root, '[data-slot="hint"]'), together ? 'Tap a player to light up the words they earned. Marked squares were wrong or empty.' : 'Your board as checked: marked squares were wrong or empty, with the right letter in the corner.');
  const grid = one(root, '[data-slot="grid"]');
  buildGrid(grid, game.puzzle, { readable: true });
  paintGrid(grid, game.puzzle, resultLook(view, state.lit));
  grid.classList.toggle('owned', together);
  show(one(root, '[data-act="again"]'), isHost(state));
  show(one(root, '[data-act="to_lobby"]'), !view.solo);
}

export function titleFor(game, me) {
  const standings = game.result.standings;
  if (!me) return 'Results';
  if (standings.length === 1) return boardLine(game, me);
  const shared = standings.filter((s) => s.place === me.place).length > 1;
  if (me.place === 1) return shared ? 'Tied for first!' : 'You won!';
  return shared ? `Tied for ${ordinal(me.place)}` : `You came ${ordinal(me.place)}`;
}

// With nobody to beat, nobody won: what came of the board, and the time it took.
export function boardLine(game, me) {
  const { puzzle, result } = game;
  const whites = puzzle.width * puzzle.height - puzzle.blocks.length;
  const race = game.mode === 'race';
  const right = race ? me.right : whites - (result.misses || []).length;
  const time = formatClock(race ? me.time_ms : game.clock.elapsed_ms);
  return right === whites ? `All ${whites} right, ${time}` : `${right} of ${whites} right, ${time}`;
}

export function ordinal(n) {
  const s = n % 100 >= 11 && n % 100 <= 13 ? 'th' : ({ 1: 'st', 2: 'nd', 3: 'rd' }[n % 10] || 'th');
  return `${n}${s}`;
}
