// Placing this turn's tiles on the Duel board, before they are sent. Pure: every
// function takes a placement state and returns a new one (or the same one when
// nothing changes). The server's board and rack are the truth; `placed` is only
// what this player has laid down and not yet sent.
//
// state = {board: [15 strings, '.' empty], rack: [letters], placed: [{row, col,
//          letter, index}], cursor: {row, col} | null, direction: 'across' | 'down'}
// `index` is the rack position the tile came from, so two of a letter stay apart.

export const SIZE = 15;
export const CENTRE = { row: 7, col: 7 };

const inside = (row, col) => row >= 0 && row < SIZE && col >= 0 && col < SIZE;

export function placement(board, rack) {
  return { board: board ?? emptyBoard(), rack: [...(rack ?? [])], placed: [], cursor: null, direction: 'across' };
}

export function emptyBoard() {
  return Array.from({ length: SIZE }, () => '.'.repeat(SIZE));
}

const boardLetter = (state, row, col) => {
  const ch = state.board[row]?.[col];
  return ch && ch !== '.' ? ch : null;
};

export const placedAt = (state, row, col) => state.placed.find((t) => t.row === row && t.col === col) ?? null;

// What a square shows: a board tile, a tile placed this turn, or nothing.
export function squareOf(state, row, col) {
  const fixed = boardLetter(state, row, col);
  if (fixed) return { letter: fixed, placed: false };
  const tile = placedAt(state, row, col);
  return tile ? { letter: tile.letter, placed: true } : null;
}

const isFilled = (state, row, col) => squareOf(state, row, col) != null;

// Rack positions not on the board this turn.
export function freeIndexes(state) {
  const used = new Set(state.placed.map((t) => t.index));
  return state.rack.map((_, i) => i).filter((i) => !used.has(i));
}

const freeIndexOf = (state, letter) => freeIndexes(state).find((i) => state.rack[i] === letter) ?? null;

const step = (direction) => (direction === 'down' ? [1, 0] : [0, 1]);

// The first empty square from (row, col) on along the direction, that square included.
function nextEmpty(state, row, col, direction) {
  const [dr, dc] = step(direction);
  let r = row;
  let c = col;
  while (inside(r, c) && isFilled(state, r, c)) {
    r += dr;
    c += dc;
  }
  return inside(r, c) ? { row: r, col: c } : null;
}

// A click or tap on a square: the highlight goes there; on the highlighted square
// it turns between across and down.
export function select(state, row, col) {
  if (!inside(row, col)) return state;
  const { cursor } = state;
  if (cursor && cursor.row === row && cursor.col === col) {
    return { ...state, direction: state.direction === 'across' ? 'down' : 'across' };
  }
  return { ...state, cursor: { row, col } };
}

export function turn(state) {
  return { ...state, direction: state.direction === 'across' ? 'down' : 'across' };
}

// Arrow keys move the highlight one square (starting from the centre).
export function arrow(state, dr, dc) {
  if (!state.cursor) return { ...state, cursor: { ...CENTRE } };
  const row = Math.min(SIZE - 1, Math.max(0, state.cursor.row + dr));
  const col = Math.min(SIZE - 1, Math.max(0, state.cursor.col + dc));
  if (row === state.cursor.row && col === state.cursor.col) return state;
  return { ...state, cursor: { row, col } };
}

// Puts rack tile `index` on (row, col), if that square is empty (a tile placed this
// turn there goes back to the rack first). The highlight moves on to the next empty
// square along the direction.
export function placeAt(state, row, col, index) {
  if (!inside(row, col) || boardLetter(state, row, col)) return state;
  if (index == null || index < 0 || index >= state.rack.length) return state;
  if (state.placed.some((t) => t.index === index)) return state;
  const placed = state.placed.filter((t) => !(t.row === row && t.col === col));
  placed.push({ row, col, letter: state.rack[index], index });
  const next = { ...state, placed };
  const [dr, dc] = step(state.direction);
  const cursor = nextEmpty(next, row + dr, col + dc, state.direction) ?? { row, col };
  return { ...next, cursor };
}

// A tile put on a square the player chose (a tap on the square after the tile, or a
// drag): the highlight stays on that square instead of moving on, so the next rack
// tile tapped waits for the square the player taps, whichever way the word runs. Two
// or more tiles in one line turn the highlight that way, for typing on from there.
export function putOn(state, row, col, index) {
  const next = placeAt(state, row, col, index);
  if (next === state) return state;
  const line = lineOf(next.placed);
  return { ...next, cursor: { row, col }, direction: line ?? next.direction };
}

