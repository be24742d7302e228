// Whether the core can use a time zone: the settings tab's check of the
// vault's zone (src/obsidian/settings-tab.ts). The device's Intl is the
// fast first check, but the core is what uses the zone, with the tzdata
// compiled into it (core/handle.go, newEnv: time.LoadLocation, names
// case-sensitive), so a zone the device knows may still be one the core
// refuses ("asia/tokyo": Intl takes it, the core does not), and every call
// would then fail. The core is asked the cheapest way it has: a read-only
// call (mem_list) with the zone set, on an empty vault held in memory; the
// core checks the zone before anything else, and answers a zone it cannot
// load with INVALID_ARGUMENT on the parameter "tz".

import { MemoryVault } from "./rehearsal";
import type { CallOverrides, Host } from "./service";

/** What asking the core needs: a call on a given vault (Host.callOn). */
export type ZoneCall = Host["callOn"];

/**
 * coreZoneVerdict is what an answer (the JSON a call printed) says of its
 * zone: true when the core took it (a success), false when it refused it
 * (INVALID_ARGUMENT, parameter "tz"), null when the answer says neither (a
 * call stopped at its time limit, or cancelled: the core did not say).
 */
export function coreZoneVerdict(answer: string): boolean | null {
  const a = JSON.parse(answer) as { ok?: boolean; error?: { code?: string; details?: { parameter?: unknown } } };
  if (a.ok === true) return true;
  if (a.error?.code === "INVALID_ARGUMENT" && a.error.details?.parameter === "tz") return false;
  return null;
}

/**
 * CoreZones asks the core whether it can use a zone, once per name: the
 * core's zones are compiled into it, so a verdict holds as long as the
 * plugin runs.
 */
export class CoreZones {
  private verdicts = new Map<string, boolean>();

  constructor(
    private call: ZoneCall,
    private clock: () => Date,
  ) {}

  /**
   * knows resolves true when the core takes tz, false when it refuses it,
   * null when it could not be asked (its engine failed, the call was
   * stopped): then the device's verdict is all there is.
   */
  async knows(tz: string): Promise<boolean | null> {
    const kept = this.verdicts.get(tz);
    if (kept !== undefined) return kept;
    const o: CallOverrides = { tz, now: this.clock() };
    let verdict: boolean | null;
    try {
      verdict = coreZoneVerdict((await this.call(new MemoryVault(), "mem_list", {}, o)).answer);
    } catch {
      return null;
    }
    if (verdict !== null) this.verdicts.set(tz, verdict);
    return verdict;
  }
}
