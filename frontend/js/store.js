// A tiny bus: hands out frozen state, and tells listeners only when it changed.
export function createStore(model, initial) {
  let state = Object.freeze(initial);
  const listeners = new Set();
  return {
    get: () => state,
    dispatch(event) {
      const next = model(state, event);
      if (next === state) return;
      state = Object.freeze(next);
      for (const fn of listeners) fn(state);
    },
    subscribe(fn) {
      listeners.add(fn);
      return () => listeners.delete(fn);
    },
  };
}
