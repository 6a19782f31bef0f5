// The Solver page's state and its one pure reducer. Views read the state;
// every change goes through `reduce(state, action)`.

import {
  EMPTY,
  countBlanks,
  emptyBoard,
  isValidBoard,
  setSquare,
  stepFrom,
  tilesOnEmpty,
  typedSquare,
} from "./board.js";
import { HINT_STEPS } from "./hint.js";
import { blanksOver, normalizeRack, spentFromTiles, takeTiles } from "./rack.js";

export const ACTIONS = Object.freeze({
  RULES_LOADED: "rules-loaded",
  RULES_CHOSEN: "rules-chosen",
  SQUARE_CHOSEN: "square-chosen",
  DIRECTION_CHOSEN: "direction-chosen",
  KEY_TYPED: "key-typed",
  ERASED: "erased",
  CURSOR_MOVED: "cursor-moved",
  RACK_TYPED: "rack-typed",
  BONUS_SET: "bonus-set",
  SOLVE_STARTED: "solve-started",
  SOLVE_SUCCEEDED: "solve-succeeded",
  SOLVE_FAILED: "solve-failed",
  PLAY_CHOSEN: "play-chosen",
  BREAKDOWN_LOADED: "breakdown-loaded",
  SORT_CHOSEN: "sort-chosen",
  FILTER_TYPED: "filter-typed",
  PAGE_CHOSEN: "page-chosen",
  PLAY_PLACED: "play-placed",
  HINT_STARTED: "hint-started",
  HINT_FOUND: "hint-found",
  HINT_NEXT: "hint-next",
  BOARD_CLEARED: "board-cleared",
  BOARD_LOADED: "board-loaded",
  SAVED_LISTED: "saved-listed",
  NOTICE: "notice",
});

// What a search answers; any change to what was asked puts these back.
const NO_ANSWERS = Object.freeze({
  status: "idle",
  plays: [],
  count: 0,
  page: 0,
  // The chosen result: its index in `plays`, and which of its blank variants (null: the row).
  chosen: null,
  variant: null,
  breakdown: null,
  hint: null,
  error: null,
});

export function initialState() {
  return {
    ruleSets: [],
    rules: "crossplay",
    board: emptyBoard(),
    cursor: null,
    direction: "across",
    blankArmed: false,
    rack: "",
    bonus: true,
    // status: "idle" | "solving" | "solved" | "failed"
    ...NO_ANSWERS,
    sort: "score",
    filter: "",
    notice: "",
    savedNames: [],
  };
}

export function currentRuleSet(state) {
  return state.ruleSets.find((rules) => rules.name === state.rules) ?? null;
}

function rackLimits(state) {
  const rules = currentRuleSet(state);
  return rules ? { rackSize: rules.rack_size, blanks: rules.blanks } : {};
}

// Any change to what was asked makes the old answers stale.
function withoutAnswers(state) {
  return { ...state, ...NO_ANSWERS };
}

// The play a result row (or one of its blank variants) stands for.
export function chosenPlay(state) {
  const row = state.chosen === null ? null : state.plays[state.chosen];
  if (!row) return null;
  return state.variant === null ? row : (row.variants[state.variant] ?? row);
}

function blanksLeft(state) {
  const rules = currentRuleSet(state);
  return rules ? rules.blanks - countBlanks(state.board) : Infinity;
}

function tooManyBlanks(state) {
  const rules = currentRuleSet(state);
  const bag = rules.blanks === 1 ? "1 blank" : `${rules.blanks} blanks`;
  return `${rules.title} has ${bag} in the bag, and the board and rack already hold them all.`;
}

function typeKey(state, key) {
  if (key === "?") {
    if (blanksLeft(state) - (state.rack.match(/\?/g) ?? []).length <= 0) {
      return { ...state, blankArmed: false, notice: tooManyBlanks(state) };
    }
    return { ...state, blankArmed: true, notice: "The next letter typed is a blank." };
  }
  const square = typedSquare(key, state.blankArmed);
  if (!square || !state.cursor) return state;
  const { row, col } = state.cursor;
  const board = setSquare(state.board, row, col, square);
  const cursor = stepFrom(state.cursor, state.direction) ?? state.cursor;
  return { ...withoutAnswers(state), board, cursor, blankArmed: false, notice: "" };
}

function erase(state) {
  if (!state.cursor) return state;
  const { row, col } = state.cursor;
  // Backspace on an empty square clears the one behind it, as in a crossword.
  if (state.board[row][col] === EMPTY) {
    const back = stepFrom(state.cursor, state.direction, -1);
    if (!back) return { ...state, blankArmed: false };
    const board = setSquare(state.board, back.row, back.col, EMPTY);
    return { ...withoutAnswers(state), board, cursor: back, blankArmed: false };
  }
  const board = setSquare(state.board, row, col, EMPTY);
  return { ...withoutAnswers(state), board, blankArmed: false };
}

function place(state) {
  const play = chosenPlay(state);
  if (!play) return state;
  const tiles = tilesOnEmpty(state.board, play);
  const { rack, missing } = takeTiles(state.rack, spentFromTiles(tiles));
  const notice = missing
    ? `Placed ${play.word}; the rack did not hold ${missing}.`
    : `Placed ${play.word} for ${play.score}.`;
  const board = tiles.reduce(
    (next, tile) => setSquare(next, tile.row, tile.col, tile.blank ? tile.letter.toLowerCase() : tile.letter),
    state.board,
  );
  return { ...withoutAnswers(state), board, rack, notice };
}

