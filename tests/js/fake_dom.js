// The few DOM calls the board component makes, on a detached element, for node
// tests (the client tests run without npm packages). Not a DOM: enough to see what
// the component drew and which squares it touched.
class FakeElement {
  constructor(doc, tag) {
    this.ownerDocument = doc;
    this.tagName = tag.toUpperCase();
    this.children = [];
    this.dataset = {};
    this.attributes = {};
    this.className = '';
    this._text = '';
    this.writes = 0; // how often its content was replaced
  }

  get textContent() {
    return this.children.length ? this.children.map((c) => c.textContent).join('') : this._text;
  }

  set textContent(value) {
    this.children = [];
    this._text = String(value);
    this.writes += 1;
  }

  replaceChildren(...nodes) {
    this.children = nodes;
    this._text = '';
    this.writes += 1;
  }

  append(...nodes) {
    this.children.push(...nodes);
  }

  setAttribute(name, value) {
    this.attributes[name] = String(value);
  }

  getAttribute(name) {
    return this.attributes[name] ?? null;
  }

  get classList() {
    const names = this.className.split(/\s+/).filter(Boolean);
    return { contains: (name) => names.includes(name) };
  }
}

export function detached(tag = 'div') {
  const doc = { createElement: (t) => new FakeElement(doc, t) };
  return doc.createElement(tag);
}
