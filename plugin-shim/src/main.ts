// Kessho for Obsidian: lifecycle and registration only. The logic is in
// src/host (the call loop), src/engine (the wasm core, run in a Web
// Worker) and src/catalog (forms); what touches Obsidian's API is in
// src/obsidian.

import { getLanguage, moment, Notice, Platform, Plugin, requireApiVersion } from "obsidian";
import { compressedLength, packedSource } from "kessho:wasm";
import { source as workerSource } from "kessho:worker";
import catalogJSON from "./generated/catalog.json";
import { makeAPI, type KesshoAPI } from "./api";
import type { Catalog, Lang } from "./catalog/catalog";
import type { Values } from "./catalog/form";
import { previewCall } from "./catalog/preview";
import type { CoreWorker } from "./engine/protocol";
import { RemoteEngine } from "./engine/remote";
import { InThread } from "./engine/serve";
import { packedIn } from "./engine/unpack";
import { keepOwn, type OwnStore } from "./host/journal";
import { rehearse } from "./host/rehearsal";
import { Host } from "./host/service";
import { CoreZones } from "./host/zone";
import { words, workWords, type Words } from "./i18n";
import { buttons, showMenu } from "./obsidian/actions";
import { RecallView, recallViewType } from "./obsidian/recall-view";
import { SearchView, searchViewType } from "./obsidian/search-view";
import { KesshoSettingTab } from "./obsidian/settings-tab";
import { WorkStatus } from "./obsidian/status";
import type { Answer, Preview } from "./obsidian/tool-modal";
import { ObsidianVault } from "./obsidian/vault-port";
import { mergeSettings, resolveLang, resolveTZ, type Settings } from "./settings";

/** hasWasm reports whether this device runs WebAssembly (iOS Lockdown Mode removes it). */
function hasWasm(): boolean {
  return typeof WebAssembly === "object" && typeof WebAssembly.compile === "function";
}

/** whenIdle runs f when the UI thread is idle (within 2 s), or soon where requestIdleCallback is missing (Safari). */
function whenIdle(f: () => void): void {
  if (typeof window.requestIdleCallback === "function") window.requestIdleCallback(f, { timeout: 2000 });
  else window.setTimeout(f, 0);
}

export default class KesshoPlugin extends Plugin {
  override settings: Settings = mergeSettings(null);
  catalog: Catalog = catalogJSON as Catalog;
  drafts = new Map<string, Values>();
  /** The clock calls use; tests replace it. */
  clock: () => Date = () => new Date();
  engine!: RemoteEngine;
  /** The worker's script as a Blob URL, made at the first worker and revoked at unload. */
  private workerURL: string | null = null;
  host!: Host;
  api!: KesshoAPI;
  /** The core's verdicts on time zones (src/host/zone.ts): the settings tab's check. */
  zones!: CoreZones;
  /** Set at unload: a rehearsal under way stops. */
  private unloaded = false;
  private rehearsalDone: (calls: number) => void = () => undefined;
  /** Resolves once the rehearsal after start has ended, with the calls it made (0: none; src/host/rehearsal.ts). */
  readonly rehearsed: Promise<number> = new Promise((r) => (this.rehearsalDone = r));

  override async onload(): Promise<void> {
    this.settings = mergeSettings(await this.loadData(), Platform.isMobile);
    const own = this.ownStore();
    if (own !== null) keepOwn(own);
    let packed: string | undefined;
    this.engine = new RemoteEngine({
      spawn: () => this.spawn(false),
      fallback: () => this.spawn(true),
      // The packed module as main.js holds it: the worker unpacks, decompresses and compiles it.
      // Read out of main.js's source once, for every worker that starts.
      load: () => ({ kind: "load", packed: (packed ??= packedIn(packedSource)), length: compressedLength }),
      deadlineMs: () => this.settings.deadline * 1000,
      overdue: (ms) => this.words().overdue.replace("{s}", String(ms / 1000)),
      // A stopped worker's replacement starts when the UI thread is idle (a Notice may be rendering).
      idle: whenIdle,
    });
    // Long work (a first index build, a big dry run) in the status bar, a click to stop it.
    const status = new WorkStatus(this.addStatusBarItem(), () => workWords(this.lang()));
    this.host = new Host(this.engine, new ObsidianVault(this.app), {
      clock: () => this.clock(),
      tz: () => resolveTZ(this.settings),
      lang: () => this.lang(),
      watch: () => status.watch(),
    });
    this.api = makeAPI(this.host, this.catalog);
    this.zones = new CoreZones((v, tool, args, o) => this.host.callOn(v, tool, args, o), () => this.clock());

    for (const b of buttons(this)) this.addCommand({ id: b.id, name: b.name, icon: b.icon, callback: b.run });
    this.registerView(recallViewType, (leaf) => new RecallView(leaf, this));
    this.registerView(searchViewType, (leaf) => new SearchView(leaf, this));
    this.addRibbonIcon("gem", words(this.lang()).ribbon, (evt) => showMenu(this, evt));
    this.addSettingTab(new KesshoSettingTab(this.app, this));
    // Compile the core in its worker once the app is ready and idle, so
    // that the first button press is quick and start-up never waits, then
    // rehearse; or say once, at start, that it cannot run here.
    this.app.workspace.onLayoutReady(() => {
      if (!hasWasm()) {
        new Notice(this.words().noWasm, 0);
        this.rehearsalDone(0);
      } else whenIdle(() => void this.startCore());
    });
  }

