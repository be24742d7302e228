// Host is what the plugin and its API call: one call at a time through the
// host loop (call.ts), with the time, zone and language filled in.

import { call, runSteps, type Engine, type Outcome, type Watch } from "./call";
import { journalDir, ownJournals } from "./journal";
import type { VaultPort } from "./port";

/** Per-call overrides: tests pin time, zone and language this way. */
export interface CallOverrides {
  /** RFC 3339 text or a Date; default: the host's clock. */
  now?: string | Date;
  /** IANA zone; "" is UTC. Default: the settings'. */
  tz?: string;
  /** "en" or "fr" ("" is English). Default: the settings'. */
  lang?: string;
}

/** The surroundings a Host reads at each call. */
export interface HostEnv {
  clock: () => Date;
  tz: () => string;
  lang: () => "en" | "fr";
  /** watch, when given, follows each call on the vault (not the rehearsal's) from its turn to its end (done): the status bar's item. */
  watch?: () => Watch & { done(): void };
}

export class Host {
  private queue: Promise<unknown> = Promise.resolve();
  /** Calls asked and not yet answered. */
  private pending = 0;

  constructor(
    readonly engine: Engine,
    readonly vault: VaultPort,
    private env: HostEnv,
    private lockWaitMs?: number,
  ) {}

  /**
   * call runs tool with args (an object, or its JSON text) and returns the
   * outcome; its answer is the text `kessho call` prints. Calls are queued:
   * one runs at a time.
   */
  call(tool: string, args?: unknown, o: CallOverrides = {}): Promise<Outcome> {
    return this.callOn(this.vault, tool, args, o);
  }

  /** busy tells whether a call is running or waiting for its turn. */
  busy(): boolean {
    return this.pending > 0;
  }

  /**
   * recover finishes, at once, the plans this plugin left half-way (its
   * journals, their ids kept across restarts: journal.ts's own) when they
   * are all the journals there are: the plugin's start runs it once the
   * core is ready, so that a plan a crash or a close left half-way is
   * finished before the user's first call, with no wait (issue 31, item
   * 6). A journal another host wrote is left to the next call, which
   * leaves it to its writer for the lock's wait when it is young. It
   * resolves with the journals it rolled forward; a failure is the next
   * call's to say. In the calls' queue.
   */
  recover(): Promise<number> {
    const run = async () => {
      const journals = (await this.vault.state.list(journalDir)) ?? [];
      const listed = journals.filter((n) => n.endsWith(".json"));
      const own = ownJournals();
      if (listed.length === 0 || !listed.every((n) => own.includes(n.slice(0, -".json".length)))) return 0;
      const start = { lang: this.env.lang(), journals, wait_ms: this.lockWaitMs ?? 10_000, own };
      const end = await runSteps(this.vault, this.engine, start, this.lockWaitMs === undefined ? {} : { lockWaitMs: this.lockWaitMs });
      return end.ok === true ? listed.length : 0;
    };
    this.pending++;
    const next = this.queue.then(run).finally(() => this.pending--);
    this.queue = next.catch(() => undefined);
    return next;
  }

  /** callOn is call on another vault (the rehearsal's, held in memory), in the same queue as the others. */
  callOn(v: VaultPort, tool: string, args?: unknown, o: CallOverrides = {}): Promise<Outcome> {
    if (typeof args === "string") JSON.parse(args); // throws on text that is not JSON, as `kessho call --json` refuses it
    const argsText = typeof args === "string" || args === undefined ? args : JSON.stringify(args);
    const at = o.now ?? this.env.clock();
    const opts = {
      tz: o.tz ?? this.env.tz(),
      lang: o.lang ?? this.env.lang(),
      ...(this.lockWaitMs === undefined ? {} : { lockWaitMs: this.lockWaitMs }),
    };
    // The time as given: the core writes it as the Go host writes --now.
    const now = typeof at === "string" ? at : at.toISOString();
    this.pending++;
    const run = async () => {
      const watch = v === this.vault ? this.env.watch?.() : undefined;
      try {
        return await call(v, this.engine, tool, argsText, watch === undefined ? { ...opts, now } : { ...opts, now, watch });
      } finally {
        watch?.done();
      }
    };
    const next = this.queue.then(run).finally(() => this.pending--);
    this.queue = next.catch(() => undefined);
    return next;
  }
}
