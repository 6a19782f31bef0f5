// Named boards kept in the browser. `storage` is anything with getItem/setItem
// (window.localStorage on the page, a small fake in tests).

export const STORAGE_KEY = "crossing.solver.boards";

export function savedBoards(storage) {
  try {
    const value = JSON.parse(storage.getItem(STORAGE_KEY) ?? "{}");
    return value && typeof value === "object" && !Array.isArray(value) ? value : {};
  } catch {
    // A damaged entry should not stop the page; it is replaced on the next save.
    return {};
  }
}

export function savedNames(storage) {
  return Object.keys(savedBoards(storage)).sort((a, b) => a.localeCompare(b));
}

export function saveBoard(storage, name, entry) {
  const trimmed = name.trim();
  if (!trimmed) throw new Error("Give the board a name to save it.");
  const boards = savedBoards(storage);
  boards[trimmed] = entry;
  storage.setItem(STORAGE_KEY, JSON.stringify(boards));
  return trimmed;
}

export function loadBoard(storage, name) {
  return savedBoards(storage)[name] ?? null;
}

export function deleteBoard(storage, name) {
  const boards = savedBoards(storage);
  delete boards[name];
  storage.setItem(STORAGE_KEY, JSON.stringify(boards));
}
