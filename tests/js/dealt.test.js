import assert from "node:assert/strict";
import { test } from "node:test";

import { DEALT_LIMIT, dealtList, rememberDealt } from "../../frontend/js/dealt.js";
import { memoryStorage } from "./memory_storage.js";

test("each size keeps its own list, oldest first, each puzzle once", () => {
  const storage = memoryStorage();
  rememberDealt(storage, "mini", "cw-000000000001");
  rememberDealt(storage, "small", "cw-000000000002");
  rememberDealt(storage, "mini", "cw-000000000003");
  rememberDealt(storage, "mini", "cw-000000000001");
  assert.deepEqual(dealtList(storage, "mini"), ["cw-000000000003", "cw-000000000001"]);
  assert.deepEqual(dealtList(storage, "small"), ["cw-000000000002"]);
  assert.deepEqual(dealtList(storage, "large"), []);
});

test("the list keeps the newest deals up to the limit", () => {
  const storage = memoryStorage();
  for (let n = 0; n < DEALT_LIMIT + 5; n += 1) rememberDealt(storage, "mini", `cw-${String(n).padStart(12, "0")}`);
  const list = dealtList(storage, "mini");
  assert.equal(list.length, DEALT_LIMIT);
  assert.equal(list[0], "cw-000000000005");
  assert.equal(list.at(-1), `cw-${String(DEALT_LIMIT + 4).padStart(12, "0")}`);
});

test("a damaged entry sends nothing a server would refuse", () => {
  const storage = memoryStorage();
  storage.setItem("crossing.dealt.mini", "{not json");
  assert.deepEqual(dealtList(storage, "mini"), []);
  storage.setItem("crossing.dealt.mini", JSON.stringify(["cw-000000000001", 7, "Bad Id", "x".repeat(21)]));
  assert.deepEqual(dealtList(storage, "mini"), ["cw-000000000001"]);
  rememberDealt(storage, "mini", "<script>");
  assert.deepEqual(dealtList(storage, "mini"), ["cw-000000000001"]);
});

test("storage that refuses to write loses the deal, not the game", () => {
  const storage = { getItem: () => null, setItem: () => { throw new Error("QuotaExceededError"); } };
  assert.doesNotThrow(() => rememberDealt(storage, "mini", "cw-000000000001"));
});
