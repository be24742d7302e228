// Loads the real built main.js as Obsidian does, with the fake `obsidian`
// module, and returns the plugin instance.

import type { RoundRequest, Stepped } from "../../src/host/call";
import * as obsidian from "./obsidian";

export const manifest = { id: "kessho", name: "Kessho", version: "0.1.0", minAppVersion: "1.4.0", isDesktopOnly: false };

/** The parts of the plugin the tests reach. */
export interface LoadedPlugin {
  app: obsidian.App;
  api: {
    call(tool: string, args?: unknown, o?: { now?: string | Date; tz?: string; lang?: string }): Promise<unknown>;
    callText(tool: string, args?: unknown, o?: { now?: string | Date; tz?: string; lang?: string }): Promise<string>;
    catalog: { tools: { name: string; title: { en: string; fr: string }; params: { name: string; type: string }[] }[] };
  };
  settings: { lang: string; tz: string; deadline: number; rehearse: boolean };
  /** Resolves when the rehearsal after start has ended, with the calls it made. */
  rehearsed: Promise<number>;
  clock: () => Date;
  engine: {
    started: number;
    workerCalls: number;
    overdue: number;
    recycled: number;
    warmed: number;
    coldRequests: number;
    step(input: string, round?: RoundRequest): Promise<Stepped>;
    warm(): Promise<void>;
  };
  commands: obsidian.Command[];
  ribbonIcons: { icon: string; title: string; callback: (evt: unknown) => unknown }[];
  settingTabs: obsidian.PluginSettingTab[];
  drafts: Map<string, Record<string, string | boolean>>;
  lang(): string;
  /** Asks the core whether it can use a zone (src/host/zone.ts); tests replace it to inject a verdict. */
  zoneKnown(tz: string): Promise<boolean | null>;
  onload(): Promise<void>;
  unload(): void;
}

/**
 * loadPlugin evaluates main.js as Obsidian does and loads its plugin in
 * app. Its rehearsal after start (src/host/rehearsal.ts) is off, as a
 * saved setting, unless rehearse is set or app's saved data says
 * otherwise: its calls would run beside a test's own and change what the
 * test counts; the tests of the rehearsal turn it on. modules are what
 * main.js's require gives besides "obsidian": none unless a test says
 * (Obsidian's desktop app gives Node's, "fs" among them).
 */
export async function loadPlugin(mainJs: string, app: obsidian.App, o: { rehearse?: boolean; modules?: Record<string, unknown> } = {}): Promise<LoadedPlugin> {
  const saved = (app.data[manifest.id] ?? {}) as Record<string, unknown>;
  if (o.rehearse !== undefined || !("rehearse" in saved)) app.data[manifest.id] = { ...saved, rehearse: o.rehearse ?? false };
  const mod: { exports: Record<string, unknown> } = { exports: {} };
  const req = (id: string): unknown => {
    if (id === "obsidian") return obsidian;
    if (o.modules !== undefined && id in o.modules) return o.modules[id];
    throw new Error(`main.js asked for ${JSON.stringify(id)}: only "obsidian" is provided by the app`);
  };
  // Obsidian's plugins run in a window; under Node the global object stands for it (its timers).
  const win = typeof window === "undefined" ? globalThis : window;
  new Function("module", "exports", "require", "window", mainJs)(mod, mod.exports, req, win);
  const Cls = mod.exports["default"] as new (app: obsidian.App, m: typeof manifest) => LoadedPlugin;
  const plugin = new Cls(app, manifest);
  await plugin.onload();
  app.plugins.plugins[manifest.id] = plugin;
  return plugin;
}
