// Kessho for Obsidian: lifecycle and registration only. The logic is in
// src/host (the call loop), src/engine (the wasm core) and src/catalog
// (forms); what touches Obsidian's API is in src/obsidian.

import { getLanguage, moment, Notice, Plugin, requireApiVersion } from "obsidian";
import { compressedLength, packed } from "kessho:wasm";
import catalogJSON from "./generated/catalog.json";
import { makeAPI, type KesshoAPI } from "./api";
import type { Catalog, Lang } from "./catalog/catalog";
import type { Values } from "./catalog/form";
import { unpack } from "./engine/unpack";
import { warmupRequest } from "./engine/warmup";
import { decompress, WasmEngine } from "./engine/wasm";
import { Host } from "./host/service";
import { words, type Words } from "./i18n";
import { buttons, showMenu } from "./obsidian/actions";
import { RecallView, recallViewType } from "./obsidian/recall-view";
import { KesshoSettingTab } from "./obsidian/settings-tab";
import type { Answer } from "./obsidian/tool-modal";
import { ObsidianVault } from "./obsidian/vault-port";
import { mergeSettings, resolveLang, resolveTZ, type Settings } from "./settings";

/** hasWasm reports whether this device runs WebAssembly (iOS Lockdown Mode removes it). */
function hasWasm(): boolean {
  return typeof WebAssembly === "object" && typeof WebAssembly.compile === "function";
}

export default class KesshoPlugin extends Plugin {
  override settings: Settings = mergeSettings(null);
  catalog: Catalog = catalogJSON as Catalog;
  drafts = new Map<string, Values>();
  /** The clock calls use; tests replace it. */
  clock: () => Date = () => new Date();
  engine!: WasmEngine;
  host!: Host;
  api!: KesshoAPI;

  override async onload(): Promise<void> {
    this.settings = mergeSettings(await this.loadData());
    this.engine = new WasmEngine(async () => {
      // Without WebAssembly (iOS Lockdown Mode) every call says why, in words a person can act on.
      if (!hasWasm()) throw new Error(this.words().noWasm);
      return WebAssembly.compile(decompress(unpack(packed, compressedLength)));
    }, warmupRequest);
    this.host = new Host(this.engine, new ObsidianVault(this.app), {
      clock: () => this.clock(),
      tz: () => resolveTZ(this.settings),
      lang: () => this.lang(),
    });
    this.api = makeAPI(this.host, this.catalog);

    for (const b of buttons(this)) this.addCommand({ id: b.id, name: b.name, icon: b.icon, callback: b.run });
    this.registerView(recallViewType, (leaf) => new RecallView(leaf, this));
    this.addRibbonIcon("gem", words(this.lang()).ribbon, (evt) => showMenu(this, evt));
    this.addSettingTab(new KesshoSettingTab(this.app, this));
    // Compile the core once the app is ready, so the first button press is
    // quick; or say once, at start, that it cannot run here.
    this.app.workspace.onLayoutReady(() => {
      if (!hasWasm()) new Notice(this.words().noWasm, 0);
      else void this.engine.warm().catch(() => undefined);
    });
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

  async run(tool: string, args: Record<string, unknown>): Promise<Answer> {
    return (await this.api.call(tool, args)) as Answer;
  }

  async saveSettings(): Promise<void> {
    await this.saveData(this.settings);
  }
}
