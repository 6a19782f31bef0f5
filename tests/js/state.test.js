import assert from "node:assert/strict";
import { test } from "node:test";

import { ACTIONS, hintDone, initialState, reduce, solveRequest } from "../../frontend/js/solver/state.js";
import { quixote, quizWithBlank } from "./plays.js";

const crossplay = { name: "crossplay", title: "Crossplay", rack_size: 7, blanks: 3 };
const duel = { name: "duel", title: "Duel", rack_size: 7, blanks: 0 };

function run(actions, state = initialState()) {
  return actions.reduce(reduce, state);
}

test("the reducer never changes the state it is given", () => {
  const before = Object.freeze(initialState());
  const after = reduce(before, { type: ACTIONS.RACK_TYPED, text: "abc" });
  assert.equal(before.rack, "");
  assert.equal(after.rack, "ABC");
});

test("typing on the board follows the direction and marks blanks", () => {
  const state = run([
    { type: ACTIONS.SQUARE_CHOSEN, row: 7, col: 7 },
    { type: ACTIONS.DIRECTION_CHOSEN, direction: "down" },
    { type: ACTIONS.KEY_TYPED, key: "O" },
    { type: ACTIONS.KEY_TYPED, key: "?" },
    { type: ACTIONS.KEY_TYPED, key: "X" },
    { type: ACTIONS.KEY_TYPED, key: "e" },
  ]);
  assert.equal(state.board[7][7], "O");
  assert.equal(state.board[8][7], "x");
  // Lower case is the same letter as upper case: a tile, not a blank.
  assert.equal(state.board[9][7], "E");
  assert.deepEqual(state.cursor, { row: 10, col: 7 });
});

test("a second click on the chosen square keeps the chosen direction", () => {
  const state = run([
    { type: ACTIONS.DIRECTION_CHOSEN, direction: "down" },
    { type: ACTIONS.SQUARE_CHOSEN, row: 0, col: 0 },
    { type: ACTIONS.SQUARE_CHOSEN, row: 0, col: 0 },
  ]);
  assert.equal(state.direction, "down");
});

test("backspace on an empty square clears the one before it", () => {
  const state = run([
    { type: ACTIONS.SQUARE_CHOSEN, row: 7, col: 7 },
    { type: ACTIONS.KEY_TYPED, key: "A" },
    { type: ACTIONS.KEY_TYPED, key: "T" },
    { type: ACTIONS.ERASED },
  ]);
  assert.equal(state.board[7].slice(7, 9), "A.");
  assert.deepEqual(state.cursor, { row: 7, col: 8 });
});

test("a found play is chosen, placed, and its tiles leave the rack", () => {
  const state = run([
    { type: ACTIONS.RACK_TYPED, text: "QUIXOTE" },
    { type: ACTIONS.SOLVE_STARTED },
    { type: ACTIONS.SOLVE_SUCCEEDED, plays: [quixote] },
    { type: ACTIONS.PLAY_CHOSEN, index: 0 },
    { type: ACTIONS.PLAY_PLACED },
  ]);
  assert.equal(state.board[7], ".....QUIXOTE...");
  assert.equal(state.rack, "");
  assert.deepEqual(state.plays, []);
  assert.match(state.notice, /QUIXOTE for 110/);
});

test("a blank in a play spends the rack's ?", () => {
  const state = run([
    { type: ACTIONS.RACK_TYPED, text: "QI?ZA" },
    { type: ACTIONS.SOLVE_SUCCEEDED, plays: [quizWithBlank] },
    { type: ACTIONS.PLAY_CHOSEN, index: 0 },
    { type: ACTIONS.PLAY_PLACED },
  ]);
  assert.equal(state.rack, "A");
  assert.equal(state.board[7].slice(7, 11), "QuIZ");
});

test("changing the board or the rack drops the old answers", () => {
  const solved = run([{ type: ACTIONS.SOLVE_SUCCEEDED, plays: [quixote] }]);
  assert.deepEqual(reduce(solved, { type: ACTIONS.RACK_TYPED, text: "A" }).plays, []);
  assert.deepEqual(reduce(solved, { type: ACTIONS.BOARD_CLEARED }).plays, []);
  assert.deepEqual(reduce(solved, { type: ACTIONS.BONUS_SET, bonus: false }).plays, []);
});

test("a failed search keeps the server's message", () => {
  const state = run([{ type: ACTIONS.SOLVE_FAILED, message: "The rack has a 1 in it." }]);
  assert.equal(state.status, "failed");
  assert.equal(state.error, "The rack has a 1 in it.");
});

test("the hint reveals score and direction, then the square, then the word", () => {
  let state = run([{ type: ACTIONS.HINT_STARTED }, { type: ACTIONS.HINT_FOUND, play: quixote }]);
  assert.equal(state.hint.step, 1);
  assert.ok(!hintDone(state));
  state = run([{ type: ACTIONS.HINT_NEXT }, { type: ACTIONS.HINT_NEXT }, { type: ACTIONS.HINT_NEXT }], state);
  assert.equal(state.hint.step, 3);
  assert.ok(hintDone(state));
});

test("switching to a game without blanks takes them off the rack", () => {
  const state = run([
    { type: ACTIONS.RULES_LOADED, ruleSets: [crossplay, duel] },
    { type: ACTIONS.RACK_TYPED, text: "AB?" },
    { type: ACTIONS.RULES_CHOSEN, rules: "duel" },
  ]);
  assert.equal(state.rack, "AB");
});

test("loading a saved board brings back its game and rack", () => {
  const board = run([
    { type: ACTIONS.SQUARE_CHOSEN, row: 7, col: 7 },
    { type: ACTIONS.KEY_TYPED, key: "A" },
  ]).board;
  const state = run([
    { type: ACTIONS.RULES_LOADED, ruleSets: [crossplay, duel] },
    { type: ACTIONS.BOARD_LOADED, board, rules: "duel", rack: "XYZ" },
  ]);
  assert.equal(state.board[7][7], "A");
  assert.equal(state.rules, "duel");
  assert.equal(state.rack, "XYZ");
  const broken = reduce(state, { type: ACTIONS.BOARD_LOADED, board: ["x"] });
  assert.equal(broken.board, state.board);
});

test("the request carries the board, rack, game and bonus switch", () => {
  const state = run([
    { type: ACTIONS.RACK_TYPED, text: "quixote" },
    { type: ACTIONS.BONUS_SET, bonus: false },
  ]);
  const body = solveRequest(state, 1);
  assert.equal(body.rules, "crossplay");
  assert.equal(body.rack, "QUIXOTE");
  assert.equal(body.bonus, false);
  assert.equal(body.top, 1);
  assert.equal(body.board.length, 15);
});
