// A form a person fills for one tool (src/catalog/people.ts): the few
// fields of the form, the others under "More", facts in an atom editor,
// lists as chips, a counter on a bounded text. A form whose call writes
// several notes or changes a mode shows what it will write (a preview
// call, src/catalog/preview.ts) and writes only when told. On a refusal
// the modal stays open with everything the user typed, and says why.

import { MarkdownRenderer, Modal, Notice, Setting, type App, type ButtonComponent, type Component } from "obsidian";
import { textIn, type Lang, type Tool } from "../catalog/catalog";
import { argsFrom, type AtomValue, type Field, type PairValue, type Values } from "../catalog/form";
import { inObsidian, shownRefusal, type RefusalWords } from "../catalog/host-words";
import { people } from "../catalog/people";
import { lineDiff, type Change } from "../catalog/preview";
import type { Words } from "../i18n";
import { messageOf } from "../host/port";

/** What a run gives the modal back: the answer the host printed, parsed. */
export type Answer =
  | { ok: true; result: { summary_md?: string; warnings?: string[] } & Record<string, unknown> }
  | { ok: false; error: { code: string; message: string; details?: unknown } };

/** A preview's outcome: the answer the call would give, and what it would write. */
export interface Preview {
  answer: Answer;
  changes: Change[];
}

export interface ToolModalOptions {
  tool: Tool;
  lang: Lang;
  words: Words;
  /** The form's fields (src/catalog/form.ts, personFields). */
  fields: Field[];
  /** The form's values; the modal edits this object in place. */
  values: Values;
  /** What prefilled fields started with: one left so is not sent. */
  baseline?: Values;
  /** What the answer's Markdown is rendered for (the plugin): its lifetime bounds the rendering's. */
  component: Component;
  run: (args: Record<string, unknown>) => Promise<Answer>;
  /** preview runs the call on a copy held in memory: what it would write. Absent: the form writes at once. */
  preview?: (args: Record<string, unknown>) => Promise<Preview>;
  /** shown turns an answer into the words of the plugin's buttons and of this form (shownAnswer). */
  shown?: (a: Answer) => Answer;
  /**
   * remember is told, after each attempt, whether the values are worth
   * keeping for the next time the form opens: true after a refusal, false
   * after a success.
   */
  remember?: (keep: boolean) => void;
}

/**
 * shownAnswer is an answer as the plugin's screens show it
 * (src/catalog/host-words.ts): a refusal naming the command, button, field
 * or setting to use; a success's summary and warnings in the same words.
 */
export function shownAnswer(lang: Lang, a: Answer, w: RefusalWords): Answer {
  if (!a.ok) return { ok: false, error: { ...a.error, message: shownRefusal(lang, a.error, w) } };
  const result = { ...a.result };
  if (typeof result.summary_md === "string") result.summary_md = inObsidian(lang, result.summary_md);
  if (Array.isArray(result.warnings)) result.warnings = result.warnings.map((m) => inObsidian(lang, m));
  return { ok: true, result };
}

/** resultText is what a Notice shows for an answer. */
export function resultText(a: Answer): string {
  if (!a.ok) return a.error.message;
  const parts = [a.result.summary_md ?? ""];
  for (const w of a.result.warnings ?? []) parts.push("⚠ " + w);
  return parts.filter((s) => s !== "").join("\n");
}

/**
 * notify shows an answer in a Notice: a success's summary_md (and
 * warnings) rendered by Obsidian's Markdown renderer, as people read it
 * (`Phase of **alpha** set to \`review\`` shows bold and code, not stars
 * and backticks); a refusal's message as plain text (the core writes it
 * plain).
 */
export async function notify(app: App, component: Component, a: Answer): Promise<void> {
  if (!a.ok) {
    new Notice(a.error.message);
    return;
  }
  const frag = createFragment();
  await MarkdownRenderer.render(app, resultText(a), frag.createDiv({ cls: "kessho-notice" }), "", component);
  new Notice(frag);
}

export class ToolModal extends Modal {
  private errorEl: HTMLElement | null = null;
  private runButton: ButtonComponent | null = null;
  private busy = false;
  /** Text typed in chips inputs and not yet made a chip, by field. */
  private pending = new Map<string, () => void>();
  /** What sets a text field's control, by field (prefill). */
  private setters = new Map<string, (v: string) => void>();
  /** What shows a counted field's counter again, by field. */
  private counted = new Map<string, () => void>();

  constructor(
    app: App,
    private o: ToolModalOptions,
  ) {
    super(app);
  }

