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

export const LETTER_VALUES = Object.freeze({
  A: 1, B: 3, C: 3, D: 2, E: 1, F: 4, G: 2, H: 4, I: 1, J: 8, K: 5, L: 1, M: 3,
  N: 1, O: 1, P: 3, Q: 10, R: 1, S: 1, T: 1, U: 1, V: 4, W: 4, X: 8, Y: 4, Z: 10,
});

export const valueOf = (letter) => LETTER_VALUES[String(letter).toUpperCase()] ?? 0;

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

// A new board and rack from the server. Tiles placed this turn stay where their
// square is still empty and their letter is still on the rack (a rejected play is
// left for the player to fix); the rest go back.
export function sync(state, board, rack) {
  const next = { ...state, board, rack: [...rack], placed: [] };
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
