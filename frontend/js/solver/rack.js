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

// How many '?' the text holds beyond what the bag has left (0 when it fits).
export function blanksOver(text, blanksLeft) {
  const asked = (text.match(/\?/g) ?? []).length;
  return Math.max(0, asked - Math.max(0, blanksLeft));
}

// The tiles not on the board and not on the rack: in the bag or on the other
// player's rack. `tiles` is the rule set's [{letter, count}].
export function unseenTiles(tiles, blanks, board, rack) {
  const seen = new Map();
  let blanksSeen = 0;
  for (const ch of board.join("") + rack.toUpperCase()) {
    if (ch === "?" || (ch >= "a" && ch <= "z")) blanksSeen += 1;
    else if (ch >= "A" && ch <= "Z") seen.set(ch, (seen.get(ch) ?? 0) + 1);
  }
  const letters = tiles.map(({ letter, count }) => ({ letter, count: Math.max(0, count - (seen.get(letter) ?? 0)) }));
  return { letters, blanks: Math.max(0, blanks - blanksSeen) };
}