  override onOpen(): void {
    this.modalEl.addClass("kessho-modal");
    this.titleEl.setText(textIn(this.o.tool.title, this.o.lang));
    this.drawForm();
  }

  /** drawForm draws the fields (the form's, then "More", collapsed), the error line and the buttons. */
  private drawForm(): void {
    const { tool, lang, words, fields } = this.o;
    const el = this.contentEl;
    el.empty();
    this.pending.clear();
    this.setters.clear();
    this.counted.clear();
    const intro = people[tool.name]?.intro;
    el.createEl("p", { text: intro !== undefined ? textIn(intro, lang) : textIn(tool.description, lang), cls: "kessho-description" });
    for (const f of fields.filter((f) => f.more !== true)) this.drawField(el, f);
    const more = fields.filter((f) => f.more === true);
    if (more.length > 0) {
      const wrap = el.createDiv({ cls: "kessho-more" });
      const head = wrap.createDiv({ cls: "kessho-more-toggle", text: "▸ " + words.more });
      head.setAttr("role", "button");
      head.setAttr("tabindex", "0");
      const body = wrap.createDiv({ cls: "kessho-more-body" });
      body.addClass("is-collapsed");
      for (const f of more) this.drawField(body, f);
      const toggle = () => {
        const open = body.hasClass("is-collapsed");
        body.toggleClass("is-collapsed", !open);
        head.setText((open ? "▾ " : "▸ ") + words.more);
      };
      head.addEventListener("click", toggle);
      head.addEventListener("keydown", (evt) => {
        if (evt.key === "Enter") toggle();
      });
    }
    this.errorEl = el.createDiv({ cls: "kessho-error" });
    new Setting(el)
      .addButton((b) => {
        this.runButton = b;
        b.setButtonText(this.mainLabel())
          .setCta()
          .onClick(() => void this.submit());
      })
      .addButton((b) => b.setButtonText(words.cancel).onClick(() => this.close()));
  }

  /** mainLabel is the main button's text: the action's, or "Show what it will write" when the form previews. */
  private mainLabel(): string {
    const spec = people[this.o.tool.name];
    const built = argsFrom(this.o.tool, this.o.values, { fields: this.o.fields, baseline: this.o.baseline });
    if (this.o.preview !== undefined && spec?.preview !== undefined && "args" in built && spec.preview(built.args)) return this.o.words.preview;
    return spec !== undefined ? textIn(spec.button, this.o.lang) : this.o.words.run;
  }

  private relabel(): void {
    if (!this.busy) this.runButton?.setButtonText(this.mainLabel());
  }

  /** drawField draws one field in parent. */
  private drawField(parent: HTMLElement, f: Field): void {
    const { words, values } = this.o;
    const s = new Setting(parent).setName(f.label).setDesc(f.desc + (f.required && f.kind !== "toggle" && f.kind !== "dropdown" ? (f.desc === "" ? "" : " ") + words.required : ""));
    s.settingEl.addClass("kessho-field", `kessho-field-${f.kind}`);
    if (f.max !== undefined) s.settingEl.addClass("kessho-field-counted");
    const str = () => (typeof values[f.name] === "string" ? (values[f.name] as string) : "");
    const set = (v: string | boolean) => {
      values[f.name] = v;
      this.relabel();
    };
    switch (f.kind) {
      case "toggle":
        s.addToggle((t) => t.setValue(values[f.name] === true).onChange(set));
        break;
      case "dropdown":
        s.addDropdown((d) => {
          for (const opt of f.options ?? []) d.addOption(opt, opt === "" ? "—" : (f.optionLabels?.[opt] ?? opt));
          d.setValue(str()).onChange(set);
        });
        break;
      case "chips":
        this.drawChips(
          s,
          f.name,
          () => (Array.isArray(values[f.name]) ? (values[f.name] as string[]) : []),
          (v) => (values[f.name] = v),
        );
        break;
      case "atoms":
        this.drawAtoms(s, f);
        break;
      case "pairs":
        this.drawPairs(s, f);
        break;
      case "textarea":
      case "lines":
      case "json":
        s.addTextArea((t) => {
          t.setValue(str()).onChange(set);
          this.setters.set(f.name, (v) => {
            t.setValue(v);
            this.counted.get(f.name)?.();
          });
          t.inputEl.rows = f.kind === "textarea" ? (f.max !== undefined ? 3 : 5) : 3;
          t.inputEl.dataset["param"] = f.name;
          if (f.kind === "json") t.setPlaceholder("{ … }");
          if (f.max !== undefined) this.counted.set(f.name, this.drawCounter(s, t.inputEl, f.max));
        });
        break;
      case "number":
        s.addText((t) => {
          t.inputEl.type = "number";
          t.inputEl.dataset["param"] = f.name;
          t.setValue(str()).onChange(set);
        });
        break;
      default:
        s.addText((t) => {
          t.inputEl.dataset["param"] = f.name;
          t.setValue(str()).onChange(set);
          this.setters.set(f.name, (v) => {
            t.setValue(v);
          });
        });
    }
  }

