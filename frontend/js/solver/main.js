// Wires the Solver page: one store, delegated listeners, side effects (fetch,
// localStorage) here and nowhere else.

import { SolveError, fetchRules, solve, solveAnswer } from "./api.js";
import { HINT_STEPS } from "./hint.js";
import { playsFromRows } from "./results.js";
import { mountReader } from "./reader/panel.js";
import { deleteBoard, loadBoard, saveBoard, savedNames } from "./storage.js";
import { ACTIONS, chosenPlay, hintDone, initialState, playRequest, reduce, solveRequest } from "./state.js";
import * as view from "./view.js";

const $ = (id) => document.getElementById(id);

const ui = {
  board: $("board"),
  boardKeys: $("board-keys"),
  rules: $("rules"),
  direction: $("direction"),
  bonus: $("bonus"),
  rack: $("rack"),
  rackTiles: $("rack-tiles"),
  solve: $("solve"),
  hint: $("hint"),
  hintText: $("hint-text"),
  clear: $("clear"),
  status: $("status"),
  results: $("results"),
  plays: $("plays"),
  resultTools: {
    sort: $("sort"),
    filter: $("filter"),
    count: $("results-count"),
    pageAt: $("page-at"),
    prev: $("page-prev"),
    next: $("page-next"),
  },
  blankKey: $("blank-key"),
  unseen: $("unseen-list"),
  unseenCount: $("unseen-count"),
  breakdown: $("breakdown"),
  saveName: $("save-name"),
  save: $("save"),
  savedList: $("saved-list"),
  load: $("load"),
  remove: $("delete"),
  values: $("values-table"),
  layoutGrid: $("layout-grid"),
  layoutFacts: $("layout-facts"),
  twoWords: $("two-letter-list"),
  twoCount: $("two-letter-count"),
  wordListName: $("word-list-name"),
};

let state = initialState();

function dispatch(action) {
  const next = reduce(state, action);
  if (next === state) return;
  const rulesChanged = next.rules !== state.rules || next.ruleSets !== state.ruleSets;
  state = next;
  render(rulesChanged);
}

function render(rulesChanged) {
  view.renderBoard(ui.board, state);
  view.renderRack(ui.rack, ui.rackTiles, state);
  view.renderRuleChoice(ui.rules, state);
  view.renderDirection(ui.direction, state);
  ui.bonus.checked = state.bonus;
  view.renderStatus(ui.status, state);
  view.renderHint(ui.hintText, ui.hint, state);
  view.renderPlays(ui.results, ui.plays, ui.resultTools, state);
  view.renderUnseen(ui.unseen, ui.unseenCount, state);
  ui.blankKey.setAttribute("aria-pressed", state.blankArmed ? "true" : "false");
  view.renderBreakdown(ui.breakdown, state);
  view.renderSaved(ui.savedList, state);
  ui.solve.disabled = state.status === "solving";
  ui.hint.disabled = state.status === "solving";
  if (rulesChanged) {
    view.renderValues(ui.values, state);
    view.renderLayout(ui.layoutGrid, ui.layoutFacts, state);
  }
}

// --- the board: click a square, then type ------------------------------------

ui.board.addEventListener("click", (event) => {
  const square = event.target.closest(".sq");
  if (!square) return;
  dispatch({ type: ACTIONS.SQUARE_CHOSEN, row: Number(square.dataset.row), col: Number(square.dataset.col) });
  // A text field takes the letters so phones open their keyboard.
  ui.boardKeys.focus({ preventScroll: true });
});

ui.boardKeys.addEventListener("input", () => {
  for (const key of ui.boardKeys.value) {
    if (key === " ") dispatch({ type: ACTIONS.DIRECTION_CHOSEN, direction: state.direction === "across" ? "down" : "across" });
    else dispatch({ type: ACTIONS.KEY_TYPED, key });
  }
  ui.boardKeys.value = "";
});

const MOVES = {
  ArrowUp: [-1, 0],
  ArrowDown: [1, 0],
  ArrowLeft: [0, -1],
  ArrowRight: [0, 1],
};

ui.boardKeys.addEventListener("keydown", (event) => {
  if (event.key === "Backspace" || event.key === "Delete") {
    event.preventDefault();
    dispatch({ type: ACTIONS.ERASED });
  } else if (event.key in MOVES) {
    event.preventDefault();
    const [rows, cols] = MOVES[event.key];
    dispatch({ type: ACTIONS.CURSOR_MOVED, rows, cols });
  }
});

ui.direction.addEventListener("change", (event) => {
  if (event.target.name === "direction") {
    dispatch({ type: ACTIONS.DIRECTION_CHOSEN, direction: event.target.value });
  }
});

ui.rules.addEventListener("change", () => dispatch({ type: ACTIONS.RULES_CHOSEN, rules: ui.rules.value }));
ui.bonus.addEventListener("change", () => dispatch({ type: ACTIONS.BONUS_SET, bonus: ui.bonus.checked }));
ui.rack.addEventListener("input", () => dispatch({ type: ACTIONS.RACK_TYPED, text: ui.rack.value }));

// --- the search ---------------------------------------------------------------

async function runSolve() {
  dispatch({ type: ACTIONS.SOLVE_STARTED });
  try {
    // Every legal play; each one's breakdown is asked for when it is chosen.
    const answer = await solveAnswer(solveRequest(state, "all"));
    dispatch({ type: ACTIONS.SOLVE_SUCCEEDED, plays: playsFromRows(answer), count: answer.count });
  } catch (error) {
    dispatch({ type: ACTIONS.SOLVE_FAILED, message: messageOf(error) });
  }
}

