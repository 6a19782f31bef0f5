// The crossword grid, shared by the game, the results and the watch page. Built once
// per puzzle, then updated square by square. Squares are buttons only where a tap
// means something (the player's own game).
import { text } from './dom.js';

export function buildGrid(el, puzzle, { tappable = false } = {}) {
  const key = `${puzzle.id}:${tappable}`;
  if (el.dataset.puzzle === key) return;
  el.dataset.puzzle = key;
  el.style.setProperty('--cols', puzzle.width);
  el.style.setProperty('--rows', puzzle.height);
  const blocks = new Set(puzzle.blocks);
  const cells = [];
  for (let sq = 0; sq < puzzle.width * puzzle.height; sq++) {
    let cell;
    if (blocks.has(sq)) {
      cell = document.createElement('div');
      cell.className = 'sq block';
      cell.setAttribute('aria-hidden', 'true');
    } else {
      cell = document.createElement(tappable ? 'button' : 'div');
      if (tappable) cell.type = 'button';
      cell.className = 'sq';
      cell.dataset.square = sq;
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
      cell.append(letter);
      const answer = document.createElement('span');
      answer.className = 'answer';
      cell.append(answer);
    }
    cells.push(cell);
  }
  el.replaceChildren(...cells);
}

// look: {board, cursor, word:Set, tint(sq)->color|null, fill(sq)->color|null,
//        misses: Map sq->answer, lit: Set, hideLetters}
export function paintGrid(el, puzzle, look) {
  const width = puzzle.width;
  for (const cell of el.children) {
    if (!cell.dataset.square) continue;
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
    if (cell.tagName === 'BUTTON') {
      const row = Math.floor(sq / width) + 1;
      const col = (sq % width) + 1;
      const label = `Row ${row}, column ${col}: ${letter || 'empty'}${miss ? `, should be ${miss}` : ''}`;
      if (cell.getAttribute('aria-label') !== label) cell.setAttribute('aria-label', label);
    }
  }
}

// A racer's board as squares only (never letters): the TV's boards, the phone's top row.
export function paintProgress(el, puzzle, progress, color) {
  buildGrid(el, puzzle);
  const filled = new Set(progress.filled);
  paintGrid(el, puzzle, { board: null, hideLetters: true, fill: (sq) => (filled.has(sq) ? color : null) });
}
