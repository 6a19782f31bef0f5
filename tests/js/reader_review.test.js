import assert from "node:assert/strict";
import { test } from "node:test";

import { applied, doubts, fixRack, fixSquare, isDoubtful, reviewOf, squareFrom } from "../../frontend/js/solver/reader/review.js";

function reading() {
  const board = Array(15).fill("...............");
  board[7] = ".....CAt.......";
  const confidence = Array.from({ length: 15 }, () => Array(15).fill(1));
  confidence[7][6] = 0.4;
  confidence[7][7] = 0.7;
  return { board, confidence, rack: "QU?ZE", rackConfidence: [1, 1, 0.95, 0.5, 1] };
}

test("the least sure squares come first", () => {
  const review = reviewOf(reading());
  assert.deepEqual(
    doubts(review).map(({ row, col, square }) => [row, col, square]),
    [[7, 6, "A"], [7, 7, "t"]],
  );
});

test("a fix changes that square only, and it is no longer in doubt", () => {
  const before = reviewOf(reading());
  const after = fixSquare(before, 7, 6, "o");
  assert.equal(applied(after).board[7], ".....Cot.......");
  assert.equal(applied(before).board[7], ".....CAt.......");
  assert.equal(isDoubtful(after, 7, 6), false);
  assert.deepEqual(doubts(after).map(({ col }) => col), [7]);
});

test("typing nothing or a dot empties a square; other keys change nothing", () => {
  assert.equal(squareFrom(""), ".");
  assert.equal(squareFrom("."), ".");
  assert.equal(squareFrom("X"), "X");
  assert.equal(squareFrom("Ax"), "x");
  assert.equal(squareFrom("7"), null);
  const review = reviewOf(reading());
  assert.equal(fixSquare(review, 7, 5, "%"), review);
  assert.equal(applied(fixSquare(review, 7, 5, ""))[`board`][7], "......At.......");
});

test("the rack takes letters and ? only, up to seven", () => {
  const review = fixRack(reviewOf(reading()), "ab?c1defgh");
  assert.equal(applied(review).rack, "AB?CDEF");
});
