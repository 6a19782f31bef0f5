import assert from "node:assert/strict";
import { test } from "node:test";

import { emptyBoard, setSquare } from "../../frontend/js/solver/board.js";
import { blanksOver, unseenTiles } from "../../frontend/js/solver/rack.js";
import { PAGE_SIZE, listed, pageSlice, playsFromRows } from "../../frontend/js/solver/results.js";
import { ACTIONS, chosenPlay, initialState, reduce } from "../../frontend/js/solver/state.js";

const FIELDS = ["word", "row", "col", "direction", "score", "tiles_used", "variants"];
const answer = {
  fields: FIELDS,
  count: 5,
  plays: [
    ["ZAX", 8, 7, "across", 40, 3, []],
    ["TeE", 8, 6, "across", 12, 3, [["tEE", 11], ["TEe", 10]]],
    ["AXE", 7, 8, "down", 20, 3, []],
  ],
};

test("engine rows become plays, each blank choice a variant of its row", () => {
  const plays = playsFromRows(answer);
  assert.equal(plays.length, 3);
  assert.deepEqual(plays[1].variants.map((v) => [v.word, v.score, v.row, v.col]), [
    ["tEE", 11, 8, 6],
    ["TEe", 10, 8, 6],
  ]);
});

test("sorting and finding keep indices into the list", () => {
  const plays = playsFromRows(answer);
  assert.deepEqual(listed(plays), [0, 2, 1]);
  assert.deepEqual(listed(plays, { sort: "word" }), [2, 1, 0]);
  assert.deepEqual(listed(plays, { sort: "position" }), [2, 1, 0]);
  assert.deepEqual(listed(plays, { filter: "ax" }), [0, 2]);
  assert.deepEqual(listed(plays, { filter: "e e" }), [1]);
});

test("pages hold PAGE_SIZE plays and stay in range", () => {
  const indices = Array.from({ length: 120 }, (_, i) => i);
  assert.equal(pageSlice(indices, 0).indices.length, PAGE_SIZE);
  assert.deepEqual(pageSlice(indices, 9).indices, indices.slice(100));
  assert.equal(pageSlice([], 3).page, 0);
});

test("a chosen variant is the play shown and placed", () => {
  const state = [
    { type: ACTIONS.SOLVE_SUCCEEDED, plays: playsFromRows(answer), count: 5 },
    { type: ACTIONS.PLAY_CHOSEN, index: 1, variant: 0 },
  ].reduce(reduce, initialState());
  assert.equal(chosenPlay(state).word, "tEE");
  const stale = reduce(state, { type: ACTIONS.BREAKDOWN_LOADED, index: 1, variant: null, play: {} });
  assert.equal(stale.breakdown, null);
});

test("unseen tiles are the bag minus the board and the rack", () => {
  const tiles = [
    { letter: "A", count: 9 },
    { letter: "Q", count: 1 },
  ];
  const board = setSquare(setSquare(emptyBoard(), 7, 7, "Q"), 7, 8, "a");
  const { letters, blanks } = unseenTiles(tiles, 3, board, "A?");
  assert.deepEqual(letters, [
    { letter: "A", count: 8 },
    { letter: "Q", count: 0 },
  ]);
  assert.equal(blanks, 1);
});

test("a ? beyond the blanks left is counted", () => {
  assert.equal(blanksOver("AB????", 3), 1);
  assert.equal(blanksOver("AB??", 3), 0);
  assert.equal(blanksOver("?", 0), 1);
});
