// A small stand-in for the DOM elements Obsidian hands plugins, with
// Obsidian's helpers (createEl, createDiv, setText, addClass, empty). Enough
// for forms to be drawn, read and typed into in tests under Node.

export interface ElInfo {
  text?: string;
  cls?: string | string[];
  attr?: Record<string, string>;
  type?: string;
  value?: string;
}

export class FakeEl {
  children: FakeEl[] = [];
  classes = new Set<string>();
  text = "";
  value = "";
  type = "";
  rows = 0;
  disabled = false;
  checked = false;
  placeholder = "";
  dataset: Record<string, string> = {};
  attrs: Record<string, string> = {};
  listeners = new Map<string, ((e: unknown) => void)[]>();
  parent: FakeEl | null = null;

  constructor(readonly tag: string) {}

  createEl(tag: string, info: ElInfo | string = {}): FakeEl {
    const el = new FakeEl(tag);
    const i: ElInfo = typeof info === "string" ? { cls: info } : info;
    if (i.text !== undefined) el.text = i.text;
    if (i.cls !== undefined) for (const c of Array.isArray(i.cls) ? i.cls : i.cls.split(" ")) if (c) el.classes.add(c);
    if (i.attr) Object.assign(el.attrs, i.attr);
    if (i.type !== undefined) el.type = i.type;
    if (i.value !== undefined) el.value = i.value;
    el.parent = this;
    this.children.push(el);
    return el;
  }
  createDiv(info: ElInfo | string = {}): FakeEl {
    return this.createEl("div", info);
  }
  createSpan(info: ElInfo | string = {}): FakeEl {
    return this.createEl("span", info);
  }
  empty(): void {
    this.children = [];
    this.text = "";
  }
  setText(t: string): void {
    this.text = t;
  }
  getText(): string {
    return this.text + this.children.map((c) => c.getText()).join("");
  }
  addClass(...cls: string[]): void {
    for (const c of cls) this.classes.add(c);
  }
  removeClass(...cls: string[]): void {
    for (const c of cls) this.classes.delete(c);
  }
  hasClass(c: string): boolean {
    return this.classes.has(c);
  }
  toggleClass(c: string, on: boolean): void {
    if (on) this.classes.add(c);
    else this.classes.delete(c);
  }
  setAttr(k: string, v: string): void {
    this.attrs[k] = v;
  }
  addEventListener(type: string, fn: (e: unknown) => void): void {
    const l = this.listeners.get(type) ?? [];
    l.push(fn);
    this.listeners.set(type, l);
  }
  removeEventListener(type: string, fn: (e: unknown) => void): void {
    this.listeners.set(
      type,
      (this.listeners.get(type) ?? []).filter((f) => f !== fn),
    );
  }
  dispatch(type: string, e: unknown = {}): void {
    for (const fn of this.listeners.get(type) ?? []) fn(e);
  }
  /** all returns this element and every descendant, in document order. */
  all(): FakeEl[] {
    return [this, ...this.children.flatMap((c) => c.all())];
  }
  /** findAll is Obsidian's: the descendants a selector matches (here a tag name or a .class). */
  findAll(selector: string): FakeEl[] {
    const sub = this.all().slice(1);
    return selector.startsWith(".") ? sub.filter((e) => e.classes.has(selector.slice(1))) : sub.filter((e) => e.tag === selector);
  }
  /** find returns the descendants with class c. */
  find(c: string): FakeEl[] {
    return this.all().filter((e) => e.classes.has(c));
  }
}
