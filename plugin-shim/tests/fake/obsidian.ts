// A faithful fake of the subset of the `obsidian` module the plugin uses.
// Tests load the real built main.js with this module as its "obsidian".
// Pure JavaScript: it runs in Node and in the browser smoke test.

import { FakeEl } from "./dom";
import { FakeVault, TAbstractFile, TFile, TFolder } from "./vault";

export { FakeEl, FakeVault, TAbstractFile, TFile, TFolder };

let language = "en";
/** setLanguage sets what getLanguage and moment.locale() return. */
export function setLanguage(l: string): void {
  language = l;
}
export function getLanguage(): string {
  return language;
}
export const moment = { locale: (): string => language };
/** The fake stands for a current Obsidian: every API version is there. */
export function requireApiVersion(_version: string): boolean {
  return true;
}

export function normalizePath(p: string): string {
  return p.replace(/\\/g, "/").replace(/\/+/g, "/").replace(/^\/|\/$/g, "") || "/";
}

/** Platform: a desktop app unless a test says otherwise. */
export const Platform = { isMobile: false, isMobileApp: false, isDesktop: true, isDesktopApp: true };

/**
 * FileSystemAdapter is the desktop app's adapter, over the vault's folder
 * on disk. The fake one holds no disk (this module also runs in a
 * browser): tests/fake/disk.ts's DiskAdapter extends it, in Node.
 */
export abstract class FileSystemAdapter {
  abstract getBasePath(): string;
  abstract getFullPath(normalizedPath: string): string;
}

export class Notice {
  static messages: string[] = [];
  noticeEl = new FakeEl("div");
  /** The fragments Notices were given (rendered Markdown), in order. */
  static fragments: FakeEl[] = [];
  constructor(
    public message: string | unknown,
    _timeout?: number,
  ) {
    if (message instanceof FakeEl) Notice.fragments.push(message);
    Notice.messages.push(message instanceof FakeEl ? message.getText() : String(message));
  }
  setMessage(m: string): this {
    this.message = m;
    return this;
  }
  hide(): void {}
}

export class Component {
  private cleanups: (() => void)[] = [];
  load(): void {
    this.onload();
  }
  onload(): void {}
  unload(): void {
    for (const c of this.cleanups.splice(0)) c();
    this.onunload();
  }
  onunload(): void {}
  register(cb: () => void): void {
    this.cleanups.push(cb);
  }
  registerEvent(_ref: unknown): void {}
  registerDomEvent(el: FakeEl, type: string, cb: (e: unknown) => void): void {
    el.addEventListener(type, cb);
    this.register(() => el.removeEventListener(type, cb));
  }
  registerInterval(id: number): number {
    this.register(() => clearInterval(id));
    return id;
  }
  addChild<T extends Component>(c: T): T {
    c.load();
    return c;
  }
}

export interface Command {
  id: string;
  name: string;
  icon?: string;
  hotkeys?: unknown[];
  callback?: () => unknown;
  checkCallback?: (checking: boolean) => boolean | void;
}

export interface Manifest {
  id: string;
  name: string;
  version: string;
  [k: string]: unknown;
}

/** OpenViewState, as the typings declare it. */
export interface OpenViewState {
  state?: Record<string, unknown>;
  eState?: Record<string, unknown>;
  active?: boolean;
}

export interface ViewState {
  type: string;
  state?: Record<string, unknown>;
  active?: boolean;
}

export class WorkspaceLeaf {
  view: View | null = null;
  detached = false;
  constructor(
    readonly workspace: Workspace,
    /** Where the leaf is: "main" (the editor area) or "right" (the right sidebar). */
    readonly side: "main" | "right",
  ) {}
  /** openFile records the file and its ephemeral state in workspace.opened. */
  async openFile(file: TFile, openState: OpenViewState = {}): Promise<void> {
    this.workspace.opened.push({ path: file.path, eState: openState.eState, side: this.side });
    this.workspace.activeFile = file;
  }
  /** setViewState makes the registered view of the type (a new one when the type changes) and hands it the state. */
  async setViewState(vs: ViewState, _eState?: unknown): Promise<void> {
    if (this.view === null || this.view.getViewType() !== vs.type) {
      await this.view?.close();
      const create = this.workspace.viewCreators.get(vs.type);
      if (create === undefined) throw new Error(`no view registered for ${vs.type}`);
      this.view = create(this);
      await this.view.open();
    }
    await this.view.setState(vs.state ?? {}, { history: false });
    if (vs.active === true) this.workspace.activeLeaf = this;
  }
  getViewState(): ViewState {
    return { type: this.view?.getViewType() ?? "empty", state: this.view?.getState() ?? {} };
  }
  getDisplayText(): string {
    return this.view?.getDisplayText() ?? "";
  }
  /** detach closes the leaf, as closing its tab does. */
  detach(): void {
    this.detached = true;
    void this.view?.close();
    this.workspace.leaves = this.workspace.leaves.filter((l) => l !== this);
  }
}