// 'across' or 'down' when this turn's tiles (two or more) lie in one row or column.
function lineOf(placed) {
  if (placed.length < 2) return null;
  if (placed.every((t) => t.row === placed[0].row)) return 'across';
  if (placed.every((t) => t.col === placed[0].col)) return 'down';
  return null;
}

// A typed letter goes on the highlighted square (or the next empty one along the
// direction) when the rack has that letter free.
export function type(state, letter) {
  if (!state.cursor) return state;
  const index = freeIndexOf(state, String(letter).toUpperCase());
  if (index == null) return state;
  const at = nextEmpty(state, state.cursor.row, state.cursor.col, state.direction);
  if (!at) return state;
  return placeAt(state, at.row, at.col, index);
}

// Backspace: the last tile placed goes back to the rack, the highlight to its square.
export function backspace(state) {
  if (!state.placed.length) return state;
  const last = state.placed[state.placed.length - 1];
  return { ...state, placed: state.placed.slice(0, -1), cursor: { row: last.row, col: last.col } };
}

// Takes one placed tile back (a tap on it while nothing is chosen, or a drag home).
export function takeBack(state, row, col) {
  if (!placedAt(state, row, col)) return state;
  return { ...state, placed: state.placed.filter((t) => !(t.row === row && t.col === col)) };
}

// Recall: every tile of this turn back to the rack; the highlight to the first one's square.
export function recall(state) {
  if (!state.placed.length) return state;
  const first = state.placed[0];
  return { ...state, placed: [], cursor: { row: first.row, col: first.col } };
}

// The message's tiles: `duel_play`'s {row, col, letter}, 0-based.
export const playTiles = (state) => state.placed.map(({ row, col, letter }) => ({ row, col, letter }));

// The rack in the player's own order: the server sends it sorted, so the letters
// still there keep the places the player gave them and new ones go at the end.
export function arrange(order, rack) {
  const left = [...rack];
  const kept = [];
  for (const letter of order) {
    const i = left.indexOf(letter);
    if (i >= 0) kept.push(left.splice(i, 1)[0]);
  }
  return [...kept, ...left];
}

// Moves the rack tile at `from` to `to`; tiles on the board follow their letters.
export function reorder(state, from, to) {
  const n = state.rack.length;
  if (from === to || from < 0 || to < 0 || from >= n || to >= n) return state;
  const positions = state.rack.map((_, i) => i);
  const [moved] = positions.splice(from, 1);
  positions.splice(to, 0, moved);
  const where = new Map(positions.map((old, now) => [old, now]));
  return {
    ...state,
    rack: positions.map((i) => state.rack[i]),
    placed: state.placed.map((t) => ({ ...t, index: where.get(t.index) })),
  };
}

// The rack in a new random order (`random` as Math.random), never the same order
// when another exists, so a press always visibly does something.
export function shuffle(state, random = Math.random) {
  const n = state.rack.length;
  if (new Set(state.rack).size < 2) return state;
  for (let tries = 0; tries < 20; tries += 1) {
    const positions = state.rack.map((_, i) => i);
    for (let i = n - 1; i > 0; i -= 1) {
      const j = Math.floor(random() * (i + 1));
      [positions[i], positions[j]] = [positions[j], positions[i]];
    }
    const rack = positions.map((i) => state.rack[i]);
    if (rack.join('') === state.rack.join('')) continue;
    const where = new Map(positions.map((old, now) => [old, now]));
    return { ...state, rack, placed: state.placed.map((t) => ({ ...t, index: where.get(t.index) })) };
  }
  return state;
}

// A new board and rack from the server. Tiles placed this turn stay where their
// square is still empty and their letter is still on the rack (a rejected play is
// left for the player to fix); the rest go back. The rack keeps the player's order.
export function sync(state, board, rack) {
  const next = { ...state, board, rack: arrange(state.rack, rack), placed: [] };
  for (const tile of state.placed) {
    if (boardLetter(next, tile.row, tile.col)) continue;
    const keep = rack[tile.index] === tile.letter && !next.placed.some((t) => t.index === tile.index)
      ? tile.index
      : freeIndexOf(next, tile.letter);
    if (keep == null) continue;
    next.placed.push({ ...tile, index: keep });
  }
  return next;
}
