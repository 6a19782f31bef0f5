// The frames a player must not lose (letters, clears, Done…) from when they are typed
// until the server answers them: across a socket that dies in a tunnel and a page that
// is reloaded. Each is kept as sent, with its seq, and the room and puzzle it was
// typed in (its `tag`). After a reconnect they are held until the page has its seat
// and the room's view back, then go again with the same seqs, oldest first, before
// anything newer: the room applies a seq once, so a frame that did arrive the first
// time changes nothing the second. Kept in the tab's sessionStorage (a reload keeps
// it; another tab of the same player has its own), for one player at a time.

function read(storage, key) {
  try {
    const record = JSON.parse(storage.getItem(key) || 'null');
    if (record && Array.isArray(record.frames)) return record;
  } catch {
    // Unreadable: nothing kept.
  }
  return { player: null, frames: [] };
}

export function createUnsent({ storage, key }) {
  const record = read(storage, key); // { player, frames: [{ seq, text, tag }] }
  const posted = new Set(); // seqs sent on the connection now open

  function save() {
    try {
      if (record.frames.length) storage.setItem(key, JSON.stringify(record));
      else storage.removeItem(key);
    } catch {
      // A full or refused storage: the frames are still kept for this page's life.
    }
  }

  return {
    // True while some kept frame waits to be sent on this connection: a new frame
    // must wait behind it, or it would overtake it.
    get held() {
      return record.frames.some((f) => !posted.has(f.seq));
    },
    get size() {
      return record.frames.length;
    },
    keep(seq, text, tag, { sent }) {
      record.frames.push({ seq, text, tag });
      if (sent) posted.add(seq);
      save();
    },
    // An answer (ack or refusal) names a kept frame: it is settled either way.
    settle(seq) {
      const before = record.frames.length;
      record.frames = record.frames.filter((f) => f.seq !== seq);
      posted.delete(seq);
      if (record.frames.length !== before) save();
    },
    // The connection died: whatever went out on it may not have arrived.
    lost() {
      posted.clear();
    },
    // A welcome says whose frames these may be: another player's are not ours to send.
    welcome(player) {
      if (record.player !== player) {
        record.player = player;
        record.frames = [];
        posted.clear();
        save();
      }
    },
    // The held frames whose tag `fits` the room as it is now, oldest first, to send
    // again; the others were for a room or puzzle that has gone on without them.
    take(fits) {
      record.frames = record.frames.filter((f) => posted.has(f.seq) || fits(f.tag));
      record.frames.sort((a, b) => a.seq - b.seq);
      const due = record.frames.filter((f) => !posted.has(f.seq));
      for (const f of due) posted.add(f.seq);
      save();
      return due;
    },
  };
}