  /** drawCounter shows "n / max characters" under a bounded text, red past max; it returns what shows it again. */
  private drawCounter(s: Setting, input: HTMLTextAreaElement | HTMLInputElement, max: number): () => void {
    const counter = s.controlEl.createDiv({ cls: "kessho-counter" });
    const show = () => {
      const n = [...input.value].length;
      counter.setText(this.o.words.counter.replace("{n}", String(n)).replace("{max}", String(max)));
      counter.toggleClass("is-over", n > max);
    };
    show();
    input.addEventListener("input", show);
    return show;
  }

  /** drawChips draws a list as chips, each with its remove button, and an input (data-param name) that adds one on Enter. */
  private drawChips(s: Setting, name: string, get: () => string[], put: (v: string[]) => void): void {
    const { words } = this.o;
    const box = s.controlEl.createDiv({ cls: "kessho-chips" });
    let input: HTMLInputElement | null = null;
    const redraw = () => {
      box.empty();
      get().forEach((c, i) => {
        const chip = box.createSpan({ cls: "kessho-chip", text: c });
        const x = chip.createEl("button", { cls: "kessho-chip-remove", text: "×", attr: { "aria-label": `${words.chipRemove} ${c}` } });
        x.addEventListener("click", () => {
          put(get().filter((_, j) => j !== i));
          redraw();
        });
      });
    };
    const add = () => {
      const v = input?.value.trim() ?? "";
      if (v === "") return;
      if (!get().includes(v)) put([...get(), v]);
      if (input) input.value = "";
      redraw();
    };
    this.pending.set(name, add);
    s.addText((t) => {
      input = t.inputEl;
      t.inputEl.dataset["param"] = name;
      t.setPlaceholder(words.chipPlaceholder);
      t.inputEl.addEventListener("keydown", (evt) => {
        if (evt.key !== "Enter" && evt.key !== ",") return;
        evt.preventDefault();
        add();
      });
      t.inputEl.addEventListener("blur", add);
    });
    s.settingEl.addClass("kessho-field-wide");
    redraw();
  }

  /** drawAtoms draws the atom editor: each fact (sentence, kind, why it holds, remove), then "Add a fact". */
  private drawAtoms(s: Setting, f: Field): void {
    const { words, values } = this.o;
    const atoms = () => (Array.isArray(values[f.name]) ? (values[f.name] as AtomValue[]) : []);
    s.settingEl.addClass("kessho-field-wide");
    const box = s.settingEl.createDiv({ cls: "kessho-atoms" });
    const redraw = () => {
      box.empty();
      atoms().forEach((a, i) => this.drawAtom(box.createDiv({ cls: "kessho-atom" }), f, a, i, redraw));
    };
    const add = new Setting(s.settingEl).addButton((b) =>
      b.setButtonText(words.addFact).onClick(() => {
        values[f.name] = [...atoms(), { fact: "", kind: f.options?.[0] ?? "", body: "" }];
        redraw();
      }),
    );
    add.settingEl.addClass("kessho-atom-add");
    redraw();
  }

  /** drawAtom draws fact i of the atom editor in card. */
  private drawAtom(card: HTMLElement, f: Field, a: AtomValue, i: number, redraw: () => void): void {
    const { words, values } = this.o;
    const wide = (s: Setting) => {
      s.settingEl.addClass("kessho-field-wide");
      return s;
    };
    wide(new Setting(card).setName(words.factFact).setDesc(words.factFactDesc)).addText((t) => {
      t.inputEl.dataset["param"] = `${f.name}.${i}.fact`;
      t.setValue(a.fact).onChange((v) => (a.fact = v));
    });
    wide(new Setting(card).setName(words.factKind)).addDropdown((d) => {
      for (const k of f.options ?? []) d.addOption(k, f.optionLabels?.[k] ?? k);
      d.setValue(a.kind).onChange((v) => (a.kind = v));
    });
    const body = wide(new Setting(card).setName(words.factBody).setDesc(words.factBodyDesc));
    body.settingEl.addClass("kessho-field-textarea");
    body.addTextArea((t) => {
      t.inputEl.dataset["param"] = `${f.name}.${i}.body`;
      t.inputEl.rows = 3;
      t.setValue(a.body).onChange((v) => (a.body = v));
    });
    const aliases = wide(new Setting(card).setName(words.factAliases).setDesc(words.factAliasesDesc));
    this.drawChips(
      aliases,
      `${f.name}.${i}.aliases`,
      () => a.aliases ?? [],
      (v) => (a.aliases = v),
    );
    new Setting(card).addButton((b) =>
      b.setButtonText(words.removeFact).onClick(() => {
        values[f.name] = (values[f.name] as AtomValue[]).filter((_, j) => j !== i);
        redraw();
      }),
    );
  }