export function reduce(state, action) {
  switch (action.type) {
    case ACTIONS.RULES_LOADED:
      return { ...state, ruleSets: action.ruleSets };
    case ACTIONS.RULES_CHOSEN: {
      const next = { ...withoutAnswers(state), rules: action.rules };
      return { ...next, rack: normalizeRack(state.rack, rackLimits(next)) };
    }
    case ACTIONS.SQUARE_CHOSEN: {
      // The typing direction stays as chosen: a second click on the square keeps it.
      return { ...state, cursor: { row: action.row, col: action.col } };
    }
    case ACTIONS.DIRECTION_CHOSEN:
      return { ...state, direction: action.direction };
    case ACTIONS.KEY_TYPED:
      return typeKey(state, action.key);
    case ACTIONS.ERASED:
      return erase(state);
    case ACTIONS.CURSOR_MOVED: {
      if (!state.cursor) return state;
      const cursor = {
        row: clamp(state.cursor.row + action.rows),
        col: clamp(state.cursor.col + action.cols),
      };
      return { ...state, cursor };
    }
    case ACTIONS.RACK_TYPED: {
      const left = blanksLeft(state);
      const over = blanksOver(action.text, left);
      const limits = { ...rackLimits(state), blanks: Math.max(0, Math.min(left, rackLimits(state).blanks ?? left)) };
      const rack = normalizeRack(action.text, limits);
      // A '?' beyond the bag's blanks is refused out loud, not dropped in silence.
      const notice = over ? tooManyBlanks(state) : state.notice;
      if (rack === state.rack) return notice === state.notice ? state : { ...state, notice };
      return { ...withoutAnswers(state), rack, notice };
    }
    case ACTIONS.BONUS_SET:
      return { ...withoutAnswers(state), bonus: action.bonus };
    case ACTIONS.SOLVE_STARTED:
      return { ...withoutAnswers(state), status: "solving", notice: "" };
    case ACTIONS.SOLVE_SUCCEEDED:
      return {
        ...state,
        status: "solved",
        plays: action.plays,
        count: action.count ?? action.plays.length,
        page: 0,
        chosen: null,
        variant: null,
        breakdown: null,
        error: null,
      };
    case ACTIONS.SOLVE_FAILED:
      return { ...state, status: "failed", plays: [], chosen: null, hint: null, error: action.message };
    case ACTIONS.PLAY_CHOSEN: {
      const variant = action.variant ?? null;
      const again = state.chosen === action.index && state.variant === variant;
      return again
        ? { ...state, chosen: null, variant: null, breakdown: null }
        : { ...state, chosen: action.index, variant, breakdown: null };
    }
    case ACTIONS.BREAKDOWN_LOADED:
      // A late answer for a play no longer chosen is dropped.
      if (state.chosen !== action.index || state.variant !== (action.variant ?? null)) return state;
      return { ...state, breakdown: action.play };
    case ACTIONS.SORT_CHOSEN:
      return { ...state, sort: action.sort, page: 0 };
    case ACTIONS.FILTER_TYPED:
      return { ...state, filter: action.filter, page: 0 };
    case ACTIONS.PAGE_CHOSEN:
      return { ...state, page: Math.max(0, action.page) };
    case ACTIONS.PLAY_PLACED:
      return place(state);
    case ACTIONS.HINT_STARTED:
      return { ...withoutAnswers(state), status: "solving", notice: "" };
    case ACTIONS.HINT_FOUND:
      return { ...state, status: "idle", hint: { play: action.play ?? null, step: 1 } };
    case ACTIONS.HINT_NEXT:
      if (!state.hint) return state;
      return { ...state, hint: { ...state.hint, step: Math.min(state.hint.step + 1, HINT_STEPS) } };
    case ACTIONS.BOARD_CLEARED:
      return { ...withoutAnswers(state), board: emptyBoard(), cursor: null, notice: "" };
    case ACTIONS.BOARD_LOADED: {
      if (!isValidBoard(action.board)) {
        return { ...state, notice: "That saved board could not be read." };
      }
      const next = { ...withoutAnswers(state), board: action.board, notice: action.notice ?? "" };
      if (action.rules) next.rules = action.rules;
      if (typeof action.rack === "string") next.rack = normalizeRack(action.rack, rackLimits(next));
      return next;
    }
    case ACTIONS.SAVED_LISTED:
      return { ...state, savedNames: action.names };
    case ACTIONS.NOTICE:
      return { ...state, notice: action.notice };
    default:
      return state;
  }
}

function clamp(index) {
  return Math.max(0, Math.min(14, index));
}

// The request body for POST /api/solve: the top plays, every play ("all"), or one play's score.
export function solveRequest(state, top) {
  const body = { rules: state.rules, rack: state.rack, board: state.board, bonus: state.bonus };
  if (top === "all") body.all = true;
  else if (top) body.top = top;
  return body;
}

export function playRequest(state, play) {
  const { row, col, direction, word } = play;
  return { ...solveRequest(state), play: { row, col, direction, word } };
}

// The hint is shown when the search is done; a finished hint has nothing left to reveal.
export function hintDone(state) {
  return Boolean(state.hint) && (state.hint.step >= HINT_STEPS || !state.hint.play);
}
