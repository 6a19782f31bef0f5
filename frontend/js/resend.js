// Messages the server refused for load (`busy`) or because it could not save them
// (`storage`: a full disk, say) go again with the same seq, after a growing, jittered
// wait, until they are answered; the room applies a seq once, so sending it twice can
// never type a letter twice. `busy` is tried a few times; `storage` as long as the
// socket is open (the server takes them again by itself once it can save). Pure but for
// the timer it is given.

export const RESEND_LIMIT = 6;
const AGAIN = { busy: RESEND_LIMIT, storage: Infinity };

export function resendDelay(attempt, random = Math.random) {
  return Math.min(4000, 150 * 2 ** attempt) * (0.5 + random() / 2);
}

// `post(text)` sends a frame if it can; `schedule(fn, ms)` is setTimeout.
export function createOutbox({ post, schedule = setTimeout, random = Math.random }) {
  const waiting = new Map(); // seq -> { text, attempt }
  return {
    sent(seq, text) {
      waiting.set(seq, { text, attempt: 0 });
    },
    // True when the message was a `busy` or `storage` refusal now being sent again: the
    // page never hears of it (the letter stays shown as typed). Any other answer to a
    // seq settles it.
    received(message) {
      if ((message.type !== 'ack' && message.type !== 'error') || !waiting.has(message.seq)) return false;
      const entry = waiting.get(message.seq);
      if (message.type === 'error' && entry.attempt < (AGAIN[message.code] ?? 0)) {
        const wait = resendDelay(entry.attempt, random);
        entry.attempt += 1;
        schedule(() => {
          if (waiting.get(message.seq) === entry) post(entry.text);
        }, wait);
        return true;
      }
      waiting.delete(message.seq);
      return false;
    },
    // The socket closed: no more retries on it. The frames the page keeps (unsent.js)
    // go again after the reconnect; for the rest the snapshot says what the server has.
    clear() {
      waiting.clear();
    },
    get size() {
      return waiting.size;
    },
  };
}
