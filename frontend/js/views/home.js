// Home: a name, then host, play alone, pick up a saved race, or join by code.
import { one, show, text, delegate } from './dom.js';

const NAME_KEY = 'crossing.name';

export function mount(root, ctx) {
  const name = one(root, '#name');
  const code = one(root, '#code');
  name.value = localStorage.getItem(NAME_KEY) || '';
  code.value = ctx.invite || '';

  const named = () => {
    const value = name.value.trim();
    if (!value) {
      ctx.dispatch({ type: 'notice', notice: { code: 'bad-name', message: 'Type a name first, so the others know who you are.' } });
      name.focus();
      return null;
    }
    localStorage.setItem(NAME_KEY, value);
    return value;
  };

  delegate(root, 'click', '[data-act]', (btn) => {
    const act = btn.dataset.act;
    if (act === 'help') return ctx.dispatch({ type: 'help', open: true });
    if (act === 'pick_up') return ctx.send('pick_up');
    const who = named();
    if (!who) return;
    if (act === 'host') ctx.send('host', { name: who, solo: false });
    if (act === 'solo') ctx.send('host', { name: who, solo: true });
  });
  one(root, '[data-form="join"]').addEventListener('submit', (e) => {
    e.preventDefault();
    const room = code.value.trim();
    const who = named();
    if (!who) return;
    if (!room) return code.focus();
    ctx.send('join', { code: room, name: who });
  });
  // An invite link: the name box is the one thing to fill in, and one tap (or Enter)
  // joins the room; a remembered name is already there.
  const join = one(root, '[data-slot="invite-join"]');
  if (ctx.invite) {
    text(one(root, '[data-slot="invited"]'), `You're invited to room ${ctx.invite}.`);
    show(one(root, '[data-slot="invited"]'), true);
    text(join, `Join room ${ctx.invite}`);
    show(join, true);
  }
  one(root, '[data-form="name"]').addEventListener('submit', (e) => {
    e.preventDefault();
    if (!ctx.invite) return;
    const who = named();
    if (who) ctx.send('join', { code: ctx.invite, name: who });
  });
  if (!name.value || ctx.invite) name.focus();
}

export function update(root, state) {
  show(one(root, '[data-act="pick_up"]'), !!state.saved?.race);
  for (const btn of root.querySelectorAll('button:not(.toggle)')) btn.disabled = !state.connected && btn.dataset.act !== 'help';
}

export const storedName = () => localStorage.getItem(NAME_KEY) || '';
