// The puzzles this phone has dealt as host, per size, kept in the browser (`storage` is
// window.localStorage on the page, a small fake in tests). Start sends the room's size's
// list, so the server deals one this host has not had; a puzzle joins the list only once
// the room shows it, that is once the start that dealt it was written.

export const DEALT_LIMIT = 1000; // protocol.DEALT_LIMIT: the largest pack goes round once
const ID = /^[a-z0-9]+(-[a-z0-9]+)*$/; // protocol.PuzzleId
const key = (size) => `crossing.dealt.${size}`;

export function dealtList(storage, size) {
  try {
    const list = JSON.parse(storage.getItem(key(size)) ?? "[]");
    // A damaged or foreign entry must not make every Start refused: keep what is an id.
    if (!Array.isArray(list)) return [];
    return list.filter((id) => typeof id === "string" && id.length <= 20 && ID.test(id)).slice(-DEALT_LIMIT);
  } catch {
    return [];
  }
}

// Adds `id` as the newest of `size`'s list (once: a second showing moves nothing else).
export function rememberDealt(storage, size, id) {
  if (typeof id !== "string" || !ID.test(id)) return;
  const list = dealtList(storage, size).filter((had) => had !== id);
  list.push(id);
  try {
    storage.setItem(key(size), JSON.stringify(list.slice(-DEALT_LIMIT)));
  } catch {
    // Storage full or turned off: this deal is not remembered, the game goes on.
  }
}