export class Workspace {
  activeFile: TFile | null = null;
  layoutReady = true;
  leaves: WorkspaceLeaf[] = [];
  activeLeaf: WorkspaceLeaf | null = null;
  /** Every note opened through a leaf, in order, with the ephemeral state it was opened with. */
  opened: { path: string; eState: Record<string, unknown> | undefined; side: string }[] = [];
  /** Revealed leaves, in order. */
  revealed: WorkspaceLeaf[] = [];
  /** Views registered by plugins, by type. */
  viewCreators = new Map<string, (leaf: WorkspaceLeaf) => View>();
  private readyCbs: (() => void)[] = [];
  getActiveFile(): TFile | null {
    return this.activeFile;
  }
  private newLeaf(side: "main" | "right"): WorkspaceLeaf {
    const leaf = new WorkspaceLeaf(this, side);
    this.leaves.push(leaf);
    return leaf;
  }
  /** getLeaf: a new tab when newLeaf is truthy, else the main area's leaf (made once). */
  getLeaf(newLeaf?: boolean | "tab" | "split" | "window"): WorkspaceLeaf {
    if (newLeaf) return this.newLeaf("main");
    return this.leaves.find((l) => l.side === "main") ?? this.newLeaf("main");
  }
  getRightLeaf(_split: boolean): WorkspaceLeaf | null {
    return this.newLeaf("right");
  }
  getLeavesOfType(type: string): WorkspaceLeaf[] {
    return this.leaves.filter((l) => l.view?.getViewType() === type);
  }
  async revealLeaf(leaf: WorkspaceLeaf): Promise<void> {
    this.revealed.push(leaf);
  }
  setActiveLeaf(leaf: WorkspaceLeaf, _params?: unknown): void {
    this.activeLeaf = leaf;
  }
  async openLinkText(linktext: string, _sourcePath: string, newLeaf?: boolean, openViewState?: OpenViewState): Promise<void> {
    const file = this.vaultRef?.getAbstractFileByPath(linktext);
    if (!(file instanceof TFile)) throw new Error(`openLinkText: no note ${linktext}`);
    await this.getLeaf(newLeaf).openFile(file, openViewState);
  }
  vaultRef: FakeVault | null = null;
  onLayoutReady(cb: () => void): void {
    if (this.layoutReady) cb();
    else this.readyCbs.push(cb);
  }
  /** ready runs the callbacks waiting for the layout (when layoutReady was false). */
  ready(): void {
    this.layoutReady = true;
    for (const cb of this.readyCbs.splice(0)) cb();
  }
}

export class FileManager {
  constructor(private vault: FakeVault) {}
  async renameFile(file: TAbstractFile, newPath: string): Promise<void> {
    this.vault.log(`fileManager.renameFile ${file.path} -> ${newPath}`);
    await this.vault.rename(file, newPath);
  }
  async trashFile(file: TAbstractFile): Promise<void> {
    await this.vault.delete(file);
  }
  async processFrontMatter(): Promise<void> {
    throw new Error("processFrontMatter must never be used: it re-serialises the whole YAML");
  }
}

/** FakeApp is the part of App the plugin uses. */
export class App {
  vault: FakeVault;
  fileManager: FileManager;
  workspace = new Workspace();
  plugins: { plugins: Record<string, unknown> } = { plugins: {} };
  /** Saved plugin data, by plugin id. */
  data: Record<string, unknown> = {};
  /** This vault's localStorage on this device (App.saveLocalStorage, Obsidian 1.8.7), as JSON by key. */
  local: Record<string, string> = {};
  loadLocalStorage(key: string): unknown {
    return key in this.local ? JSON.parse(this.local[key]!) : null;
  }
  saveLocalStorage(key: string, data: unknown): void {
    if (data === null) delete this.local[key];
    else this.local[key] = JSON.stringify(data);
  }
  constructor(files: Record<string, Uint8Array | string> = {}) {
    this.vault = new FakeVault(files);
    this.fileManager = new FileManager(this.vault);
    this.workspace.vaultRef = this.vault;
    apps.set(this.workspace, this);
  }
}