async function runHint() {
  if (state.hint && !hintDone(state)) {
    dispatch({ type: ACTIONS.HINT_NEXT });
    return;
  }
  dispatch({ type: ACTIONS.HINT_STARTED });
  try {
    const [best] = await solve(solveRequest(state, 1));
    dispatch({ type: ACTIONS.HINT_FOUND, play: best });
  } catch (error) {
    dispatch({ type: ACTIONS.SOLVE_FAILED, message: messageOf(error) });
  }
}

function messageOf(error) {
  return error instanceof SolveError ? error.message : "Something went wrong; please try again.";
}

ui.solve.addEventListener("click", runSolve);
ui.rack.addEventListener("keydown", (event) => {
  // Enter in the rack field is the same as Show Me Best Move.
  if (event.key === "Enter" && state.status !== "solving") runSolve();
});
ui.hint.addEventListener("click", runHint);
ui.hint.dataset.steps = String(HINT_STEPS);
ui.clear.addEventListener("click", () => dispatch({ type: ACTIONS.BOARD_CLEARED }));

ui.plays.addEventListener("click", (event) => {
  const button = event.target.closest(".play");
  if (!button) return;
  const index = Number(button.dataset.index);
  const variant = button.dataset.variant === undefined ? null : Number(button.dataset.variant);
  dispatch({ type: ACTIONS.PLAY_CHOSEN, index, variant });
  const play = chosenPlay(state);
  if (!play) return;
  showPlayOnBoard();
  loadBreakdown(index, variant, play);
});

async function loadBreakdown(index, variant, play) {
  try {
    const [scored] = await solve(playRequest(state, play));
    dispatch({ type: ACTIONS.BREAKDOWN_LOADED, index, variant, play: scored });
  } catch (error) {
    dispatch({ type: ACTIONS.NOTICE, notice: messageOf(error) });
  }
}

// On a phone the list is below the board: bring the yellow play into view.
function showPlayOnBoard() {
  const squares = [...ui.board.querySelectorAll(".sq-preview")];
  if (!squares.length) return;
  const fits = squares.every((square) => {
    const box = square.getBoundingClientRect();
    return box.top >= 0 && box.bottom <= window.innerHeight;
  });
  if (!fits) ui.board.scrollIntoView({ block: "start" });
}

ui.resultTools.sort.addEventListener("change", () =>
  dispatch({ type: ACTIONS.SORT_CHOSEN, sort: ui.resultTools.sort.value }),
);
ui.resultTools.filter.addEventListener("input", () =>
  dispatch({ type: ACTIONS.FILTER_TYPED, filter: ui.resultTools.filter.value }),
);
for (const pager of [ui.resultTools.prev, ui.resultTools.next]) {
  pager.addEventListener("click", () => {
    dispatch({ type: ACTIONS.PAGE_CHOSEN, page: Number(pager.dataset.page) });
    ui.results.scrollIntoView({ block: "start" });
  });
}

// The explicit blank: the next letter typed on the board is a blank.
ui.blankKey.addEventListener("click", () => {
  dispatch({ type: ACTIONS.KEY_TYPED, key: "?" });
  ui.boardKeys.focus({ preventScroll: true });
});

ui.breakdown.addEventListener("click", (event) => {
  if (event.target.closest("#place")) dispatch({ type: ACTIONS.PLAY_PLACED });
});

// --- saved boards ---------------------------------------------------------------

function listSaved() {
  dispatch({ type: ACTIONS.SAVED_LISTED, names: savedNames(localStorage) });
}

ui.save.addEventListener("click", () => {
  try {
    const name = saveBoard(localStorage, ui.saveName.value, {
      board: state.board,
      rules: state.rules,
      rack: state.rack,
      saved_at: new Date().toISOString(),
    });
    listSaved();
    ui.savedList.value = name;
    dispatch({ type: ACTIONS.NOTICE, notice: `Saved “${name}” in this browser.` });
  } catch (error) {
    dispatch({ type: ACTIONS.NOTICE, notice: error.message });
  }
});

ui.load.addEventListener("click", () => {
  const name = ui.savedList.value;
  const entry = name ? loadBoard(localStorage, name) : null;
  if (!entry) {
    dispatch({ type: ACTIONS.NOTICE, notice: "Choose a saved board to load." });
    return;
  }
  dispatch({ type: ACTIONS.BOARD_LOADED, ...entry, notice: `Loaded “${name}”.` });
  ui.saveName.value = name;
});

ui.remove.addEventListener("click", () => {
  const name = ui.savedList.value;
  if (!name) return;
  deleteBoard(localStorage, name);
  listSaved();
  dispatch({ type: ACTIONS.NOTICE, notice: `Deleted “${name}”.` });
});

// --- the screenshot reader: its board and rack arrive only when the player applies them ---

mountReader({
  dropTarget: ui.board,
  apply: (board, rack) =>
    dispatch({ type: ACTIONS.BOARD_LOADED, board, rack, notice: "The board and rack from the screenshot are in." }),
});

// --- start ------------------------------------------------------------------------

async function start() {
  render(true);
  listSaved();
  try {
    const data = await fetchRules();
    dispatch({ type: ACTIONS.RULES_LOADED, ruleSets: data.rule_sets });
    view.renderTwoLetterWords(ui.twoWords, ui.twoCount, data.two_letter_words);
    ui.wordListName.textContent = data.word_list.name;
    document.body.dataset.ready = "true";
  } catch (error) {
    dispatch({ type: ACTIONS.NOTICE, notice: error.message });
  }
}

start();
