// The Solver's board through the board component: what a user sees on its squares.
import assert from "node:assert/strict";
import { test } from "node:test";

import { setSquare } from "../../frontend/js/solver/board.js";
import { boardCursor, boardLook } from "../../frontend/js/solver/look.js";
import { ACTIONS, initialState, reduce } from "../../frontend/js/solver/state.js";
import * as T from "../../frontend/js/tiles/board.js";
import { detached } from "./fake_dom.js";
import { quixote, quizWithBlank } from "./plays.js";

const layout = Array.from({ length: 15 }, () => ".".repeat(15));
layout[7] = ".....d.*...D...";
const crossplay = {
  name: "crossplay",
  title: "Crossplay",
  rack_size: 7,
  blanks: 3,
  layout,
  star_multiplies: false,
  tiles: [..."ABCDEFGHIJKLMNOPQRSTUVWXYZ"].map((letter) => ({ letter, value: letter === "Q" ? 10 : 1, count: 1 })),
};

const at = (el, row, col) => el.children[row * 15 + col];
const classes = (cell) => cell.className.split(" ");

function drawn(state) {
  const el = detached();
  T.mountBoard(el);
  T.paintBoard(el, crossplay, boardLook(state), { cursor: boardCursor(state) });
  return el;
}

function withPlays(state, plays, chosen) {
  return reduce(
    reduce(state, { type: ACTIONS.SOLVE_SUCCEEDED, plays: plays.map((p) => ({ ...p, variants: [] })), count: plays.length }),
    { type: ACTIONS.PLAY_CHOSEN, index: chosen, variant: null },
  );
}

const start = () => reduce(initialState(), { type: ACTIONS.RULES_LOADED, ruleSets: [crossplay] });

test("a chosen play is yellow on every square of its word, its new tiles marked new", () => {
  // QUIXOTE across row 8 from column 6, with the I already down: six new tiles.
  const state = withPlays({ ...start(), board: setSquare(start().board, 7, 7, "I") }, [quixote], 0);
  const el = drawn(state);
  const preview = el.children.filter((c) => classes(c).includes("sq-preview"));
  assert.equal(preview.length, 7);
  assert.equal(el.children.filter((c) => classes(c).includes("sq-new")).length, 6);
  assert.ok(!classes(at(el, 7, 7)).includes("sq-new"), "the I was on the board");
  assert.equal(at(el, 7, 5).children[0].textContent, "Q");
  assert.equal(at(el, 7, 5).children[1].textContent, "10");
  assert.equal(at(el, 7, 5).getAttribute("aria-label"), "row 8, column 6, Q, new in the chosen play");
  assert.equal(at(el, 7, 7).getAttribute("aria-label"), "row 8, column 8, I, in the chosen play");
  assert.equal(at(el, 8, 5).textContent, "", "a square off the play stays empty");
});

test("a blank in the chosen play is shown as a blank, with no value on it", () => {
  const el = drawn(withPlays(start(), [quizWithBlank], 0));
  const u = at(el, 7, 8);
  assert.ok(classes(u).includes("sq-blank") && classes(u).includes("sq-preview"));
  assert.equal(u.children[0].textContent, "U");
  assert.equal(u.children.length, 1, "a blank has no value on it, as a real one");
  assert.equal(el.children.filter((c) => classes(c).includes("sq-blank")).length, 1);
});

test("typed tiles and blanks, the cursor's arrow after them, with one label scheme", () => {
  const typed = [
    { type: ACTIONS.SQUARE_CHOSEN, row: 7, col: 6 },
    { type: ACTIONS.KEY_TYPED, key: "c" },
    { type: ACTIONS.KEY_TYPED, key: "?" },
    { type: ACTIONS.KEY_TYPED, key: "a" },
  ].reduce(reduce, start());
  const el = drawn(typed);
  assert.ok(classes(at(el, 7, 6)).includes("sq-tile") && !classes(at(el, 7, 6)).includes("sq-blank"));
  assert.ok(classes(at(el, 7, 7)).includes("sq-blank"));
  const cursor = at(el, 7, 8);
  assert.ok(classes(cursor).includes("sq-cursor-across"));
  assert.equal(cursor.getAttribute("tabindex"), "0");
  assert.equal(el.children.filter((c) => c.getAttribute("tabindex") === "0").length, 1);
  assert.equal(at(el, 7, 5).textContent, "DL");
  assert.equal(at(el, 7, 11).textContent, "DW");
  const down = drawn(reduce(typed, { type: ACTIONS.DIRECTION_CHOSEN, direction: "down" }));
  assert.ok(classes(at(down, 7, 8)).includes("sq-cursor-down"));
});

test("nothing chosen: no yellow, and a placed play is plain tiles", () => {
  const state = withPlays(start(), [quixote], 0);
  const placed = reduce(state, { type: ACTIONS.PLAY_PLACED });
  const el = drawn(placed);
  assert.equal(el.children.filter((c) => classes(c).includes("sq-preview")).length, 0);
  assert.equal(el.children.filter((c) => classes(c).includes("sq-tile")).length, 7);
});