export class Plugin extends Component {
  commands: Command[] = [];
  ribbonIcons: { icon: string; title: string; el: FakeEl; callback: (evt: unknown) => unknown }[] = [];
  settingTabs: PluginSettingTab[] = [];
  constructor(
    public app: App,
    public manifest: Manifest,
  ) {
    super();
  }
  async loadData(): Promise<unknown> {
    const d = this.app.data[this.manifest.id];
    return d === undefined ? null : JSON.parse(JSON.stringify(d));
  }
  async saveData(d: unknown): Promise<void> {
    this.app.data[this.manifest.id] = JSON.parse(JSON.stringify(d));
  }
  addCommand(c: Command): Command {
    const full = { ...c, id: `${this.manifest.id}:${c.id}` };
    this.commands.push(full);
    return full;
  }
  addRibbonIcon(icon: string, title: string, callback: (evt: unknown) => unknown): FakeEl {
    const el = new FakeEl("div");
    this.ribbonIcons.push({ icon, title, el, callback });
    return el;
  }
  /** The status bar's items the plugin added, in order. */
  statusBarItems: FakeEl[] = [];
  addStatusBarItem(): FakeEl {
    const el = new FakeEl("div");
    this.statusBarItems.push(el);
    return el;
  }
  addSettingTab(t: PluginSettingTab): void {
    this.settingTabs.push(t);
  }
  registerView(type: string, creator: (leaf: WorkspaceLeaf) => View): void {
    this.app.workspace.viewCreators.set(type, creator);
    this.register(() => this.app.workspace.viewCreators.delete(type));
  }
}

export class PluginSettingTab {
  containerEl = new FakeEl("div");
  constructor(
    public app: App,
    public plugin: Plugin,
  ) {}
  display(): void {}
  hide(): void {}
  /** Obsidian 1.13's redraw of a tab drawn from getSettingDefinitions; counted. */
  updates = 0;
  update(): void {
    this.updates++;
  }
}

export class Modal {
  static opened: Modal[] = [];
  containerEl = new FakeEl("div");
  modalEl = this.containerEl.createDiv({ cls: "modal" });
  titleEl = this.modalEl.createDiv({ cls: "modal-title" });
  contentEl = this.modalEl.createDiv({ cls: "modal-content" });
  isOpen = false;
  constructor(public app: App) {}
  open(): void {
    this.isOpen = true;
    Modal.opened.push(this);
    this.onOpen();
  }
  close(): void {
    if (!this.isOpen) return;
    this.isOpen = false;
    Modal.opened = Modal.opened.filter((m) => m !== this);
    this.onClose();
  }
  setTitle(t: string): this {
    this.titleEl.setText(t);
    return this;
  }
  onOpen(): void {}
  onClose(): void {}
}

export interface Instruction {
  command: string;
  purpose: string;
}

/**
 * SuggestModal as Obsidian draws it: an input, then the suggestions for
 * what it holds. Like Obsidian, it shows whatever getSuggestions gives,
 * a promise's value when it settles, in the order promises settle: keeping
 * stale answers out is the plugin's work. type() is a keystroke, key() an
 * arrow, Enter or Escape.
 */
