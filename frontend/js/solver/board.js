// The board as the request sends it: 15 strings of 15 characters.
// '.' is an empty square, 'A'-'Z' a tile, 'a'-'z' a blank standing for that letter.
// Squares here are 0-based; the page and the API name them 1-based.

export const SIZE = 15;
export const EMPTY = ".";

export function emptyBoard() {
  return Array.from({ length: SIZE }, () => EMPTY.repeat(SIZE));
}

export function isEmptyBoard(board) {
  return board.every((row) => /^\.+$/.test(row));
}

export function isValidBoard(board) {
  return (
    Array.isArray(board) &&
    board.length === SIZE &&
    board.every((row) => typeof row === "string" && /^[.A-Za-z]{15}$/.test(row))
  );
}

export function squareAt(board, row, col) {
  return board[row][col];
}

export function isBlankTile(square) {
  return square >= "a" && square <= "z";
}

export function setSquare(board, row, col, square) {
  if (board[row][col] === square) return board;
  const next = board.slice();
  const line = next[row];
  next[row] = line.slice(0, col) + square + line.slice(col + 1);
  return next;
}

export function inside(row, col) {
  return row >= 0 && row < SIZE && col >= 0 && col < SIZE;
}

// The square `steps` along the typing direction, or null off the edge.
export function stepFrom(cursor, direction, steps = 1) {
  const row = cursor.row + (direction === "down" ? steps : 0);
  const col = cursor.col + (direction === "across" ? steps : 0);
  return inside(row, col) ? { row, col } : null;
}

// One typed key as a board square: a letter in either case is a tile; a letter
// typed after '?' (blankArmed) is a blank. Returns null for other keys.
export function typedSquare(key, blankArmed = false) {
  if (!/^[A-Za-z]$/.test(key)) return null;
  return blankArmed ? key.toLowerCase() : key.toUpperCase();
}

// The squares a play covers, in order, with the letter each holds after the play.
export function playSquares(play) {
  const squares = [];
  for (let i = 0; i < play.word.length; i += 1) {
    squares.push({
      row: play.row - 1 + (play.direction === "down" ? i : 0),
      col: play.col - 1 + (play.direction === "across" ? i : 0),
      letter: play.word[i].toUpperCase(),
    });
  }
  return squares;
}

// The tiles a play takes from the rack, from its breakdown (a square is new
// once, however many words it belongs to).
export function newTiles(play) {
  const seen = new Map();
  for (const word of play.breakdown?.words ?? []) {
    for (const square of word.squares) {
      if (!square.new) continue;
      seen.set(`${square.row},${square.col}`, {
        row: square.row - 1,
        col: square.col - 1,
        letter: square.letter.toUpperCase(),
        blank: Boolean(square.blank),
      });
    }
  }
  return [...seen.values()];
}

// The tiles a play puts down, read off the board: the squares of its line that
// are empty now. A lower-case letter in the word is a blank.
export function tilesOnEmpty(board, play) {
  return playSquares(play)
    .map((square, i) => ({ ...square, blank: isBlankTile(play.word[i]) }))
    .filter((square) => inside(square.row, square.col) && board[square.row][square.col] === EMPTY);
}

export function countBlanks(board) {
  return board.reduce((n, row) => n + (row.match(/[a-z]/g)?.length ?? 0), 0);
}

export function placePlay(board, play) {
  let next = board;
  for (const tile of newTiles(play)) {
    next = setSquare(next, tile.row, tile.col, tile.blank ? tile.letter.toLowerCase() : tile.letter);
  }
  return next;
}
