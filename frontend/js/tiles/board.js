// The tile board, drawn for every tile page (the Duel, watching a Duel, the Solver
// and its board-layout reference): premium squares, tiles and their values, all from
// the rule set the server sends (`rules` in a Duel view, an entry of GET /api/rules:
// `layout`, 15 strings of `.dtDT*`, `tiles`, [{letter, value, count}], and
// `star_multiplies`). The page keeps no copy of any. Only the labels are ours, one
// scheme for every page.
//
// A page says what each square holds with `look(row, col)`:
//   {tile: {letter, blank?} | null, marks: ['sq-new', 'sq-preview', ...], label?: extra words}
// and where its typing cursor is (`{row, col, direction}`, or none); `paintBoard`
// draws both, touching only the squares that changed.

export const SIZE = 15;
const CENTRE = 7 * SIZE + 7;

export const PREMIUMS = Object.freeze({
  d: { className: 'sq-dl', label: 'DL', name: 'double letter' },
  t: { className: 'sq-tl', label: 'TL', name: 'triple letter' },
  D: { className: 'sq-dw', label: 'DW', name: 'double word' },
  T: { className: 'sq-tw', label: 'TW', name: 'triple word' },
  '*': { className: 'sq-star', label: '★', name: 'centre star' },
});

export const premiumAt = (rules, row, col) => PREMIUMS[rules?.layout?.[row]?.[col]] ?? null;

// Letter -> points; a blank (lower case) is worth nothing. Kept per rule set object,
// since a board asks for every square.
const valueTables = new WeakMap();
export function valuesOf(rules) {
  if (!rules) return {};
  if (!valueTables.has(rules)) valueTables.set(rules, Object.fromEntries((rules.tiles ?? []).map((t) => [t.letter, t.value])));
  return valueTables.get(rules);
}

export function valueOf(rules, letter) {
  const ch = String(letter ?? '');
  if (!ch || ch !== ch.toUpperCase()) return 0;
  return valuesOf(rules)[ch] ?? 0;
}

// Letter -> how many the bag starts with.
export const countsOf = (rules) => Object.fromEntries((rules?.tiles ?? []).map((t) => [t.letter, t.count]));

// `square` is the tag of each square: 'button' where squares are tapped, else 'span'.
export function mountBoard(el, { square = 'button' } = {}) {
  const doc = el.ownerDocument;
  const cells = [];
  for (let row = 0; row < SIZE; row += 1) {
    for (let col = 0; col < SIZE; col += 1) {
      const cell = doc.createElement(square);
      if (square === 'button') cell.type = 'button';
      else cell.setAttribute('role', 'img'); // a picture of the square: its label is its name
      cell.className = 'sq';
      cell.dataset.row = String(row);
      cell.dataset.col = String(col);
      cells.push(cell);
    }
  }
  el.replaceChildren(...cells);
}

// The star doubles the opening word in some rule sets only (not Crossplay's).
const premiumName = (rules, premium) =>
  premium.className === 'sq-star' && rules?.star_multiplies ? `${premium.name}, double word` : premium.name;

const spokenLabel = (premium) => (/^[A-Z]+$/.test(premium.label) ? `${premium.label}, ` : '');

// What one square shows, as data: its classes, its text parts and its spoken label.
// `cursor` is the typing direction when the page's cursor is on this square.
export function squareLook(rules, row, col, seen, cursor = null) {
  const tile = seen?.tile ?? null;
  const premium = premiumAt(rules, row, col);
  const classes = ['sq'];
  if (tile) {
    classes.push('sq-tile');
    if (tile.blank) classes.push('sq-blank');
  } else if (premium) classes.push(premium.className);
  classes.push(...(seen?.marks ?? []));
  const words = seen?.label ? [seen.label] : [];
  if (cursor) {
    classes.push('sq-cursor', `sq-cursor-${cursor}`);
    words.push(`typing ${cursor}`);
  }
  const where = `row ${row + 1}, column ${col + 1}`;
  const extra = words.map((w) => `, ${w}`).join('');
  if (tile) {
    const letter = String(tile.letter).toUpperCase();
    // A blank shows no value, as a real blank tile has none (its letter's colour and
    // slant say what it is); the reader knows a blank by that missing value.
    const value = tile.blank ? null : String(valueOf(rules, letter));
    const what = tile.blank ? `${letter}, a blank` : letter;
    return { className: classes.join(' '), letter, value, text: null, aria: `${where}, ${what}${extra}` };
  }
  return {
    className: classes.join(' '),
    letter: null,
    value: null,
    text: premium ? premium.label : '',
    // The spoken name holds the letters shown (DL, TW...), so a voice user can say them.
    aria: premium ? `${where}, ${spokenLabel(premium)}${premiumName(rules, premium)}${extra}` : `${where}${extra}`,
  };
}

// Draws every square from `look`, and the cursor (its arrow, `aria-current`); a
// square whose look has not changed is not touched (a focused square keeps its focus,
// a screen reader is not told twice). On a board of buttons one square is in the tab
// order, the cursor's, else the centre; the page's arrow keys move within.
export function paintBoard(el, rules, look, { cursor = null } = {}) {
  const doc = el.ownerDocument;
  const cells = el.children;
  const home = cursor ? cursor.row * SIZE + cursor.col : CENTRE;
  const roving = cells[0]?.tagName === 'BUTTON';
  for (let row = 0; row < SIZE; row += 1) {
    for (let col = 0; col < SIZE; col += 1) {
      const i = row * SIZE + col;
      const cell = cells[i];
      if (roving) {
        const tabIndex = i === home ? '0' : '-1';
        if (cell.getAttribute('tabindex') !== tabIndex) cell.setAttribute('tabindex', tabIndex);
      }
      const here = cursor && i === home;
      const seen = look(row, col);
      const shown = squareLook(rules, row, col, seen, here ? cursor.direction : null);
      const key = `${shown.className}|${shown.letter ?? ''}|${shown.value ?? ''}|${shown.text ?? ''}|${shown.aria}`;
      if (cell.dataset.key === key) continue;
      cell.dataset.key = key;
      cell.className = shown.className;
      if (shown.letter != null) {
        const letter = doc.createElement('span');
        letter.className = 'sq-letter';
        letter.textContent = shown.letter;
        cell.replaceChildren(letter);
        if (shown.value != null) {
          const value = doc.createElement('span');
          value.className = 'sq-value';
          value.textContent = shown.value;
          cell.append(value);
        }
      } else {
        cell.textContent = shown.text;
      }
      cell.setAttribute('aria-label', shown.aria);
      if (roving) cell.setAttribute('aria-current', here ? 'true' : 'false');
    }
  }
}

// A board's letters as rows of '.'/letters -> the look of a plain, tiles-only board.
export const tilesOf = (rows) => (row, col) => {
  const ch = rows?.[row]?.[col];
  return ch && ch !== '.' ? { tile: { letter: ch, blank: ch !== ch.toUpperCase() } } : null;
};