export abstract class SuggestModal<T> extends Modal {
  limit = 100;
  emptyStateText = "No results found.";
  inputEl = this.modalEl.createEl("input", { type: "text" });
  resultContainerEl = this.modalEl.createDiv({ cls: "prompt-results" });
  instructions: Instruction[] = [];
  /** The suggestions shown, and the one the arrows selected. */
  shown: T[] = [];
  selected = 0;
  /** How many times the suggestions were drawn (each settled getSuggestions). */
  draws = 0;
  setPlaceholder(p: string): void {
    this.inputEl.placeholder = p;
  }
  setInstructions(i: Instruction[]): void {
    this.instructions = i;
  }
  override open(): void {
    super.open();
    this.update();
  }
  /** type is a keystroke: the input now holds value. */
  type(value: string): void {
    this.inputEl.value = value;
    this.update();
  }
  /** key is a navigation key: ArrowDown, ArrowUp, Enter, Escape. */
  key(k: "ArrowDown" | "ArrowUp" | "Enter" | "Escape"): void {
    const n = this.shown.length;
    if (k === "Escape") this.close();
    else if (k === "Enter") this.selectActiveSuggestion({ key: k } as unknown as KeyboardEvent);
    else if (n > 0) this.selected = (this.selected + (k === "ArrowDown" ? 1 : n - 1)) % n;
  }
  private update(): void {
    const r = this.getSuggestions(this.inputEl.value);
    if (r instanceof Promise) void r.then((v) => this.draw(v));
    else this.draw(r);
  }
  private draw(v: T[]): void {
    this.draws++;
    this.shown = v.slice(0, this.limit);
    this.selected = 0;
    this.resultContainerEl.empty();
    if (this.shown.length === 0) {
      this.onNoSuggestion();
      return;
    }
    for (const item of this.shown) this.renderSuggestion(item, this.resultContainerEl.createDiv({ cls: "suggestion-item" }) as unknown as HTMLElement);
  }
  onNoSuggestion(): void {
    this.resultContainerEl.createDiv({ cls: "suggestion-empty", text: this.emptyStateText });
  }
  selectSuggestion(value: T, evt: MouseEvent | KeyboardEvent): void {
    this.close();
    this.onChooseSuggestion(value, evt);
  }
  selectActiveSuggestion(evt: MouseEvent | KeyboardEvent): void {
    const v = this.shown[this.selected];
    if (v !== undefined) this.selectSuggestion(v, evt);
  }
  abstract getSuggestions(query: string): T[] | Promise<T[]>;
  abstract renderSuggestion(value: T, el: HTMLElement): void;
  abstract onChooseSuggestion(item: T, evt: MouseEvent | KeyboardEvent): void;
}

export interface ViewStateResult {
  history: boolean;
}

/** View and ItemView, as the typings declare them; a leaf opens and closes them. */
export abstract class View extends Component {
  app: App;
  icon = "";
  navigation = false;
  containerEl = new FakeEl("div");
  constructor(public leaf: WorkspaceLeaf) {
    super();
    this.app = appOf(leaf.workspace);
  }
  async open(): Promise<void> {
    this.load();
    await this.onOpen();
  }
  async close(): Promise<void> {
    await this.onClose();
    this.unload();
  }
  protected async onOpen(): Promise<void> {}
  protected async onClose(): Promise<void> {}
  abstract getViewType(): string;
  getState(): Record<string, unknown> {
    return {};
  }
  async setState(_state: unknown, _result: ViewStateResult): Promise<void> {}
  getIcon(): string {
    return this.icon;
  }
  abstract getDisplayText(): string;
}

export abstract class ItemView extends View {
  contentEl: FakeEl;
  actions: { icon: string; title: string; el: FakeEl; callback: (evt: unknown) => unknown }[] = [];
  constructor(leaf: WorkspaceLeaf) {
    super(leaf);
    this.containerEl.createDiv({ cls: "view-header" });
    this.contentEl = this.containerEl.createDiv({ cls: "view-content" });
  }
  addAction(icon: string, title: string, callback: (evt: unknown) => unknown): FakeEl {
    const el = new FakeEl("div");
    this.actions.push({ icon, title, el, callback });
    return el;
  }
}

const apps = new WeakMap<Workspace, App>();
function appOf(ws: Workspace): App {
  const app = apps.get(ws);
  if (app === undefined) throw new Error("a view's workspace belongs to no App");
  return app;
}

/**
 * MarkdownRenderer.render draws the little Markdown a briefing holds:
 * headings (h1–h6), list items, paragraphs, `inline code` as code elements,
 * **bold** as strong elements.
 * Every text rendered is kept in `rendered`.
 */
export class MarkdownRenderer {
  static rendered: { markdown: string; sourcePath: string }[] = [];
  static async render(_app: App, markdown: string, el: FakeEl, sourcePath: string, _component: Component): Promise<void> {
    MarkdownRenderer.rendered.push({ markdown, sourcePath });
    for (const line of markdown.split("\n")) {
      if (line.trim() === "") continue;
      const h = /^(#{1,6}) (.*)$/.exec(line);
      const li = /^\s*[-*] (.*)$/.exec(line);
      const block = h ? el.createEl(`h${h[1]!.length}`) : li ? el.createEl("li") : el.createEl("p");
      const text = h ? h[2]! : li ? li[1]! : line;
      text.split(/(`[^`]*`|\*\*[^*]+\*\*)/).forEach((part, i) => {
        if (part === "") return;
        if (i % 2 === 0) block.createSpan({ text: part });
        else if (part.startsWith("`")) block.createEl("code", { text: part.slice(1, -1) });
        else block.createEl("strong", { text: part.slice(2, -2) });
      });
    }
  }
}

