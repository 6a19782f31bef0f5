// Small DOM helpers the views share. Everything from the server goes in as
// textContent or attributes, never as HTML.

export function clone(id) {
  return document.getElementById(id).content.firstElementChild.cloneNode(true);
}

export const one = (root, selector) => root.querySelector(selector);

export function text(el, value) {
  const s = value == null ? '' : String(value);
  if (el && el.textContent !== s) el.textContent = s;
}

export function show(el, visible) {
  if (el) el.hidden = !visible;
}

// One listener per list: the child that matched carries its id in data-*.
export function delegate(root, type, selector, handler) {
  root.addEventListener(type, (e) => {
    const hit = e.target.closest(selector);
    if (hit && root.contains(hit)) handler(hit, e);
  });
}

// Rebuild a list only when its keys change; otherwise update each item in place, so
// focus stays on a button the player is using.
export function keyedList(list, items, key, make, update) {
  const keys = items.map(key).join('|');
  if (list.dataset.keys !== keys) {
    list.replaceChildren(...items.map((item) => make(item)));
    list.dataset.keys = keys;
  }
  items.forEach((item, i) => update(list.children[i], item));
}

export const nameOf = (view, player) =>
  view?.members?.find((m) => m.player === player)?.name ?? 'A player who left';

export const colorOf = (view, player) =>
  view?.members?.find((m) => m.player === player)?.color ?? '#888888';
