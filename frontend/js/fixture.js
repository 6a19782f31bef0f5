// For looking at screens without a server: replays recorded server messages.
export async function replay(url, store) {
  const messages = await (await fetch(url)).json();
  store.dispatch({ type: 'connected', connected: true });
  for (const message of messages) {
    if (message.local) store.dispatch(message.local);
    else store.dispatch({ type: 'server', message, now: Date.now() });
  }
}
