// The status bar's item of long work (issue 31, item 5): while a call
// reads many files (a first search index build, a big dry run) it shows
// how far the call got, and a click stops it at its next batch (call.ts,
// Cancelled: nothing written, the answer says how far it got). A call
// that reads a few files never shows it.

import type { Watch, WorkProgress } from "../host/call";
import type { WorkWords } from "../i18n";

/** The files a call reads before its work is shown: a warm call reads a handful, a first index build or a big dry run hundreds. */
export const showAfterReads = 256;

/** The part of an element (Obsidian's HTMLElement, the test's fake) the item uses. */
export interface StatusEl {
  setText(text: string): void;
  setAttr(name: string, value: string): void;
  addClass(...cls: string[]): void;
  toggleClass(cls: string, on: boolean): void;
  addEventListener(type: "click", fn: () => void): void;
}

/** The call being watched: cancelled once the item was clicked. */
interface Running {
  cancelled: boolean;
  shown: boolean;
}

/**
 * WorkStatus is the item: calls run one at a time (Host), so it watches
 * one at a time; watch starts following the next, done ends it.
 */
export class WorkStatus {
  private running: Running | null = null;

  constructor(
    private el: StatusEl,
    private words: () => WorkWords,
  ) {
    el.addClass("kessho-status");
    el.setAttr("role", "button");
    el.addEventListener("click", () => this.cancel());
    this.hide();
  }

  /** watch follows a call from its turn: the item shows once its work is long, and done hides it. */
  watch(): Watch & { done(): void } {
    const r: Running = { cancelled: false, shown: false };
    this.running = r;
    return {
      progress: (p) => this.progress(r, p),
      cancelled: () => r.cancelled,
      done: () => {
        if (this.running === r) this.running = null;
        this.hide();
      },
    };
  }

  /** cancel stops the call shown at its next batch; a click when none is shown does nothing. */
  cancel(): void {
    const r = this.running;
    if (r === null || !r.shown || r.cancelled) return;
    r.cancelled = true;
    this.el.setText(this.words().stopping);
  }

  private progress(r: Running, p: WorkProgress): void {
    if (this.running !== r || r.cancelled) return;
    const indexing = p.indexed !== undefined && p.left !== undefined && p.left > 0;
    if (!indexing && p.read < showAfterReads) return;
    const w = this.words();
    const text = indexing ? w.indexing.replace("{n}", String(p.indexed)).replace("{m}", String(p.indexed! + p.left!)) : w.reading.replace("{n}", String(p.read));
    this.el.setText(text);
    if (!r.shown) {
      r.shown = true;
      this.el.setAttr("aria-label", w.stopHint);
      this.el.toggleClass("kessho-idle", false);
    }
  }

  private hide(): void {
    this.el.setText("");
    this.el.toggleClass("kessho-idle", true);
  }
}
