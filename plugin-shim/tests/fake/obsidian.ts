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

export class Notice {
  static messages: string[] = [];
  noticeEl = new FakeEl("div");
  constructor(
    public message: string | unknown,
    _timeout?: number,
  ) {
    Notice.messages.push(String(message));
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

export class Workspace {
  activeFile: TFile | null = null;
  layoutReady = true;
  private readyCbs: (() => void)[] = [];
  getActiveFile(): TFile | null {
    return this.activeFile;
  }
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
  constructor(files: Record<string, Uint8Array | string> = {}) {
    this.vault = new FakeVault(files);
    this.fileManager = new FileManager(this.vault);
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
  addSettingTab(t: PluginSettingTab): void {
    this.settingTabs.push(t);
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
    return this;
  }
  setWarning(): this {
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
