// Notifications: the toggle's state, and the browser's Web Push subscription behind it.
// Permission is asked only when the player taps the toggle, never on load. The server
// gives its VAPID key in `welcome` (push_key; null: no notifications here) and says
// whether it holds a subscription for this player (notify).

const PREF = 'crossing.notify'; // "on": the player turned notifications on in this browser
const KEY = 'crossing.pushKey'; // the server key the stored subscription was made with

let server = { key: null, on: false };
let busy = false;
const listeners = new Set();

export function supported() {
  return 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;
}

export function registerWorker() {
  if (!('serviceWorker' in navigator)) return;
  navigator.serviceWorker.register('sw.js').catch((error) => console.warn('service worker', error));
}

// What the toggle shows.
export function status() {
  if (!supported() || !server.key) return { available: false, on: false, blocked: false, busy };
  const blocked = Notification.permission === 'denied';
  return { available: true, on: server.on && !blocked, blocked, busy };
}

function changed() {
  for (const fn of listeners) fn(status());
}

export function subscribeToStatus(fn) {
  listeners.add(fn);
  fn(status());
  return () => listeners.delete(fn);
}

function keyBytes(base64url) {
  const padded = base64url.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (base64url.length % 4)) % 4);
  return Uint8Array.from(atob(padded), (c) => c.charCodeAt(0));
}

async function subscription(key) {
  const registration = await navigator.serviceWorker.ready;
  let sub = await registration.pushManager.getSubscription();
  if (sub && localStorage.getItem(KEY) !== key) {
    await sub.unsubscribe(); // made with another server key: the push service would refuse it
    sub = null;
  }
  if (!sub) {
    sub = await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(key) });
    localStorage.setItem(KEY, key);
  }
  return sub.toJSON();
}

// After each welcome: learn the key, and quietly renew a subscription the player wants
// but the server no longer has (a new key, an expired one removed). Never prompts.
export async function onWelcome(message, send) {
  server = { key: message.push_key || null, on: !!message.notify };
  changed();
  const wanted = localStorage.getItem(PREF) === 'on';
  if (!wanted || !server.key || !supported() || Notification.permission !== 'granted') return;
  try {
    const json = await subscription(server.key);
    if (!server.on || localStorage.getItem(KEY) !== server.key) send('notify', { subscription: json });
    server.on = true;
  } catch (error) {
    console.warn('push subscription', error);
  }
  changed();
}

// The toggle, tapped: the only place that asks for permission.
export async function toggle(send, notice) {
  if (busy || !status().available) return;
  busy = true;
  changed();
  try {
    if (server.on) {
      localStorage.removeItem(PREF);
      const registration = await navigator.serviceWorker.ready;
      const sub = await registration.pushManager.getSubscription();
      if (sub) await sub.unsubscribe();
      send('notify', { subscription: null });
      server.on = false;
      return;
    }
    const permission = await Notification.requestPermission();
    if (permission !== 'granted') {
      notice("Notifications are blocked for this site; allow them in the browser's settings.");
      return;
    }
    const json = await subscription(server.key);
    if (send('notify', { subscription: json }) == null) {
      notice('Not connected: try again in a moment.');
      return;
    }
    localStorage.setItem(PREF, 'on');
    server.on = true;
  } catch (error) {
    console.warn('notifications', error);
    notice('Could not turn notifications on in this browser.');
  } finally {
    busy = false;
    changed();
  }
}

// Wire a toggle in a screen: <div data-slot="notify"><button aria-pressed> + <p hint>.
export function bindToggle(root, ctx) {
  const box = root.querySelector('[data-slot="notify"]');
  if (!box) return;
  const button = box.querySelector('button');
  const hint = box.querySelector('.hint');
  const notice = (message) => ctx.dispatch({ type: 'notice', notice: { code: 'notify', message } });
  button.addEventListener('click', () => toggle(ctx.send, notice));
  let stop = null;
  stop = subscribeToStatus((s) => {
    if (stop && !box.isConnected) return stop(); // its screen is gone
    box.hidden = !s.available;
    button.setAttribute('aria-pressed', String(s.on));
    button.textContent = s.on ? 'Notifications: on' : 'Notifications: off';
    button.disabled = s.busy || s.blocked;
    if (hint) {
      hint.textContent = s.blocked
        ? "Notifications are blocked for this site in the browser's settings."
        : 'One message when everyone else is done and the game is waiting for you.';
    }
  });
}
