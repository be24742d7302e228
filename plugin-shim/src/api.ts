// The programmatic API: app.plugins.plugins["kessho"].api
//
//	const answer = await api.call("mem_update_phase", { slug: "alpha", phase: "review" });
//	// { ok: true, result: { … } } or { ok: false, error: { code, message, details } },
//	// the same object `kessho call` prints.

import type { Catalog } from "./catalog/catalog";
import type { CallOverrides, Host } from "./host/service";

export interface KesshoAPI {
  /** call runs a tool and returns the answer `kessho call` prints, parsed. */
  call(tool: string, args?: unknown, overrides?: CallOverrides): Promise<unknown>;
  /** callText is call returning the answer's JSON text, byte for byte what `kessho call` prints. */
  callText(tool: string, args?: unknown, overrides?: CallOverrides): Promise<string>;
  /** catalog is the catalogue of the core this plugin carries. */
  readonly catalog: Catalog;
}

export function makeAPI(host: Host, catalog: Catalog): KesshoAPI {
  return {
    async call(tool, args, overrides) {
      return JSON.parse((await host.call(tool, args, overrides)).answer) as unknown;
    },
    async callText(tool, args, overrides) {
      return (await host.call(tool, args, overrides)).answer;
    },
    catalog,
  };
}
