// Looking back through a finished Duel, move by move: the buttons (the TV page's and the
// Duel page's) and where each press goes. The buttons draw their own icons (inline SVG,
// coloured by the button's text colour): ⏮ and ⏭ are in few fonts, and where no
// installed font has them a browser draws an empty box.

const SVG = 'http://www.w3.org/2000/svg';

// 24×24 paths: a bar and a triangle, or a triangle alone.
const ICONS = {
  start: 'M5 5h2.5v14H5zM19 5v14L8.5 12z',
  back: 'M17 5v14L6 12z',
  on: 'M7 5v14l11-7z',
  end: 'M5 5v14l10.5-7zM16.5 5H19v14h-2.5z',
};

export const LABELS = { start: 'The start', back: 'One move back', on: 'One move on', end: 'The end' };

export function icon(doc, name) {
  const svg = doc.createElementNS(SVG, 'svg');
  svg.setAttribute('viewBox', '0 0 24 24');
  svg.setAttribute('width', '1.2em');
  svg.setAttribute('height', '1.2em');
  svg.setAttribute('aria-hidden', 'true');
  svg.setAttribute('focusable', 'false');
  svg.setAttribute('class', 'icon-svg');
  const path = doc.createElementNS(SVG, 'path');
  path.setAttribute('d', ICONS[name]);
  path.setAttribute('fill', 'currentColor');
  svg.append(path);
  return svg;
}

// The group: ⏮ ◀ "n / total" ▶ ⏭, each button named for a screen reader.
export function mountReplay(doc, className) {
  const group = doc.createElement('div');
  group.className = className;
  group.dataset.slot = 'replay';
  group.setAttribute('role', 'group');
  group.setAttribute('aria-label', 'Look back through the game');
  const button = (go) => {
    const b = doc.createElement('button');
    b.type = 'button';
    b.dataset.go = go;
    b.setAttribute('aria-label', LABELS[go]);
    b.append(icon(doc, go));
    return b;
  };
  const step = doc.createElement('span');
  step.className = 'replay-step';
  step.dataset.slot = 'step';
  step.setAttribute('aria-live', 'polite');
  group.append(button('start'), button('back'), step, button('on'), button('end'));
  return group;
}

// Where a press goes: `at` is the number of moves looked back to (null: the end).
export function lookTo(at, total, go) {
  const now = at ?? total;
  const to = { start: 0, back: now - 1, on: now + 1, end: total }[go];
  if (to == null) return at;
  const n = Math.max(0, Math.min(total, to));
  return n >= total ? null : n;
}

// The buttons for position `n` of `total`; hidden unless the game is over.
export function paintReplay(group, over, n, total) {
  group.hidden = !over;
  group.querySelector('[data-slot=step]').textContent = over ? `${n} / ${total}` : '';
  group.querySelector('[data-go=start]').disabled = n === 0;
  group.querySelector('[data-go=back]').disabled = n === 0;
  group.querySelector('[data-go=on]').disabled = n >= total;
  group.querySelector('[data-go=end]').disabled = n >= total;
}
