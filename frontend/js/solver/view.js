// Views: each takes its target element and the state, and makes the element match.
// Text goes in through textContent only.

import * as T from "../tiles/board.js";
import { hintLines } from "./hint.js";
import { boardCursor, boardLook } from "./look.js";
import { unseenTiles } from "./rack.js";
import { listed, pageCount, pageSlice } from "./results.js";
import { chosenPlay, currentRuleSet, hintDone } from "./state.js";

function el(tag, attrs = {}, text) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, value);
  if (text !== undefined) node.textContent = text;
  return node;
}

// --- the board -------------------------------------------------------------

// The board component draws it (js/tiles/board.js): the rule set's premiums and
// values, the tiles, the chosen play in yellow and the cursor with its arrow.
export function renderBoard(target, state) {
  if (!target.children.length) T.mountBoard(target);
  T.paintBoard(target, currentRuleSet(state), boardLook(state), { cursor: boardCursor(state) });
}

// --- the rack --------------------------------------------------------------

export function renderRack(input, tray, state) {
  if (input.value !== state.rack) input.value = state.rack;
  const ruleSet = currentRuleSet(state);
  tray.replaceChildren(
    ...[...state.rack].map((ch) => {
      const tile = el("span", { class: ch === "?" ? "tile tile-blank" : "tile" });
      tile.append(el("span", { class: "tile-letter" }, ch === "?" ? "" : ch));
      tile.append(el("span", { class: "tile-value" }, ch === "?" ? "0" : String(T.valueOf(ruleSet, ch))));
      return tile;
    }),
  );
}

// --- controls --------------------------------------------------------------

export function renderRuleChoice(select, state) {
  if (select.options.length !== state.ruleSets.length) {
    select.replaceChildren(
      ...state.ruleSets.map((rules) => el("option", { value: rules.name }, rules.title)),
    );
  }
  if (select.value !== state.rules) select.value = state.rules;
}

export function renderDirection(form, state) {
  for (const radio of form.querySelectorAll("input[name=direction]")) {
    radio.checked = radio.value === state.direction;
  }
}

export function renderStatus(target, state) {
  let text = state.notice;
  if (state.status === "solving") text = "Searching…";
  else if (state.status === "failed") text = state.error;
  else if (state.status === "solved" && !state.plays.length) text = "No play fits this board and rack.";
  target.textContent = text ?? "";
  target.classList.toggle("status-error", state.status === "failed");
}

export function renderHint(target, button, state) {
  target.replaceChildren(...(state.hint ? hintLines(state.hint.play, state.hint.step) : []).map((line) => el("p", {}, line)));
  target.hidden = !state.hint;
  button.textContent = state.hint && !hintDone(state) ? "Next Hint" : "Get a Hint";
}

// --- results ---------------------------------------------------------------

// Sorting 40,000 plays is quick, but not on every keystroke elsewhere on the page.
let listedFor = { plays: null, sort: null, filter: null, indices: [] };

function listedPlays(state) {
  const { plays, sort, filter } = state;
  if (listedFor.plays !== plays || listedFor.sort !== sort || listedFor.filter !== filter) {
    listedFor = { plays, sort, filter, indices: listed(plays, { sort, filter }) };
  }
  return listedFor.indices;
}

function formatEquity(equity) {
  return `score + leave ${equity.toFixed(1)}`;
}

function where(play) {
  return `${play.direction === "across" ? "Across" : "Down"} at ${play.row},${play.col}`;
}

function playButton(play, index, variant, pressed) {
  const button = el("button", {
    type: "button",
    class: variant === null ? "play" : "play play-variant",
    "data-index": index,
    "aria-pressed": pressed ? "true" : "false",
  });
  if (variant !== null) button.dataset.variant = variant;
  button.append(
    wordWithBlanks(play.word),
    el("span", { class: "play-where" }, where(play)),
    el("span", { class: "play-score" }, String(play.score)),
  );
  if (play.equity !== undefined) {
    const kept = play.leave ? `keeps ${play.leave}` : "keeps nothing";
    button.append(el("span", { class: "play-equity", title: "score + leave" }, `${kept} · ${formatEquity(play.equity)}`));
  }
  return button;
}