  /**
   * drawPairs draws the properties editor (an object of free keys, as
   * Obsidian's Properties show a note's): a row per property, its name and
   * its value (text inputs, data-param name.i.key and name.i.value) and a
   * button that removes it, then "Add a property". No JSON is typed.
   */
  private drawPairs(s: Setting, f: Field): void {
    const { words, values } = this.o;
    const rows = () => (Array.isArray(values[f.name]) ? (values[f.name] as PairValue[]) : []);
    s.settingEl.addClass("kessho-field-wide");
    const box = s.settingEl.createDiv({ cls: "kessho-pairs" });
    const redraw = () => {
      box.empty();
      rows().forEach((row, i) => {
        const r = new Setting(box.createDiv({ cls: "kessho-pair" }));
        r.settingEl.addClass("kessho-pair-row");
        r.addText((t) => {
          t.inputEl.dataset["param"] = `${f.name}.${i}.key`;
          t.inputEl.addClass("kessho-pair-key");
          t.inputEl.setAttr("aria-label", words.propertyName);
          t.setPlaceholder(words.propertyName).setValue(row.key).onChange((v) => (row.key = v));
        });
        r.addText((t) => {
          t.inputEl.dataset["param"] = `${f.name}.${i}.value`;
          t.inputEl.addClass("kessho-pair-value");
          t.inputEl.setAttr("aria-label", words.propertyValue);
          t.setPlaceholder(words.propertyValue).setValue(row.value).onChange((v) => (row.value = v));
        });
        r.addButton((b) => {
          b.setButtonText("×").onClick(() => {
            values[f.name] = rows().filter((_, j) => j !== i);
            redraw();
          });
          b.buttonEl.addClass("kessho-pair-remove");
          b.buttonEl.setAttr("aria-label", words.removeProperty);
        });
      });
    };
    const add = new Setting(s.settingEl).addButton((b) =>
      b.setButtonText(words.addProperty).onClick(() => {
        values[f.name] = [...rows(), { key: "", value: "" }];
        redraw();
      }),
    );
    add.settingEl.addClass("kessho-pair-add");
    redraw();
  }

  /** loading marks the form while its prefilled fields are read. */
  loading(on: boolean): void {
    this.modalEl.toggleClass("kessho-loading", on);
  }

  /**
   * prefill takes what prefilled fields start with (the project's
   * context): the baseline (a field left so is not sent), and, when fill,
   * the value of each field the user has not typed in yet.
   */
  prefill(got: Record<string, string>, fill: boolean): void {
    const baseline = (this.o.baseline ??= {});
    for (const [param, v] of Object.entries(got)) {
      baseline[param] = v;
      if (!fill || this.o.values[param] !== "") continue;
      this.o.values[param] = v;
      this.setters.get(param)?.(v);
    }
    this.loading(false);
    this.relabel();
  }

  override onClose(): void {
    this.contentEl.empty();
  }

  /** build turns the values into the call's arguments, or says what the form itself refuses. */
  private build(): Record<string, unknown> | null {
    const { tool, lang, words, values, fields } = this.o;
    for (const add of this.pending.values()) add();
    for (const f of fields) {
      const v = values[f.name];
      const n = typeof v === "string" ? [...v].length : 0;
      if (f.max !== undefined && n > f.max) {
        this.refuse(words.tooLong.replace("{field}", f.label).replace("{n}", String(n)).replace("{max}", String(f.max)));
        return null;
      }
    }
    const built = argsFrom(tool, values, { fields, baseline: this.o.baseline });
    if ("error" in built) {
      this.refuse(lang === "fr" ? built.error.fr : built.error.en);
      return null;
    }
    return built.args;
  }

