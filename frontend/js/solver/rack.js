// The rack as typed: letters A-Z and '?' for a blank, up to the rule set's rack size.
// Other characters are left in so the solver can say what is wrong with them.

export const RACK_SIZE = 7;

export function normalizeRack(text, { rackSize = RACK_SIZE, blanks = 3 } = {}) {
  let blanksLeft = blanks;
  let rack = "";
  for (const ch of text.toUpperCase().replace(/\s+/g, "")) {
    if (ch === "?") {
      // The bag holds only so many blanks; a rack cannot hold more.
      if (blanksLeft === 0) continue;
      blanksLeft -= 1;
    }
    rack += ch;
    if (rack.length === rackSize) break;
  }
  return rack;
}

// The rack letters a list of new tiles spends: the letter, or '?' for a blank.
export function spentFromTiles(tiles) {
  return tiles.map((tile) => (tile.blank ? "?" : tile.letter.toUpperCase())).join("");
}

// Takes the spent tiles off the rack; `missing` lists any the rack did not hold.
export function takeTiles(rack, spent) {
  const left = rack.split("");
  let missing = "";
  for (const tile of spent) {
    const at = left.indexOf(tile);
    if (at === -1) missing += tile;
    else left.splice(at, 1);
  }
  return { rack: left.join(""), missing };
}