export function renderPlays(section, list, tools, state) {
  section.hidden = state.status !== "solved" || !state.plays.length;
  if (section.hidden) {
    list.replaceChildren();
    return;
  }
  const indices = listedPlays(state);
  const { page, indices: shown, first } = pageSlice(indices, state.page);
  const pages = pageCount(indices.length);
  const rows = state.plays.length;
  const variants = state.count - rows;
  tools.count.textContent =
    `${state.count.toLocaleString("en")} legal plays` +
    (variants > 0 ? ` (${rows.toLocaleString("en")} once blank choices are grouped)` : "") +
    (indices.length !== rows ? `; ${indices.length.toLocaleString("en")} match` : "") +
    (indices.length ? `. Showing ${first + 1}–${first + shown.length}.` : ". None match.");
  tools.pageAt.textContent = `Page ${page + 1} of ${pages}`;
  tools.prev.disabled = page === 0;
  tools.next.disabled = page >= pages - 1;
  tools.prev.dataset.page = String(page - 1);
  tools.next.dataset.page = String(page + 1);
  if (tools.sort.value !== state.sort) tools.sort.value = state.sort;
  if (tools.filter.value !== state.filter) tools.filter.value = state.filter;
  list.start = first + 1;
  list.replaceChildren(
    ...shown.map((index) => {
      const play = state.plays[index];
      const item = el("li");
      item.append(playButton(play, index, null, state.chosen === index && state.variant === null));
      if (play.variants.length) {
        // The same word on the same squares with the rack's blanks on other letters.
        const others = el("details", { class: "variants" });
        const count = play.variants.length;
        others.append(el("summary", {}, `${count} other blank choice${count === 1 ? "" : "s"}`));
        if (state.chosen === index && state.variant !== null) others.open = true;
        const inner = el("ol", { class: "plays variant-list" });
        play.variants.forEach((variant, k) => {
          const li = el("li");
          li.append(playButton(variant, index, k, state.chosen === index && state.variant === k));
          inner.append(li);
        });
        others.append(inner);
        item.append(others);
      }
      return item;
    }),
  );
}

// The engine writes a blank's letter in lower case; show it upper case, marked.
function wordWithBlanks(word) {
  const span = el("span", { class: "play-word" });
  for (const ch of word) {
    if (ch >= "a" && ch <= "z") {
      const blank = el("span", { class: "blank-letter", title: "blank" }, ch.toUpperCase());
      span.append(blank);
    } else {
      span.append(ch);
    }
  }
  return span;
}

function squareRow(square) {
  const tr = el("tr");
  const points = square.new ? square.value * square.letter_multiplier : square.value;
  const cells = [
    `${square.row},${square.col}`,
    square.blank ? `${square.letter} (blank)` : square.letter,
    String(square.value),
    square.new && square.letter_multiplier > 1 ? `×${square.letter_multiplier}` : "",
    square.new && square.word_multiplier > 1 ? `×${square.word_multiplier}` : "",
    String(points),
  ];
  for (const text of cells) tr.append(el("td", {}, text));
  if (square.new) tr.classList.add("new");
  return tr;
}

function wordTable(word) {
  const box = el("div", { class: "word-score" });
  const where = `${word.direction === "across" ? "Across" : "Down"} at ${word.row},${word.col}`;
  box.append(el("h4", {}, `${word.word} — ${where}`));
  const table = el("table");
  const head = el("tr");
  for (const name of ["Square", "Letter", "Value", "Letter ×", "Word ×", "Points"]) {
    head.append(el("th", { scope: "col" }, name));
  }
  table.append(el("thead"), el("tbody"));
  table.tHead.append(head);
  for (const square of word.squares) table.tBodies[0].append(squareRow(square));
  box.append(table);
  const sum = word.squares.reduce(
    (total, sq) => total + (sq.new ? sq.value * sq.letter_multiplier : sq.value),
    0,
  );
  const line = word.word_multiplier > 1
    ? `${sum} × ${word.word_multiplier} = ${word.score}`
    : `${word.score}`;
  box.append(el("p", { class: "word-total" }, `Word score: ${line}`));
  return box;
}

// Engine names such as "tiles_used" read as "Tiles used".
function bonusName(name) {
  const words = name.replaceAll("_", " ");
  return words.charAt(0).toUpperCase() + words.slice(1);
}

export function renderBreakdown(target, state) {
  const chosen = chosenPlay(state);
  target.hidden = !chosen;
  if (!chosen) {
    target.replaceChildren();
    return;
  }
  const play = state.breakdown ?? chosen;
  const heading = el("h3", { id: "breakdown-title" });
  heading.append(wordWithBlanks(play.word), ` for ${play.score}`);
  const parts = [heading];
  for (const word of play.breakdown?.words ?? []) parts.push(wordTable(word));
  const bonuses = el("ul", { class: "bonuses" });
  for (const bonus of play.breakdown?.bonuses ?? []) {
    bonuses.append(el("li", {}, `${bonusName(bonus.name)}: +${bonus.points}`));
  }
  if (bonuses.children.length) parts.push(bonuses);
  if (!play.breakdown) parts.push(el("p", { class: "counting" }, "Counting the score square by square…"));
  if (play.equity !== undefined) {
    const worth = play.equity - play.score;
    const sign = worth >= 0 ? "+" : "−";
    parts.push(
      el(
        "p",
        { class: "play-leave" },
        `Keeps ${play.leave || "nothing"} (worth ${sign}${Math.abs(worth).toFixed(1)} next turn): ${formatEquity(play.equity)}.`,
      ),
    );
  }
  parts.push(el("p", { class: "play-total" }, `Total: ${play.breakdown?.total ?? play.score}`));
  const how = el("p", { class: "how" });
  how.append(el("a", { href: "#scoring" }, "How a score is counted"));
  parts.push(how);
  const place = el("button", { type: "button", id: "place", class: "primary" }, "Place");
  parts.push(place);
  target.replaceChildren(...parts);
}

