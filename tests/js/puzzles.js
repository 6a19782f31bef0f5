// Puzzle views built from rows, shaped like the server's puzzle view (no answers).
export function puzzleFrom(rows, clues = {}) {
  const height = rows.length;
  const width = rows[0].length;
  const at = (r, c) => (r < 0 || c < 0 || r >= height || c >= width ? '#' : rows[r][c]);
  const blocks = [];
  const numbers = {};
  const across = [];
  const down = [];
  let n = 0;
  for (let r = 0; r < height; r++) {
    for (let c = 0; c < width; c++) {
      const sq = r * width + c;
      if (at(r, c) === '#') { blocks.push(sq); continue; }
      const startsAcross = at(r, c - 1) === '#' && at(r, c + 1) !== '#';
      const startsDown = at(r - 1, c) === '#' && at(r + 1, c) !== '#';
      if (!startsAcross && !startsDown) continue;
      numbers[sq] = ++n;
      if (startsAcross) {
        const squares = [];
        for (let k = c; at(r, k) !== '#'; k++) squares.push(r * width + k);
        across.push({ id: `${n}a`, number: n, squares, clue: clues[`${n}a`] || `Across ${n}` });
      }
      if (startsDown) {
        const squares = [];
        for (let k = r; at(k, c) !== '#'; k++) squares.push(k * width + c);
        down.push({ id: `${n}d`, number: n, squares, clue: clues[`${n}d`] || `Down ${n}` });
      }
    }
  }
  return { id: 'mini-test', title: 'Test Mini', width, height, blocks, numbers, clues: { across, down } };
}

// # # 1 2 3
// 4 5 . . .
// 6 . . . .
// 7 . . . .
// 8 . . # #
export const MINI_ROWS = ['##SIR', 'ASIDE', 'NODES', 'TREAT', 'ITS##'];
export const MINI = puzzleFrom(MINI_ROWS);
export const EMPTY = MINI_ROWS.join('').replace(/[A-Z]/g, '.');
export const SOLVED = MINI_ROWS.join('');
