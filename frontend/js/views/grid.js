// The crossword grid, shared by the game, the results and the watch page. Built once
// per puzzle, then updated square by square. Squares are buttons only where a tap
// means something (the player's own game); `readable` makes a grid a table a screen
// reader walks square by square (the results), where otherwise it is one picture.
import { text } from './dom.js';

export function buildGrid(el, puzzle, { tappable = false, readable = false } = {}) {
  const key = `${puzzle.id}:${tappable}:${readable}`;
  if (el.dataset.puzzle === key) return;
  el.dataset.puzzle = key;
  el.style.setProperty('--cols', puzzle.width);
  el.style.setProperty('--rows', puzzle.height);
  const blocks = new Set(puzzle.blocks);
  const rows = [];
  // The player's own grid is an ARIA grid: rows of cells, one of them in the tab order
  // (the cursor's), arrows moving it. Rows are `display: contents`, so the squares stay
  // one CSS grid.
  for (let r = 0; r < puzzle.height; r++) {
    const row = document.createElement('div');
    row.className = 'grid-row';
    if (tappable || readable) row.setAttribute('role', 'row');
    for (let c = 0; c < puzzle.width; c++) {
      const sq = r * puzzle.width + c;
      const cell = document.createElement('div');
      if (blocks.has(sq)) {
        cell.className = 'sq block';
        if (tappable || readable) {
          cell.setAttribute('role', tappable ? 'gridcell' : 'cell');
          cell.setAttribute('aria-label', 'black square');
        } else cell.setAttribute('aria-hidden', 'true');
      } else {
        cell.className = 'sq';
        cell.dataset.square = sq;
        if (tappable) {
          cell.setAttribute('role', 'gridcell');
          cell.tabIndex = -1;
        } else if (readable) cell.setAttribute('role', 'cell');
        const number = puzzle.numbers[sq];
        if (number) {
          const n = document.createElement('span');
          n.className = 'num';
          n.textContent = number;
          n.setAttribute('aria-hidden', 'true');
          cell.append(n);
        }
        const letter = document.createElement('span');
        letter.className = 'letter';
        letter.setAttribute('aria-hidden', 'true');
        cell.append(letter);
        const answer = document.createElement('span');
        answer.className = 'answer';
        answer.setAttribute('aria-hidden', 'true');
        cell.append(answer);
        if (tappable || readable) {
          // The cell's name comes from this text (number, clue, letter), read in place
          // of the shown number and letter, which are hidden from screen readers.
          const say = document.createElement('span');
          say.className = 'say sr-only';
          cell.append(say);
        }
      }
      row.append(cell);
    }
    rows.push(row);
  }
  el.replaceChildren(...rows);
}

// look: {board, cursor, word:Set, tint(sq)->color|null, fill(sq)->color|null,
//        misses: Map sq->answer, lit: Set, hideLetters, label(sq, letter)->string}
// label is what a screen reader hears for a square of a tappable or readable grid.
export function paintGrid(el, puzzle, look) {
  const width = puzzle.width;
  for (const cell of el.querySelectorAll('[data-square]')) {
    const sq = Number(cell.dataset.square);
    const ch = look.board ? look.board[sq] : '.';
    const letter = !look.hideLetters && ch && ch !== '.' && ch !== '#' ? ch : '';
    text(cell.querySelector('.letter'), letter);
    const miss = look.misses?.get(sq);
    text(cell.querySelector('.answer'), miss ?? '');
    cell.classList.toggle('miss', miss != null);
    const here = look.cursor?.square === sq;
    cell.classList.toggle('cursor', here);
    if (here) cell.setAttribute('aria-current', 'true');
    else cell.removeAttribute('aria-current');
    cell.classList.toggle('word', !!look.word?.has(sq));
    cell.classList.toggle('lit', !!look.lit?.has(sq));
    cell.classList.toggle('dim', !!look.lit && look.lit.size > 0 && !look.lit.has(sq));
    const tint = look.tint?.(sq) ?? null;
    cell.style.setProperty('--tint', tint ?? 'transparent');
    const fill = look.fill?.(sq) ?? null;
    cell.style.setProperty('--fill', fill ?? 'transparent');
    cell.classList.toggle('filled', !!fill);
    const say = cell.querySelector('.say');
    if (say) text(say, look.label?.(sq, letter) ?? `${whereIs(sq, width)}: ${letter || 'empty'}`);
    if (cell.getAttribute('role') === 'gridcell') {
      cell.setAttribute('aria-selected', String(!!look.word?.has(sq)));
      cell.tabIndex = here ? 0 : -1; // the one tab stop: the cursor's square
    }
  }
}

export const whereIs = (sq, width) => `Row ${Math.floor(sq / width) + 1}, column ${(sq % width) + 1}`;

// A racer's board as squares only (never letters): the TV's boards, the phone's top row.
export function paintProgress(el, puzzle, progress, color) {
  buildGrid(el, puzzle);
  const filled = new Set(progress.filled);
  paintGrid(el, puzzle, { board: null, hideLetters: true, fill: (sq) => (filled.has(sq) ? color : null) });
}
