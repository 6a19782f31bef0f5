// One WebSocket to the room server: says hello with the stored identity, numbers
// every message with the player's own seq (growing across reloads, reconnects and tabs), and
// reconnects with backoff. Messages from the server go to onMessage as they are, but
// for `busy` refusals, which the outbox sends again with the same seq (resend.js).
import { createOutbox } from './resend.js';

// API Gateway closes a socket that carries nothing for 10 minutes; a lobby or a TV
// watching a paused room can sit that long. A ping (no seq, no answer) keeps it open.
export const KEEP_ALIVE_MS = 5 * 60 * 1000;

const keysFor = (prefix) => ({ player: `${prefix}.player`, token: `${prefix}.token`, seq: `${prefix}.seq` });

export async function socketUrl(location = window.location) {
  try {
    const res = await fetch('config.json', { cache: 'no-store' });
    if (res.ok) {
      const config = await res.json();
      if (config.websocket) return config.websocket; // written by the cloud stack (infra/site.py)
    }
  } catch {
    // No config.json: the server that served this page also carries the socket.
  }
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
  return `${scheme}://${location.host}/ws`;
}

// A watch screen keeps an identity of its own (prefix), so a laptop that is also
// someone's player does not share its seat with the TV view.
export function openSocket({ url, onMessage, onOpen, onStatus, storage = window.localStorage, prefix = 'crossing', hello = () => ({}) }) {
  const KEYS = keysFor(prefix);
  let ws = null;
  let attempt = 0;
  let closedByUs = false;
  let hungUp = false; // the page was left: no redialling until it is shown again
  let seq = Number(storage.getItem(KEYS.seq)) || 0;
  // Two tabs of one browser are one player with one stored seq: counting on from it,
  // both would send the same numbers and the room would drop one tab's letters as
  // repeats. So a seq is read off the clock (microseconds, with this tab's own last
  // three digits): it grows across tabs and reloads, and two tabs could only share one
  // by sending in the same millisecond, which one person in two tabs does not.
  const tab = Math.floor(Math.random() * 1000);
  let lastSent = Date.now();
  const outbox = createOutbox({
    post: (text) => {
      if (!ws || ws.readyState !== WebSocket.OPEN) return false;
      ws.send(text);
      lastSent = Date.now();
      return true;
    },
  });

  function nextSeq() {
    seq = Math.max(seq + 1, Date.now() * 1000 + tab);
    storage.setItem(KEYS.seq, String(seq));
    return seq;
  }

  // Returns the message's seq, or null when there is no open socket to send it on
  // (the caller must not pretend it went).
  function send(action, fields = {}) {
    if (!ws || ws.readyState !== WebSocket.OPEN) return null;
    const n = nextSeq();
    const text = JSON.stringify({ action, seq: n, ...fields });
    outbox.sent(n, text);
    ws.send(text);
    lastSent = Date.now();
    return n;
  }

  setInterval(() => {
    if (ws?.readyState === WebSocket.OPEN && Date.now() - lastSent >= KEEP_ALIVE_MS - 1000) {
      ws.send(JSON.stringify({ action: 'ping' }));
      lastSent = Date.now();
    }
  }, KEEP_ALIVE_MS / 5);

  function connect() {
    ws = new WebSocket(url);
    ws.addEventListener('open', () => {
      attempt = 0;
      onStatus?.(true);
      const player = storage.getItem(KEYS.player);
      const token = storage.getItem(KEYS.token);
      send('hello', { ...(player && token ? { player, token } : {}), ...hello() });
      onOpen?.();
    });
    ws.addEventListener('message', (e) => {
      let message;
      try {
        message = JSON.parse(e.data);
      } catch {
        return;
      }
      if (outbox.received(message)) return;
      if (message.type === 'welcome' && !message.account) {
        storage.setItem(KEYS.player, message.player);
        storage.setItem(KEYS.token, message.token);
      }
      onMessage(message);
    });
    ws.addEventListener('close', () => {
      outbox.clear();
      onStatus?.(false);
      if (closedByUs || hungUp) return;
      // Backoff with jitter, so a room's phones do not all knock at once after an outage.
      const wait = Math.min(15000, 500 * 2 ** attempt) * (0.5 + Math.random() / 2);
      attempt += 1;
      setTimeout(connect, wait);
    });
  }

  // A phone that wakes from sleep often holds a dead socket: check at once.
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible' && ws && ws.readyState === WebSocket.CLOSED && !closedByUs) {
      attempt = 0;
      connect();
    }
  });
  // Leaving the page (or the browser keeping it frozen in its back/forward cache)
  // must hang up, or the room goes on thinking we are here and never starts the
  // two minutes' grace. Coming back from that cache dials again. (1000 is the one
  // code below 3000 a page may send: 1001 "going away" is the browser's own, and throws.)
  window.addEventListener('pagehide', () => {
    hungUp = true;
    ws?.close(1000);
  });
  window.addEventListener('pageshow', (e) => {
    if (e.persisted && hungUp && !closedByUs) {
      hungUp = false;
      attempt = 0;
      connect();
    }
  });

  connect();
  return {
    send,
    close() {
      closedByUs = true;
      ws?.close();
    },
  };
}
