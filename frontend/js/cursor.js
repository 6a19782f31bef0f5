// Where the cursor goes: a pure module over the puzzle's slots and the board string
// ('#' block, '.' empty, a letter otherwise). A cursor is {square, dir}, dir being
// 'across' or 'down'; the highlighted word is the slot of that direction through it.

export const DIRECTIONS = ['across', 'down'];
const other = (dir) => (dir === 'across' ? 'down' : 'across');
const isEmpty = (board, square) => !board[square] || board[square] === '.';

// Slots in clue-list order: every across clue, then every down clue.
export function slotsOf(puzzle) {
  return DIRECTIONS.flatMap((dir) => (puzzle.clues[dir] || []).map((s) => ({ ...s, dir })));
}

export function slotAt(puzzle, square, dir) {
  return (puzzle.clues[dir] || []).find((s) => s.squares.includes(square)) || null;
}

export const isWhite = (puzzle, square) =>
  square >= 0 && square < puzzle.width * puzzle.height && !puzzle.blocks.includes(square);

// A direction the square really has a slot in, preferring the one asked for.
function settle(puzzle, square, dir) {
  if (slotAt(puzzle, square, dir)) return { square, dir };
  if (slotAt(puzzle, square, other(dir))) return { square, dir: other(dir) };
  return { square, dir };
}

export function firstCursor(puzzle, board = '') {
  const slots = slotsOf(puzzle);
  const gap = slots.find((s) => s.squares.some((q) => isEmpty(board, q))) || slots[0];
  if (!gap) return { square: 0, dir: 'across' };
  return { square: gap.squares.find((q) => isEmpty(board, q)) ?? gap.squares[0], dir: gap.dir };
}

// A tap on the cursor's own square turns; elsewhere it moves and keeps the direction.
export function tap(puzzle, cursor, square) {
  if (!isWhite(puzzle, square)) return cursor;
  if (cursor && cursor.square === square) return turn(puzzle, cursor);
  return settle(puzzle, square, cursor ? cursor.dir : 'across');
}

export function turn(puzzle, cursor) {
  if (!slotAt(puzzle, cursor.square, other(cursor.dir))) return cursor;
  return { square: cursor.square, dir: other(cursor.dir) };
}

// After a letter lands on the cursor's square (board already holds it): the next empty
// square of the word after this one, wrapping within the word; from a full word, the
// next word that still has a gap; with no gap anywhere, simply the next square.
export function afterLetter(puzzle, board, cursor) {
  const slot = slotAt(puzzle, cursor.square, cursor.dir);
  if (!slot) return cursor;
  const at = slot.squares.indexOf(cursor.square);
  const ordered = [...slot.squares.slice(at + 1), ...slot.squares.slice(0, at)];
  const empty = ordered.find((q) => isEmpty(board, q));
  if (empty !== undefined) return { square: empty, dir: cursor.dir };
  const gap = nextSlotWithGap(puzzle, board, slot, cursor.dir);
  if (gap) return { square: gap.squares.find((q) => isEmpty(board, q)), dir: gap.dir };
  const next = slot.squares[at + 1];
  return next === undefined ? cursor : { square: next, dir: cursor.dir };
}

function nextSlotWithGap(puzzle, board, slot, dir) {
  const slots = slotsOf(puzzle);
  const i = slots.findIndex((s) => s.id === slot.id && s.dir === dir);
  for (let k = 1; k < slots.length; k++) {
    const s = slots[(i + k) % slots.length];
    if (s.squares.some((q) => isEmpty(board, q))) return s;
  }
  return null;
}

// Delete: clear the cursor's square if it holds a letter; if it is empty, step back
// to the square before it in the word (or the last square of the word before) and
// clear that. Returns {clear: square or null, cursor}.
export function deleteAt(puzzle, board, cursor) {
  if (!isEmpty(board, cursor.square)) return { clear: cursor.square, cursor };
  const slot = slotAt(puzzle, cursor.square, cursor.dir);
  if (!slot) return { clear: null, cursor };
  const at = slot.squares.indexOf(cursor.square);
  let back;
  if (at > 0) back = { square: slot.squares[at - 1], dir: cursor.dir };
  else {
    const slots = slotsOf(puzzle);
    const i = slots.findIndex((s) => s.id === slot.id && s.dir === cursor.dir);
    if (i <= 0) return { clear: null, cursor };
    const prev = slots[i - 1];
    back = { square: prev.squares[prev.squares.length - 1], dir: prev.dir };
  }
  return { clear: isEmpty(board, back.square) ? null : back.square, cursor: back };
}

// Next (step 1) or previous (step -1) clue in list order, wrapping; the cursor lands on
// the first empty square of that word, or its first square when it is full.
export function stepClue(puzzle, board, cursor, step) {
  const slots = slotsOf(puzzle);
  if (!slots.length) return cursor;
  const slot = slotAt(puzzle, cursor.square, cursor.dir);
  const i = slot ? slots.findIndex((s) => s.id === slot.id && s.dir === cursor.dir) : -1;
  const target = slots[(i + step + slots.length) % slots.length];
  return toSlot(board, target);
}

export function toSlot(board, slot) {
  const empty = slot.squares.find((q) => isEmpty(board, q));
  return { square: empty ?? slot.squares[0], dir: slot.dir };
}

export function goToClue(puzzle, board, id) {
  const slot = slotsOf(puzzle).find((s) => s.id === id);
  return slot ? toSlot(board, slot) : null;
}

// Arrow keys: an arrow across the current direction first turns to its axis; along it,
// the cursor moves to the next white square that way, hopping over blocks.
export function arrow(puzzle, cursor, dx, dy) {
  const axis = dx !== 0 ? 'across' : 'down';
  if (axis !== cursor.dir && slotAt(puzzle, cursor.square, axis)) {
    return { square: cursor.square, dir: axis };
  }
  const { width, height } = puzzle;
  let row = Math.floor(cursor.square / width);
  let col = cursor.square % width;
  for (;;) {
    row += dy;
    col += dx;
    if (row < 0 || col < 0 || row >= height || col >= width) return cursor;
    const square = row * width + col;
    if (isWhite(puzzle, square)) return settle(puzzle, square, cursor.dir);
  }
}

// The squares of the highlighted word.
export function wordOf(puzzle, cursor) {
  const slot = cursor && slotAt(puzzle, cursor.square, cursor.dir);
  return slot ? slot.squares : [];
}

export function clueOf(puzzle, cursor) {
  const slot = cursor && slotAt(puzzle, cursor.square, cursor.dir);
  return slot ? { ...slot, dir: cursor.dir } : null;
}
