// The client's state, and the one pure reducer that changes it. Server messages come
// in as events exactly as received; the keyboard and taps come in as game commands.
// Nothing here touches the DOM or the socket, so node --test drives it directly.
import { receiveRoom } from './versions.js';
import { offsetFrom } from './clock.js';
import * as C from './cursor.js';

export const initialState = Object.freeze({
  player: null,
  saved: { race: false, together: false },
  connected: false,
  unreachable: false, // the last few attempts to connect all failed
  rejoin: null, // after a welcome: 'waiting' for the room's view, then 'due' to send the kept frames again
  view: null,
  version: 0,
  wantSnapshot: false,
  cursor: null,
  pending: [], // letters typed or cleared here and not yet in the server's view
  offset: 0,
  lastTick: null,
  notice: null,
  askSaved: false,
  help: false,
  lit: null, // results: the player whose words are lit
  choosing: false, // the host has left the results to pick the next puzzle
  watching: false,
  leftCode: null, // the room we walked out of: its last messages are not for us
});

// The board as this phone shows it: the server's letters with our own unconfirmed
// changes on top, so a letter shows the moment it is typed.
export function shownBoard(state) {
  const board = state.view?.game?.board;
  if (typeof board !== 'string') return null;
  if (!state.pending.length) return board;
  const chars = board.split('');
  for (const p of state.pending) chars[p.square] = p.letter;
  return chars.join('');
}

const me = (state) => state.view?.members?.find((m) => m.player === state.view.you) || null;

export function screenOf(state) {
  const view = state.view;
  if (!view) return 'home';
  if (view.phase === 'closed') return 'closed';
  if (state.watching) return 'watch';
  const onGame = me(state)?.on_game_screen;
  if (view.phase === 'lobby' || !onGame) return 'lobby';
  if (view.phase === 'table') return 'table';
  // After the check the room stays in results until the next start; the host picks
  // the next mode and size from there while everyone else still sees the ranking.
  if (view.phase === 'results') return state.choosing && view.host === view.you ? 'table' : 'results';
  return 'game';
}

export const isHost = (state) => !!state.view && state.view.host === state.view.you;

export function mySeat(state) {
  const game = state.view?.game;
  return (game && state.view.you && game.seats?.[state.view.you]) || null;
}

export function canType(state) {
  const game = state.view?.game;
  const seat = mySeat(state);
  return !!(game && seat && !seat.done && !seat.gone && !game.paused && !game.over &&
    typeof game.board === 'string' && state.cursor && screenOf(state) === 'game');
}

const roomless = { view: null, version: 0, cursor: null, pending: [] };

// The frames kept across a dead socket (socket.js) are kept with the game they were
// typed in, and go again only into that game: never into the next puzzle, or another room.
export const KEPT_ACTIONS = new Set(['type', 'clear', 'undo', 'done', 'take_back']);

export function gameTag(state) {
  const puzzle = state.view?.game?.puzzle?.id;
  return puzzle ? { room: state.view.code, puzzle } : null;
}

export function sameGame(tag, state) {
  const now = gameTag(state);
  return !!now && now.room === tag.room && now.puzzle === tag.puzzle;
}

// The letters and clears sent again after a reconnect show on the board until answered,
// as when they were typed (after a reload, the page knows them only from here).
function resent(state, frames) {
  const known = new Set(state.pending.map((p) => p.seq));
  const pending = [...state.pending];
  for (const f of frames) {
    if (known.has(f.seq) || (f.action !== 'type' && f.action !== 'clear')) continue;
    pending.push({ seq: f.seq, square: f.square, letter: f.action === 'clear' ? '.' : f.letter, version: null });
  }
  return { ...state, pending, rejoin: null };
}

function settlePending(pending, version) {
  return pending.filter((p) => p.version == null || p.version > version);
}

function withRoom(state, message, now) {
  const held = receiveRoom(state, message);
  if (held.snapshot) return { ...state, wantSnapshot: true };
  if (held.view === state.view) return state;
  let next = {
    ...state,
    view: held.view,
    version: held.version,
    wantSnapshot: false,
    pending: settlePending(state.pending, held.version),
  };
  const at = held.view.game?.clock?.at;
  if (at != null && at !== state.view?.game?.clock?.at) next.offset = offsetFrom(at, now);
  const puzzle = held.view.game?.puzzle;
  const samePuzzle = puzzle && state.view?.game?.puzzle?.id === puzzle.id;
  if (puzzle && (!samePuzzle || !next.cursor)) {
    next.cursor = C.firstCursor(puzzle, held.view.game.board || '');
    next.pending = [];
  }
  if (!puzzle) next.cursor = null;
  if (held.view.phase !== 'table') next.askSaved = false;
  if (held.view.phase !== 'results') next = { ...next, lit: null, choosing: false };
  return next;
}

