// The full results list: every play the engine found, as rows the page can
// sort, filter and page through. Pure functions; the view draws one page.

export const PAGE_SIZE = 50;

// The engine's short rows ({fields, plays}) as play objects. A row's variants
// are the same word at the same spot with the rack's blanks on other letters.
export function playsFromRows(answer) {
  const fields = answer?.fields ?? [];
  return (answer?.plays ?? []).map((row) => {
    const play = Object.fromEntries(fields.map((name, i) => [name, row[i]]));
    play.variants = (play.variants ?? []).map(([word, score, leave, equity]) => ({
      ...play,
      word,
      score,
      leave,
      equity,
      variants: [],
    }));
    return play;
  });
}

const byScore = (a, b) => b.score - a.score;
// A row's best equity may be one of its blank choices: that is the row's place.
const bestEquity = (play) => Math.max(play.equity ?? play.score, ...play.variants.map((v) => v.equity ?? v.score));
const ORDER = {
  score: byScore,
  equity: (a, b) => bestEquity(b) - bestEquity(a) || byScore(a, b),
  length: (a, b) => b.word.length - a.word.length || byScore(a, b),
  word: (a, b) => a.word.toUpperCase().localeCompare(b.word.toUpperCase()) || byScore(a, b),
  position: (a, b) =>
    a.row - b.row || a.col - b.col || (a.direction === b.direction ? 0 : a.direction === "across" ? -1 : 1) ||
    byScore(a, b),
};

// Letters typed in the filter: the word must contain them in that order, touching
// ("ZA" finds ZAX and PIZZA). Anything but letters is ignored.
export function matchesFilter(play, filter) {
  const wanted = (filter ?? "").toUpperCase().replace(/[^A-Z]/g, "");
  return !wanted || play.word.toUpperCase().includes(wanted);
}

// Indices into `plays`, in the chosen order, keeping only those the filter matches.
// Ties keep the engine's order (Array.prototype.sort is stable).
export function listed(plays, { sort = "score", filter = "" } = {}) {
  const order = ORDER[sort] ?? ORDER.score;
  return plays
    .map((play, index) => ({ play, index }))
    .filter(({ play }) => matchesFilter(play, filter))
    .sort((a, b) => order(a.play, b.play))
    .map(({ index }) => index);
}

export function pageCount(total) {
  return Math.max(1, Math.ceil(total / PAGE_SIZE));
}

export function pageSlice(indices, page) {
  const last = pageCount(indices.length) - 1;
  const at = Math.max(0, Math.min(page, last));
  return { page: at, indices: indices.slice(at * PAGE_SIZE, (at + 1) * PAGE_SIZE), first: at * PAGE_SIZE };
}