  /** startCore compiles the core in its worker, then rehearses; rehearsed says how many calls that made. */
  private async startCore(): Promise<void> {
    let calls = 0;
    try {
      await this.engine.warm();
      // A plan this plugin left half-way before it was stopped: finished now, not at the first call.
      if (!this.unloaded) await this.host.recover().catch(() => 0);
      calls = await this.rehearse();
    } catch {
      // A failed compile is said at the first call; a failed rehearsal is dropped.
    }
    this.rehearsalDone(calls);
  }

  /**
   * rehearse makes the rehearsal's calls (src/host/rehearsal.ts), each
   * when the UI thread is idle and no call of the user's is waiting, on a
   * project held in memory; it resolves with the calls made. A failed
   * rehearsal is dropped: the user's calls do not depend on it.
   */
  private async rehearse(): Promise<number> {
    if (!this.settings.rehearse) return 0;
    return rehearse({
      call: async (v, tool, args) => (await this.host.callOn(v, tool, args, { tz: "UTC" })).answer,
      idle: async () => {
        do await new Promise<void>((r) => whenIdle(r));
        while (this.host.busy() && !this.unloaded);
      },
      stopped: () => this.unloaded || !this.settings.rehearse,
    });
  }

  override onunload(): void {
    this.unloaded = true;
    this.engine.stop();
    if (this.workerURL !== null) URL.revokeObjectURL(this.workerURL);
    this.workerURL = null;
  }

  /**
   * spawn starts the core's worker: a classic worker from a Blob URL of
   * the script main.js carries. Where there is no Worker (or it cannot
   * start), or when inThread, the same code runs on this thread (InThread).
   */
  private spawn(inThread: boolean): CoreWorker {
    // Without WebAssembly (iOS Lockdown Mode) every call says why, in words a person can act on.
    if (!hasWasm()) throw new Error(this.words().noWasm);
    if (inThread || typeof Worker === "undefined") return new InThread();
    try {
      this.workerURL ??= URL.createObjectURL(new Blob([workerSource], { type: "text/javascript" }));
      return new Worker(this.workerURL, { name: "kessho-core" }) as unknown as CoreWorker;
    } catch {
      return new InThread();
    }
  }

  /**
   * ownStore is where the ids of the journals this plugin wrote outlive
   * a restart (src/host/journal.ts, OwnStore): Obsidian's localStorage for
   * this vault, on this device; null where it has none (then they live as
   * long as the process).
   */
  private ownStore(): OwnStore | null {
    const key = "kessho-own-journals";
    const app = this.app as unknown as { loadLocalStorage?: (k: string) => unknown; saveLocalStorage?: (k: string, v: unknown) => void };
    if (typeof app.loadLocalStorage !== "function" || typeof app.saveLocalStorage !== "function") return null;
    const load = app.loadLocalStorage.bind(app);
    const save = app.saveLocalStorage.bind(app);
    return {
      load: () => (load(key) as string[] | null) ?? [],
      save: (ids) => save(key, ids.length === 0 ? null : ids),
    };
  }

  /** lang is the language of calls and forms: the setting, or Obsidian's. */
  lang(): Lang {
    // getLanguage came with Obsidian 1.8.7; before it, moment's locale is the app's.
    const app = requireApiVersion("1.8.7") ? getLanguage() : moment.locale();
    return resolveLang(this.settings, app);
  }

  words(): Words {
    return words(this.lang());
  }

  async run(tool: string, args: Record<string, unknown>, now?: Date): Promise<Answer> {
    return (await this.api.call(tool, args, now === undefined ? {} : { now })) as Answer;
  }

  /** preview makes the call at now on a copy of the vault held in memory: what it would write (src/catalog/preview.ts). */
  preview(tool: string, args: Record<string, unknown>, now: Date): Promise<Preview> {
    return previewCall<Answer>(this.host, tool, args, now);
  }

  /** zoneKnown asks the core whether it can use tz (true, false; null: it could not be asked). */
  zoneKnown(tz: string): Promise<boolean | null> {
    return this.zones.knows(tz);
  }

  async saveSettings(): Promise<void> {
    await this.saveData(this.settings);
  }
}
