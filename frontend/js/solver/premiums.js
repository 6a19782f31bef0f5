// How each layout mark looks on the page (the marks come from GET /api/rules).

export const PREMIUMS = Object.freeze({
  d: { className: "sq-dl", label: "2L", name: "double letter" },
  t: { className: "sq-tl", label: "3L", name: "triple letter" },
  D: { className: "sq-dw", label: "2W", name: "double word" },
  T: { className: "sq-tw", label: "3W", name: "triple word" },
  "*": { className: "sq-star", label: "★", name: "centre star" },
});

export function premiumAt(ruleSet, row, col) {
  const mark = ruleSet?.layout?.[row]?.[col];
  return PREMIUMS[mark] ?? null;
}