function fromServer(state, message, now) {
  switch (message.type) {
    case 'welcome': {
      // Only a welcome makes the connection usable: anything sent before it would be
      // refused (`no-hello`), and in the cloud frames may be handled out of order.
      // Back in a room, the kept frames wait for its view (the game may have moved on).
      const back = {
        connected: true, unreachable: false, player: message.player, saved: message.saved || state.saved,
        rejoin: message.room ? 'waiting' : 'due',
      };
      // No room to go back to: whatever room we held has gone on without us.
      if (!message.room && state.view && !state.watching) return { ...state, ...roomless, ...back };
      return { ...state, ...back };
    }
    case 'room': {
      // Still from the room we left: nothing kept is for it (and must not wait on it).
      if (state.leftCode && !state.view) return state.rejoin === 'waiting' ? { ...state, rejoin: 'due' } : state;
      const next = withRoom(state, message, now);
      return state.rejoin === 'waiting' && next.view && !next.wantSnapshot ? { ...next, rejoin: 'due' } : next;
    }
    case 'ack': {
      const pending = state.pending.map((p) =>
        p.seq === message.seq ? { ...p, version: message.version ?? state.version } : p);
      let next = { ...state, pending: settlePending(pending, state.version) };
      const puzzle = state.view?.game?.puzzle;
      if (message.cursor != null && puzzle) {
        next.cursor = C.tap(puzzle, { square: -1, dir: state.cursor?.dir || 'across' }, message.cursor);
      }
      return next;
    }
    case 'error': {
      const next = {
        ...state,
        pending: state.pending.filter((p) => p.seq !== message.seq),
        notice: { code: message.code, message: message.message },
      };
      if (message.code === 'saved-board') return { ...next, askSaved: true, notice: null };
      return next;
    }
    default:
      return state;
  }
}

// Game commands from either keyboard, or from taps. Letters and deletes carry the
// `seq` their message went out with (null when nothing was sent).
function fromPlayer(state, event) {
  const puzzle = state.view?.game?.puzzle;
  if (!puzzle || !state.cursor) return state;
  const board = shownBoard(state) || '';
  const cursor = state.cursor;
  switch (event.type) {
    case 'letter': {
      if (!canType(state)) return state;
      const pending = [...state.pending, { seq: event.seq, square: cursor.square, letter: event.letter, version: null }];
      const after = { ...state, pending };
      return { ...after, cursor: C.afterLetter(puzzle, shownBoard(after), cursor) };
    }
    case 'delete': {
      if (!canType(state)) return state;
      const { clear, cursor: back } = C.deleteAt(puzzle, board, cursor);
      const pending = clear == null ? state.pending
        : [...state.pending, { seq: event.seq, square: clear, letter: '.', version: null }];
      return { ...state, pending, cursor: back };
    }
    case 'tap':
      return { ...state, cursor: C.tap(puzzle, cursor, event.square) };
    case 'turn':
      return { ...state, cursor: C.turn(puzzle, cursor) };
    case 'clue':
      return { ...state, cursor: C.stepClue(puzzle, board, cursor, event.step) };
    case 'go-clue':
      return { ...state, cursor: C.goToClue(puzzle, board, event.id) || cursor };
    case 'arrow':
      return { ...state, cursor: C.arrow(puzzle, cursor, event.dx, event.dy) };
    default:
      return state;
  }
}

export function model(state, event) {
  switch (event.type) {
    case 'server':
      return fromServer(state, event.message, event.now ?? 0);
    case 'connected':
      // Unanswered letters stay shown: the socket keeps them and sends them again
      // once the room is back (or they are dropped with a view of another game).
      return event.connected ? { ...state, connected: true }
        : { ...state, connected: false, unreachable: !!event.unreachable, rejoin: null };
    case 'resent':
      return resent(state, event.frames);
    case 'snapshot-asked':
      return { ...state, wantSnapshot: false };
    case 'ticked':
      return { ...state, lastTick: { due: event.due, sent: event.sent } };
    case 'help':
      return { ...state, help: event.open };
    case 'notice':
      return { ...state, notice: event.notice };
    case 'ask-saved':
      return { ...state, askSaved: event.open };
    case 'entering':
      return { ...state, leftCode: null };
    case 'choosing':
      return { ...state, choosing: event.open };
    case 'light':
      return { ...state, lit: state.lit === event.player ? null : event.player };
    case 'watching':
      return { ...state, watching: true };
    case 'left': {
      // A race on your own that is put down is kept to pick up: say so at once,
      // rather than waiting for the next welcome.
      const game = state.view?.game;
      const keptRace = state.view?.solo && state.view.phase === 'playing' && game?.mode === 'race' && !game.over;
      const saved = keptRace ? { ...state.saved, race: true } : state.saved;
      return { ...state, ...roomless, saved, watching: false, leftCode: state.view?.code ?? null };
    }
    default:
      return fromPlayer(state, event);
  }
}

// The host's choice of mode and size: a tap builds on the host's own latest tap, not
// on a view the server has not updated yet (two quick taps must not undo each other).
export function nextChoice(pending, view, change) {
  return { mode: view.mode, size: view.size, ...(pending || {}), ...change };
}

// The room has caught up with the pending choice (or moved on): forget it.
export function choiceSettled(pending, view) {
  return !pending || (pending.mode === view.mode && pending.size === view.size);
}
