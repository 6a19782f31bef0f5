// What each Solver square shows, for the board component (js/tiles/board.js): the
// tiles typed or placed, and the chosen play laid over them in yellow (every square
// of its word; the ones it fills are its new tiles, a blank among them marked).

import { EMPTY, isBlankTile, playSquares, tilesOnEmpty } from "./board.js";
import { chosenPlay } from "./state.js";

const key = (row, col) => `${row},${col}`;

export function boardLook(state) {
  const play = chosenPlay(state);
  const preview = new Set();
  const fresh = new Map();
  if (play) {
    for (const square of playSquares(play)) preview.add(key(square.row, square.col));
    for (const tile of tilesOnEmpty(state.board, play)) fresh.set(key(tile.row, tile.col), tile);
  }
  return (row, col) => {
    const here = key(row, col);
    const placed = state.board[row][col];
    const tile = placed !== EMPTY
      ? { letter: placed, blank: isBlankTile(placed) }
      : fresh.has(here)
        ? { letter: fresh.get(here).letter, blank: fresh.get(here).blank }
        : null;
    if (!preview.has(here)) return { tile };
    const isNew = placed === EMPTY && fresh.has(here);
    return {
      tile,
      marks: isNew ? ["sq-preview", "sq-new"] : ["sq-preview"],
      label: isNew ? "new in the chosen play" : "in the chosen play",
    };
  };
}

// The typing cursor as the component takes it.
export function boardCursor(state) {
  return state.cursor ? { ...state.cursor, direction: state.direction } : null;
}
