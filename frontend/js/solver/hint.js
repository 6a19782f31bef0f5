// "Get a Hint": the best play revealed a step at a time, word last.

export const HINT_STEPS = 3;

export function hintLines(play, step) {
  if (!play) return ["No play fits this board and rack."];
  const lines = [`The best play scores ${play.score} and runs ${play.direction}.`];
  if (step >= 2) {
    lines.push(`It starts at row ${play.row}, column ${play.col} (${play.word.length} letters).`);
  }
  if (step >= 3) lines.push(wordLine(play.word));
  return lines;
}

// The engine writes a blank's letter in lower case; say it in words instead.
function wordLine(word) {
  const blanks = [...word].filter((ch) => ch >= "a" && ch <= "z").map((ch) => ch.toUpperCase());
  const upper = word.toUpperCase();
  if (!blanks.length) return `The word is ${upper}.`;
  const which = blanks.length === 1 ? `a blank as the ${blanks[0]}` : `blanks as ${blanks.join(" and ")}`;
  return `The word is ${upper}, with ${which}.`;
}
