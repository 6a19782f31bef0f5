import assert from "node:assert/strict";
import { test } from "node:test";

import { normalizeRack, spentFromTiles, takeTiles } from "../../frontend/js/solver/rack.js";

test("the rack is upper case, without spaces, at most seven tiles", () => {
  assert.equal(normalizeRack("qui xote"), "QUIXOTE");
  assert.equal(normalizeRack("ABCDEFGHI"), "ABCDEFG");
});

test("the rack will not take more blanks than the bag holds", () => {
  assert.equal(normalizeRack("????AB", { blanks: 3 }), "???AB");
  assert.equal(normalizeRack("??A", { blanks: 0 }), "A");
});

test("other characters stay for the solver to explain", () => {
  assert.equal(normalizeRack("QU1X"), "QU1X");
});

test("placing takes the played letters and a blank for each blank", () => {
  const spent = spentFromTiles([
    { letter: "Q", blank: false },
    { letter: "U", blank: true },
  ]);
  assert.equal(spent, "Q?");
  assert.deepEqual(takeTiles("QI?Z", spent), { rack: "IZ", missing: "" });
});

test("a tile the rack lacks is reported, not invented", () => {
  assert.deepEqual(takeTiles("AB", "AC"), { rack: "B", missing: "C" });
});