  private refuse(msg: string): void {
    this.showError(msg);
    new Notice(msg);
    this.o.remember?.(true);
  }

  /** submit runs the tool with the form's values (after showing what it will write, when it previews); the modal closes only on success. */
  async submit(): Promise<Answer | null> {
    if (this.busy) return null;
    const args = this.build();
    if (args === null) return null;
    const spec = people[this.o.tool.name];
    if (this.o.preview !== undefined && spec?.preview?.(args) === true) return this.attempt(async () => this.showPreview(args, await this.o.preview!(args)), this.o.words.previewing);
    return this.attempt(() => this.write(args), this.o.words.running);
  }

  /** attempt runs f with the main button disabled; an engine failure is said in the form and a Notice. */
  private async attempt(f: () => Promise<Answer | null>, busyText: string): Promise<Answer | null> {
    // The button pressed gets its text back; a preview drew new buttons meanwhile.
    const b = this.runButton;
    const label = b?.buttonEl.getText() ?? "";
    this.busy = true;
    b?.setDisabled(true).setButtonText(busyText);
    try {
      return await f();
    } catch (err) {
      this.refuse(this.o.words.engineFailed + messageOf(err));
      return null;
    } finally {
      this.busy = false;
      b?.setDisabled(false).setButtonText(label);
    }
  }

  /** write makes the call and shows its answer. */
  private async write(args: Record<string, unknown>): Promise<Answer> {
    const answer = this.shownAnswer(await this.o.run(args));
    this.o.remember?.(!answer.ok);
    await notify(this.app, this.o.component, answer);
    if (answer.ok) this.close();
    else this.showError(answer.error.message);
    return answer;
  }

  /** shownAnswer is an answer in the words of the plugin's buttons and of this form. */
  private shownAnswer(a: Answer): Answer {
    return this.o.shown === undefined ? a : this.o.shown(a);
  }

  /** showPreview shows what the call would write, with "Write" and "Back"; a refusal stays in the form. */
  private showPreview(args: Record<string, unknown>, p: Preview): Answer {
    const answer = this.shownAnswer(p.answer);
    if (!answer.ok) {
      this.o.remember?.(true);
      new Notice(answer.error.message);
      this.showError(answer.error.message);
      return answer;
    }
    const { words } = this.o;
    const el = this.contentEl;
    el.empty();
    // The changes only: the call's summary speaks of them as done.
    el.createEl("h3", { text: words.previewTitle, cls: "kessho-preview-title" });
    drawChanges(el.createDiv({ cls: "kessho-preview" }), p.changes, words);
    this.errorEl = el.createDiv({ cls: "kessho-error" });
    new Setting(el)
      .addButton((b) => {
        this.runButton = b;
        b.setButtonText(words.write)
          .setCta()
          .onClick(() => void this.attempt(() => this.write(args), words.writing));
      })
      .addButton((b) => b.setButtonText(words.back).onClick(() => this.drawForm()));
    return answer;
  }

  private showError(msg: string): void {
    this.errorEl?.setText(msg);
  }
}

/** drawChanges lists the changes: a line per note (verb, path), a changed note's lines removed and added. */
function drawChanges(el: HTMLElement, changes: Change[], w: Words): void {
  if (changes.length === 0) {
    el.createDiv({ cls: "kessho-preview-none", text: w.previewNothing });
    return;
  }
  for (const c of changes) {
    const row = el.createDiv({ cls: `kessho-change kessho-change-${c.op}` });
    const verb = c.op === "create" ? w.willCreate : c.op === "modify" ? w.willModify : c.op === "delete" ? w.willDelete : w.willMove;
    row.createSpan({ cls: "kessho-change-verb", text: verb + " " });
    row.createEl("code", { text: c.op === "move" ? `${c.from} → ${c.to}` : c.path });
    if (c.op !== "modify") continue;
    const d = lineDiff(c.before, c.after);
    const pre = row.createDiv({ cls: "kessho-diff" });
    for (const l of d.removed) pre.createDiv({ cls: "kessho-diff-del", text: "− " + l });
    if (d.moreRemoved > 0) pre.createDiv({ cls: "kessho-diff-more", text: w.moreLines.replace("{n}", String(d.moreRemoved)) });
    for (const l of d.added) pre.createDiv({ cls: "kessho-diff-add", text: "+ " + l });
    if (d.moreAdded > 0) pre.createDiv({ cls: "kessho-diff-more", text: w.moreLines.replace("{n}", String(d.moreAdded)) });
  }
}