abstract class ValueComponent<T> {
  protected changeCb: ((v: T) => unknown) | null = null;
  disabled = false;
  abstract getValue(): T;
  abstract setValue(v: T): this;
  onChange(cb: (v: T) => unknown): this {
    this.changeCb = cb;
    return this;
  }
  setDisabled(d: boolean): this {
    this.disabled = d;
    return this;
  }
  /** input is what a user does: set the value and fire the change. */
  input(v: T): void {
    this.setValue(v);
    void this.changeCb?.(v);
  }
}

export class TextComponent extends ValueComponent<string> {
  inputEl: FakeEl;
  constructor(containerEl: FakeEl, tag = "input") {
    super();
    this.inputEl = containerEl.createEl(tag, { type: "text" });
  }
  getValue(): string {
    return this.inputEl.value;
  }
  setValue(v: string): this {
    this.inputEl.value = v;
    return this;
  }
  setPlaceholder(p: string): this {
    this.inputEl.placeholder = p;
    return this;
  }
}

export class TextAreaComponent extends TextComponent {
  constructor(containerEl: FakeEl) {
    super(containerEl, "textarea");
  }
}

export class DropdownComponent extends ValueComponent<string> {
  selectEl: FakeEl;
  options: [string, string][] = [];
  constructor(containerEl: FakeEl) {
    super();
    this.selectEl = containerEl.createEl("select");
  }
  addOption(value: string, display: string): this {
    this.options.push([value, display]);
    this.selectEl.createEl("option", { text: display, value });
    return this;
  }
  addOptions(o: Record<string, string>): this {
    for (const [k, v] of Object.entries(o)) this.addOption(k, v);
    return this;
  }
  getValue(): string {
    return this.selectEl.value;
  }
  setValue(v: string): this {
    this.selectEl.value = v;
    return this;
  }
}

export class ToggleComponent extends ValueComponent<boolean> {
  toggleEl: FakeEl;
  constructor(containerEl: FakeEl) {
    super();
    this.toggleEl = containerEl.createDiv({ cls: "checkbox-container" });
  }
  getValue(): boolean {
    return this.toggleEl.checked;
  }
  setValue(v: boolean): this {
    this.toggleEl.checked = v;
    this.toggleEl.toggleClass("is-enabled", v);
    return this;
  }
}

export class ButtonComponent {
  buttonEl: FakeEl;
  private clickCb: ((evt: unknown) => unknown) | null = null;
  disabled = false;
  cta = false;
  constructor(containerEl: FakeEl) {
    this.buttonEl = containerEl.createEl("button");
  }
  setButtonText(t: string): this {
    this.buttonEl.setText(t);
    return this;
  }
  setCta(): this {
    this.cta = true;
    this.buttonEl.addClass("mod-cta");
    return this;
  }
  setWarning(): this {
    this.buttonEl.addClass("mod-warning");
    return this;
  }
  setIcon(_i: string): this {
    return this;
  }
  setTooltip(_t: string): this {
    return this;
  }
  setDisabled(d: boolean): this {
    this.disabled = d;
    this.buttonEl.disabled = d;
    return this;
  }
  onClick(cb: (evt: unknown) => unknown): this {
    this.clickCb = cb;
    return this;
  }
  /** click is what a user does. */
  click(): void {
    if (!this.disabled) void this.clickCb?.({});
  }
}

type AnyComponent = TextComponent | TextAreaComponent | DropdownComponent | ToggleComponent | ButtonComponent;

