// RFC 7386 JSON Merge Patch. The server sends only what changed since the last
// version; the view we hold is never mutated (views hand out frozen state).

const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);

export function mergePatch(target, patch) {
  if (!isObject(patch)) return patch;
  const out = isObject(target) ? { ...target } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete out[key];
    else out[key] = mergePatch(out[key], value);
  }
  return out;
}