// --- unseen tiles ----------------------------------------------------------

// The bag minus the board minus the rack: what the other rack and the bag hold.
export function renderUnseen(list, count, state) {
  const ruleSet = currentRuleSet(state);
  if (!ruleSet) return;
  const { letters, blanks } = unseenTiles(ruleSet.tiles, ruleSet.blanks, state.board, state.rack);
  const items = letters.map(({ letter, count: n }) =>
    el("li", { class: n ? "" : "gone", "aria-label": `${letter}: ${n}` }, `${letter} ${n}`),
  );
  if (ruleSet.blanks) items.push(el("li", { class: blanks ? "" : "gone", "aria-label": `blank: ${blanks}` }, `? ${blanks}`));
  list.replaceChildren(...items);
  const total = letters.reduce((sum, { count: n }) => sum + n, 0) + blanks;
  count.textContent = `${total} tiles unseen: in the bag or on the other player's rack.`;
}

// --- saved boards ----------------------------------------------------------

export function renderSaved(select, state) {
  const names = state.savedNames;
  const current = select.value;
  select.replaceChildren(...names.map((name) => el("option", { value: name }, name)));
  if (names.includes(current)) select.value = current;
  select.disabled = !names.length;
}

// --- reference pages -------------------------------------------------------

export function renderValues(table, state) {
  const sets = state.ruleSets;
  if (!sets.length) return;
  const head = el("tr");
  head.append(el("th", { scope: "col" }, "Letter"));
  for (const rules of sets) head.append(el("th", { scope: "col" }, rules.title));
  const body = el("tbody");
  const byName = Object.fromEntries(sets.map((rules) => [rules.name, rules]));
  const letters = sets[0].tiles.map((tile) => tile.letter);
  for (const letter of letters) {
    const tr = el("tr");
    tr.append(el("th", { scope: "row" }, letter));
    for (const rules of sets) {
      const tile = rules.tiles.find((t) => t.letter === letter);
      tr.append(el("td", {}, `${tile.value} (×${tile.count})`));
    }
    const cp = byName.crossplay?.tiles.find((t) => t.letter === letter);
    const sc = byName.scrabble?.tiles.find((t) => t.letter === letter);
    if (cp && sc && cp.value !== sc.value) tr.classList.add("differs");
    body.append(tr);
  }
  const blanks = el("tr");
  blanks.append(el("th", { scope: "row" }, "Blank"));
  for (const rules of sets) blanks.append(el("td", {}, `0 (×${rules.blanks})`));
  body.append(blanks);
  const thead = el("thead");
  thead.append(head);
  table.replaceChildren(el("caption", {}, "Points (and tiles in the bag) by game"), thead, body);
}

export function renderLayout(grid, facts, state) {
  const ruleSet = currentRuleSet(state);
  if (!ruleSet) return;
  // The same component as the board above, small and not for tapping.
  if (!grid.children.length) T.mountBoard(grid, { square: "span" });
  grid.setAttribute("aria-label", `${ruleSet.title} board layout`);
  T.paintBoard(grid, ruleSet, () => null);
  const lines = [
    `${ruleSet.title}: a rack of ${ruleSet.rack_size}, ${ruleSet.bag_size} tiles in the bag, ${ruleSet.blanks} of them blank.`,
    ruleSet.rack_bonus
      ? `Using all ${ruleSet.rack_size} rack tiles earns the ${ruleSet.rack_bonus_name}: +${ruleSet.rack_bonus}, added after every multiplier.`
      : "There is no bonus for using the whole rack.",
    ruleSet.star_multiplies
      ? "The centre star doubles the opening word."
      : "The centre star marks the opening square; it does not multiply the word.",
  ];
  const counts = Object.entries(T.PREMIUMS)
    .filter(([mark]) => mark !== "*")
    .map(([mark, premium]) => [ruleSet.layout.join("").split(mark).length - 1, premium.name])
    .filter(([n]) => n > 0)
    .map(([n, name]) => `${n} ${name}`);
  lines.push(`Premium squares: ${counts.join(", ")}.`);
  const tileBonus = Object.entries(ruleSet.tiles_used_bonus);
  if (tileBonus.length) {
    lines.push(`Tiles placed in one play: ${tileBonus.map(([n, p]) => `${n} → +${p}`).join(", ")}.`);
  }
  const wordBonus = Object.entries(ruleSet.words_formed_bonus);
  if (wordBonus.length) {
    lines.push(`Words formed in one play: ${wordBonus.map(([n, p]) => `${n} → +${p}`).join(", ")}.`);
  }
  facts.replaceChildren(...lines.map((line) => el("li", {}, line)));
}

export function renderTwoLetterWords(list, count, words) {
  list.replaceChildren(...words.map((word) => el("li", {}, word)));
  count.textContent = `${words.length} two-letter words are in the list.`;
}
