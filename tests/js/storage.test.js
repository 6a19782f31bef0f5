import assert from "node:assert/strict";
import { test } from "node:test";

import {
  STORAGE_KEY,
  deleteBoard,
  loadBoard,
  saveBoard,
  savedNames,
} from "../../frontend/js/solver/storage.js";
import { memoryStorage } from "./memory_storage.js";

test("a saved board loads back under its name", () => {
  const storage = memoryStorage();
  saveBoard(storage, "  Game with Sam ", { board: ["..."], rules: "crossplay", rack: "AB" });
  assert.deepEqual(savedNames(storage), ["Game with Sam"]);
  assert.deepEqual(loadBoard(storage, "Game with Sam").rack, "AB");
  assert.equal(loadBoard(storage, "Nobody"), null);
});

test("a board needs a name", () => {
  assert.throws(() => saveBoard(memoryStorage(), "   ", {}), /name/);
});

test("deleting forgets the board; damaged storage reads as empty", () => {
  const storage = memoryStorage();
  saveBoard(storage, "b", {});
  saveBoard(storage, "a", {});
  assert.deepEqual(savedNames(storage), ["a", "b"]);
  deleteBoard(storage, "a");
  assert.deepEqual(savedNames(storage), ["b"]);
  storage.setItem(STORAGE_KEY, "{not json");
  assert.deepEqual(savedNames(storage), []);
});
