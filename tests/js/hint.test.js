import assert from "node:assert/strict";
import { test } from "node:test";

import { hintLines } from "../../frontend/js/solver/hint.js";
import { quixote } from "./plays.js";

test("the word comes last", () => {
  assert.deepEqual(hintLines(quixote, 1), ["The best play scores 110 and runs across."]);
  assert.equal(hintLines(quixote, 2)[1], "It starts at row 8, column 6 (7 letters).");
  assert.equal(hintLines(quixote, 3)[2], "The word is QUIXOTE.");
});

test("no play says so", () => {
  assert.deepEqual(hintLines(null, 1), ["No play fits this board and rack."]);
});

test("a blank in the word is named, not shown in lower case", () => {
  const play = { ...quixote, word: "QUaRTZES" };
  assert.equal(hintLines(play, 3)[2], "The word is QUARTZES, with a blank as the A.");
  assert.equal(hintLines({ ...play, word: "QUaRTZeS" }, 3)[2], "The word is QUARTZES, with blanks as A and E.");
});