export class Setting {
  settingEl: FakeEl;
  infoEl: FakeEl;
  nameEl: FakeEl;
  descEl: FakeEl;
  controlEl: FakeEl;
  components: AnyComponent[] = [];
  constructor(containerEl: FakeEl) {
    this.settingEl = containerEl.createDiv({ cls: "setting-item" });
    this.infoEl = this.settingEl.createDiv({ cls: "setting-item-info" });
    this.nameEl = this.infoEl.createDiv({ cls: "setting-item-name" });
    this.descEl = this.infoEl.createDiv({ cls: "setting-item-description" });
    this.controlEl = this.settingEl.createDiv({ cls: "setting-item-control" });
    Setting.all.push(this);
  }
  setName(n: string): this {
    this.nameEl.setText(n);
    return this;
  }
  setDesc(d: string): this {
    this.descEl.setText(d);
    return this;
  }
  setClass(c: string): this {
    this.settingEl.addClass(c);
    return this;
  }
  setHeading(): this {
    return this;
  }
  private add<T extends AnyComponent>(c: T, cb: (c: T) => unknown): this {
    this.components.push(c);
    cb(c);
    return this;
  }
  addText(cb: (c: TextComponent) => unknown): this {
    return this.add(new TextComponent(this.controlEl), cb);
  }
  addTextArea(cb: (c: TextAreaComponent) => unknown): this {
    return this.add(new TextAreaComponent(this.controlEl), cb);
  }
  addDropdown(cb: (c: DropdownComponent) => unknown): this {
    return this.add(new DropdownComponent(this.controlEl), cb);
  }
  addToggle(cb: (c: ToggleComponent) => unknown): this {
    return this.add(new ToggleComponent(this.controlEl), cb);
  }
  addButton(cb: (c: ButtonComponent) => unknown): this {
    return this.add(new ButtonComponent(this.controlEl), cb);
  }
  /** Every Setting made, so tests can find a form's controls. */
  static all: Setting[] = [];
}

export class MenuItem {
  title = "";
  icon = "";
  private cb: ((evt: unknown) => unknown) | null = null;
  setTitle(t: string): this {
    this.title = t;
    return this;
  }
  setIcon(i: string): this {
    this.icon = i;
    return this;
  }
  onClick(cb: (evt: unknown) => unknown): this {
    this.cb = cb;
    return this;
  }
  click(): void {
    void this.cb?.({});
  }
}

export class Menu {
  static last: Menu | null = null;
  items: MenuItem[] = [];
  addItem(cb: (item: MenuItem) => unknown): this {
    const item = new MenuItem();
    cb(item);
    this.items.push(item);
    return this;
  }
  addSeparator(): this {
    return this;
  }
  showAtMouseEvent(_evt: unknown): this {
    Menu.last = this;
    return this;
  }
  showAtPosition(_p: unknown): this {
    Menu.last = this;
    return this;
  }
}

/** createFragment is Obsidian's global: an empty fragment with its DOM helpers. */
(globalThis as unknown as { createFragment: () => FakeEl }).createFragment = () => new FakeEl("#fragment");

// --- Search (the search modal and view, src/obsidian/search-*.ts) ---
// The DOM calls they make beyond the above, as a browser has them:
// before (the modal's filters go between its input and its hits),
// dispatchEvent (a filter chosen searches again as a keystroke does:
// Obsidian's SuggestModal listens to its input's "input" events), focus.

declare module "./dom" {
  interface FakeEl {
    /** before moves els among this element's parent's children, in order, right before this one. */
    before(...els: FakeEl[]): void;
    dispatchEvent(e: { type: string }): boolean;
    focus(): void;
    /** Whether focus() was called on it last (of all elements). */
    focused: boolean;
  }
}

let focusedEl: FakeEl | null = null;
FakeEl.prototype.before = function (this: FakeEl, ...els: FakeEl[]): void {
  const parent = this.parent;
  if (parent === null) throw new Error("before: the element has no parent");
  for (const el of els) {
    if (el.parent !== null) el.parent.children = el.parent.children.filter((c) => c !== el);
    el.parent = parent;
    parent.children.splice(parent.children.indexOf(this), 0, el);
  }
};
FakeEl.prototype.dispatchEvent = function (this: FakeEl, e: { type: string }): boolean {
  this.dispatch(e.type, e);
  return true;
};
FakeEl.prototype.focus = function (this: FakeEl): void {
  focusedEl = this;
};
Object.defineProperty(FakeEl.prototype, "focused", {
  get(this: FakeEl) {
    return focusedEl === this;
  },
});

/** A SuggestModal, when it opens, listens to its input's "input" events as Obsidian's does. */
const listening = new WeakSet<object>();
const suggestOpen = SuggestModal.prototype.open;
SuggestModal.prototype.open = function <T>(this: SuggestModal<T>): void {
  if (!listening.has(this)) {
    listening.add(this);
    this.inputEl.addEventListener("input", () => this.type(this.inputEl.value));
  }
  suggestOpen.call(this);
};

// --- end of the search block ---
