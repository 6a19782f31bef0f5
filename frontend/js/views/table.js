// The table: the host picks Race or Together and a size, then starts; a saved
// Together board makes the host choose between picking it up and replacing it.
import { one, text, show, delegate, keyedList } from './dom.js';
import { isHost, nextChoice, choiceSettled } from '../model.js';
import { memberItem, paintMember } from './lobby.js';
import { dealtList } from '../dealt.js';
import { paintHostNews } from './host_news.js';

export const SIZE_NAMES = { mini: 'Mini 5×5', small: 'Small 7×7', midi: 'Midi 9×9', large: 'Large 11×11' };
export const MODE_NAMES = { race: 'Race', together: 'Together' };

let pending = null; // the host's latest pick, until the room shows it

export function mount(root, ctx) {
  delegate(root, 'click', 'button', (btn) => {
    const view = ctx.getState().view;
    const change = btn.dataset.mode ? { mode: btn.dataset.mode } : btn.dataset.size ? { size: btn.dataset.size } : null;
    if (change) {
      pending = nextChoice(pending, view, change);
      return ctx.send('choose', pending);
    }
    switch (btn.dataset.act) {
      case 'start': return ctx.send('start', { dealt: dealt(view) });
      case 'start-pick-up': ctx.dispatch({ type: 'ask-saved', open: false }); return ctx.send('start', { pick_up: true });
      case 'start-replace': ctx.dispatch({ type: 'ask-saved', open: false }); return ctx.send('start', { replace_saved: true, dealt: dealt(view) });
      case 'saved-cancel': return ctx.dispatch({ type: 'ask-saved', open: false });
      case 'to_lobby': return ctx.send('to_lobby');
      case 'results': return ctx.dispatch({ type: 'choosing', open: false });
      case 'help': return ctx.dispatch({ type: 'help', open: true });
      case 'close': return ctx.leave();
    }
  });
}

// What this phone has dealt of the size the room is about to deal (the host's latest
// pick, which the server has by the time Start arrives).
const dealt = (view) => dealtList(localStorage, pending?.size || view.size);

export function update(root, state) {
  const view = state.view;
  const host = isHost(state);
  if (choiceSettled(pending, view)) pending = null;
  paintHostNews(root, view);
  show(one(root, '[data-slot="chooser"]'), host);
  show(one(root, '[data-slot="waiting"]'), !host);
  show(one(root, '[data-act="start"]'), host);
  show(one(root, '[data-act="results"]'), view.phase === 'results');
  for (const b of root.querySelectorAll('[data-mode]')) b.setAttribute('aria-pressed', String(b.dataset.mode === view.mode));
  for (const b of root.querySelectorAll('[data-size]')) b.setAttribute('aria-pressed', String(b.dataset.size === view.size));
  const hostName = view.members.find((m) => m.player === view.host)?.name;
  text(one(root, '[data-slot="waiting-text"]'), `Waiting for ${hostName || 'the host'} to pick the puzzle…`);
  text(one(root, '[data-slot="choice"]'), `${MODE_NAMES[view.mode]} · ${SIZE_NAMES[view.size]}`);
  const onGame = view.members.filter((m) => m.on_game_screen);
  keyedList(one(root, '[data-slot="members"]'), onGame, (m) => m.player, memberItem,
    (li, m) => paintMember(li, m, view, false));
  const sheet = one(root, '[data-slot="saved"]');
  const wasOpen = !sheet.hidden;
  show(sheet, host && state.askSaved);
  if (!wasOpen && !sheet.hidden) one(sheet, 'button').focus();
}
