// One WebSocket to the room server: says hello with the stored identity, numbers
// every message with the player's own seq (growing across reloads, reconnects and tabs), and
// reconnects with backoff. Messages from the server go to onMessage as they are, but
// for `busy` refusals, which the outbox sends again with the same seq (resend.js).
// Frames the caller asks to keep (`keep`) survive a dead socket and a reload, and go
// again after the reconnect when the caller says the room is back (`resend`, unsent.js);
// while `alive()` says a game is open, a heartbeat tells a dead socket (heartbeat.js).
import { createOutbox } from './resend.js';
import { createUnsent } from './unsent.js';
import { heartbeat, CONNECT_MS, OFFLINE_AFTER } from './heartbeat.js';

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
// `keep(action, fields)` gives the tag (say, the room and puzzle) of a frame to keep
// until it is answered, or null; `alive()` says whether to watch the socket's pulse.
export function openSocket({
  url, onMessage, onOpen, onStatus, storage = window.localStorage, kept = window.sessionStorage,
  prefix = 'crossing', hello = () => ({}), keep = () => null, alive = () => false,
}) {
  const KEYS = keysFor(prefix);
  let ws = null;
  let dialedAt = 0;
  let redial = null; // the timer of the next attempt
  let attempt = 0; // attempts since a socket last opened: the backoff
  let failed = 0; // attempts in a row that never got a welcome: "offline" after a few
  let welcomed = false; // this socket has its seat: room frames may go on it
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
  let lastHeard = Date.now();
  let awaiting = null; // when the first frame went out since we last heard anything
  let pinged = null; // the seq of the heartbeat's last ping
  const isOpen = () => ws?.readyState === WebSocket.OPEN;
  function post(text, { answered = true } = {}) {
    ws.send(text);
    lastSent = Date.now();
    if (answered) awaiting ??= lastSent;
  }
  const outbox = createOutbox({
    post: (text) => {
      if (!isOpen()) return false;
      post(text);
      return true;
    },
  });
  const unsent = createUnsent({ storage: kept, key: `${prefix}.unsent` });

  function nextSeq() {
    seq = Math.max(seq + 1, Date.now() * 1000 + tab);
    storage.setItem(KEYS.seq, String(seq));
    return seq;
  }

  // Returns the message's seq, or null when it was not sent (no open socket) and not
  // kept to send later either: the caller must not pretend it went.
  function send(action, fields = {}) {
    const tag = keep(action, fields);
    if (!isOpen() && !tag) return null;
    const n = nextSeq();
    const text = JSON.stringify({ action, seq: n, ...fields });
    if (tag) {
      // Behind the frames still waiting for the room to be back, never before them.
      const now = isOpen() && welcomed && !unsent.held;
      unsent.keep(n, text, tag, { sent: now });
      if (!now) return n;
    }
    outbox.sent(n, text);
    post(text);
    return n;
  }

  setInterval(() => {
    if (isOpen() && Date.now() - lastSent >= KEEP_ALIVE_MS - 1000) {
      post(JSON.stringify({ action: 'ping' }), { answered: false });
    }
  }, KEEP_ALIVE_MS / 5);

  // The pulse, twice a second: a socket stuck opening, or open but answering nothing,
  // is given up and dialled again (its close would only come when the network says so,
  // which in a tunnel is never).
  setInterval(() => {
    if (!ws) return;
    const now = Date.now();
    if (ws.readyState === WebSocket.CONNECTING) {
      if (now - dialedAt >= CONNECT_MS) drop();
      return;
    }
    if (!isOpen() || !alive()) return;
    const beat = heartbeat({ now, lastSent, lastHeard, awaiting });
    if (beat === 'ping') ping();
    if (beat === 'dead') drop();
  }, 500);

  // Numbered, so the server answers it; never kept: after a reconnect it means nothing.
  // Its answer is the socket's alone: the page never sent it.
  function ping() {
    pinged = nextSeq();
    post(JSON.stringify({ action: 'ping', seq: pinged }));
  }

  function drop() {
    const dead = ws;
    lost(dead);
    dead.close(1000);
  }

  // The socket is gone (closed, or given up on): what went out on it may not have
  // arrived, so the kept frames wait for the next one.
  function lost(socket) {
    if (socket !== ws) return; // one already given up on, closing at last
    ws = null;
    if (!welcomed) failed += 1; // an attempt that never got its seat back
    welcomed = false;
    awaiting = null;
    outbox.clear();
    unsent.lost();
    onStatus?.(false, { unreachable: failed >= OFFLINE_AFTER });
    if (closedByUs || hungUp) return;
    // Backoff with jitter, so a room's phones do not all knock at once after an outage.
    const wait = Math.min(15000, 500 * 2 ** attempt) * (0.5 + Math.random() / 2);
    attempt += 1;
    redial = setTimeout(connect, wait);
  }

  function connect() {
    clearTimeout(redial);
    redial = null;
    if (ws || closedByUs || hungUp) return;
    const socket = new WebSocket(url);
    ws = socket;
    dialedAt = Date.now();
    socket.addEventListener('open', () => {
      if (socket !== ws) return;
      attempt = 0;
      lastHeard = Date.now();
      onStatus?.(true);
      const player = storage.getItem(KEYS.player);
      const token = storage.getItem(KEYS.token);
      send('hello', { ...(player && token ? { player, token } : {}), ...hello() });
      onOpen?.();
    });
    socket.addEventListener('message', (e) => {
      if (socket !== ws) return;
      lastHeard = Date.now();
      awaiting = null;
      let message;
      try {
        message = JSON.parse(e.data);
      } catch {
        return;
      }
      if (message.type === 'ack' && message.seq === pinged) return;
      if (outbox.received(message)) return;
      if ((message.type === 'ack' || message.type === 'error') && message.seq != null) unsent.settle(message.seq);
      if (message.type === 'welcome') {
        welcomed = true;
        failed = 0;
        unsent.welcome(message.player);
        if (!message.account) {
          storage.setItem(KEYS.player, message.player);
          storage.setItem(KEYS.token, message.token);
        }
      }
      onMessage(message);
    });
    socket.addEventListener('close', () => lost(socket));
  }

  function dialNow() {
    if (ws || closedByUs || hungUp) return;
    attempt = 0;
    connect();
  }

  // A phone that wakes from sleep often holds a dead socket: check at once. The
  // browser's word that the network is back is worth a try too (only a hint: whether
  // we are offline is for the attempts to say).
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState !== 'visible') return;
    if (isOpen() && alive() && awaiting == null) ping();
    dialNow();
  });
  window.addEventListener('online', dialNow);
  // Leaving the page (or the browser keeping it frozen in its back/forward cache)
  // must hang up, or the room goes on thinking we are here and never starts the
  // two minutes' grace. Coming back from that cache dials again. (1000 is the one
  // code below 3000 a page may send: 1001 "going away" is the browser's own, and throws.)
  window.addEventListener('pagehide', () => {
    hungUp = true;
    ws?.close(1000);
  });
  window.addEventListener('pageshow', (e) => {
    if (e.persisted && hungUp) {
      hungUp = false;
      dialNow();
    }
  });

  connect();
  return {
    send,
    // The seat and the room's view are back: send the kept frames that `fits` the room
    // as it is now, oldest first, with their own seqs; forget the rest. Returns the
    // frames sent again.
    resend(fits) {
      if (!isOpen() || !welcomed) return [];
      const due = unsent.take(fits);
      for (const f of due) {
        outbox.sent(f.seq, f.text);
        post(f.text);
      }
      return due.map((f) => JSON.parse(f.text));
    },
    close() {
      closedByUs = true;
      ws?.close();
    },
  };
}
