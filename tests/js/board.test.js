import assert from "node:assert/strict";
import { test } from "node:test";

import {
  emptyBoard,
  isEmptyBoard,
  isValidBoard,
  newTiles,
  placePlay,
  playSquares,
  setSquare,
  stepFrom,
  typedSquare,
} from "../../frontend/js/solver/board.js";
import { quixote, quizWithBlank } from "./plays.js";

test("an empty board is fifteen rows of fifteen empty squares", () => {
  const board = emptyBoard();
  assert.equal(board.length, 15);
  assert.ok(board.every((row) => row === "..............."));
  assert.ok(isEmptyBoard(board));
  assert.ok(isValidBoard(board));
});

test("setting a square returns a new board and leaves the old one alone", () => {
  const before = emptyBoard();
  const after = setSquare(before, 7, 7, "Q");
  assert.equal(after[7], ".......Q.......");
  assert.equal(before[7], "...............");
  assert.equal(setSquare(after, 7, 7, "Q"), after);
});

test("typed keys: either case is a tile; only an armed blank is a blank", () => {
  assert.equal(typedSquare("Q"), "Q");
  assert.equal(typedSquare("q"), "Q");
  assert.equal(typedSquare("Q", true), "q");
  assert.equal(typedSquare("1"), null);
  assert.equal(typedSquare("?"), null);
});

test("steps follow the typing direction and stop at the edge", () => {
  assert.deepEqual(stepFrom({ row: 7, col: 7 }, "across"), { row: 7, col: 8 });
  assert.deepEqual(stepFrom({ row: 7, col: 7 }, "down"), { row: 8, col: 7 });
  assert.deepEqual(stepFrom({ row: 7, col: 7 }, "down", -1), { row: 6, col: 7 });
  assert.equal(stepFrom({ row: 7, col: 14 }, "across"), null);
});

test("a play's squares run from its 1-based first letter", () => {
  const squares = playSquares(quixote);
  assert.deepEqual(squares[0], { row: 7, col: 5, letter: "Q" });
  assert.deepEqual(squares[6], { row: 7, col: 11, letter: "E" });
});

test("placing a play writes its new tiles, blanks in lower case", () => {
  const board = placePlay(emptyBoard(), quizWithBlank);
  assert.equal(board[7], ".......QuIZ....");
  assert.equal(newTiles(quizWithBlank).filter((tile) => tile.blank).length, 1);
});

test("a square shared by two words is one new tile", () => {
  const play = {
    ...quixote,
    breakdown: { ...quixote.breakdown, words: [...quixote.breakdown.words, quixote.breakdown.words[0]] },
  };
  assert.equal(newTiles(play).length, 7);
});

test("a board with a wrong row is not valid", () => {
  assert.ok(!isValidBoard(["..."]));
  const board = emptyBoard();
  board[3] = "......1........";
  assert.ok(!isValidBoard(board));
});
