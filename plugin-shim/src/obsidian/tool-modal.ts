// A form for one catalogue tool, drawn from its parameters. On a refusal
// the modal stays open with everything the user typed, and says why.

import { MarkdownRenderer, Modal, Notice, Setting, type App, type ButtonComponent, type Component } from "obsidian";
import { textIn, type Lang, type Tool } from "../catalog/catalog";
import { argsFrom, fields, type Values } from "../catalog/form";
import type { Words } from "../i18n";
import { messageOf } from "../host/port";

/** What a run gives the modal back: the answer the host printed, parsed. */
export type Answer =
  | { ok: true; result: { summary_md?: string; warnings?: string[] } & Record<string, unknown> }
  | { ok: false; error: { code: string; message: string; details?: unknown } };

export interface ToolModalOptions {
  tool: Tool;
  lang: Lang;
  words: Words;
  /** The form's values; the modal edits this object in place. */
  values: Values;
  /** What the answer's Markdown is rendered for (the plugin): its lifetime bounds the rendering's. */
  component: Component;
  run: (args: Record<string, unknown>) => Promise<Answer>;
  /**
   * remember is told, after each attempt, whether the values are worth
   * keeping for the next time the form opens: true after a refusal, false
   * after a success.
   */
  remember?: (keep: boolean) => void;
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

  constructor(
    app: App,
    private o: ToolModalOptions,
  ) {
    super(app);
  }

  override onOpen(): void {
    const { tool, lang, words, values } = this.o;
    this.modalEl.addClass("kessho-modal");
    this.titleEl.setText(textIn(tool.title, lang));
    this.contentEl.empty();
    this.contentEl.createEl("p", { text: textIn(tool.description, lang), cls: "kessho-description" });
    for (const f of fields(tool, lang)) {
      const s = new Setting(this.contentEl).setName(f.label).setDesc(f.desc + (f.required ? " " + words.required : ""));
      s.settingEl.addClass("kessho-field", `kessho-field-${f.kind}`);
      const str = () => (typeof values[f.name] === "string" ? (values[f.name] as string) : "");
      const set = (v: string | boolean) => {
        values[f.name] = v;
      };
      switch (f.kind) {
        case "toggle":
          s.addToggle((t) => t.setValue(values[f.name] === true).onChange(set));
          break;
        case "dropdown":
          s.addDropdown((d) => {
            for (const opt of f.options ?? []) d.addOption(opt, opt === "" ? "—" : opt);
            d.setValue(str()).onChange(set);
          });
          break;
        case "textarea":
        case "lines":
        case "json":
          s.addTextArea((t) => {
            t.setValue(str()).onChange(set);
            t.inputEl.rows = f.kind === "textarea" ? 4 : 3;
            t.inputEl.dataset["param"] = f.name;
            if (f.kind === "json") t.setPlaceholder("{ … }");
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
          });
      }
    }
    this.errorEl = this.contentEl.createDiv({ cls: "kessho-error" });
    new Setting(this.contentEl)
      .addButton((b) => {
        this.runButton = b;
        b.setButtonText(words.run)
          .setCta()
          .onClick(() => void this.submit());
      })
      .addButton((b) => b.setButtonText(words.cancel).onClick(() => this.close()));
  }

  override onClose(): void {
    this.contentEl.empty();
  }

  /** submit runs the tool with the form's values; the modal closes only on success. */
  async submit(): Promise<Answer | null> {
    if (this.busy) return null;
    const { tool, lang, words, values } = this.o;
    const built = argsFrom(tool, values);
    if ("error" in built) {
      const msg = lang === "fr" ? built.error.fr : built.error.en;
      this.showError(msg);
      new Notice(msg);
      this.o.remember?.(true);
      return null;
    }
    this.busy = true;
    this.runButton?.setDisabled(true).setButtonText(words.running);
    try {
      const answer = await this.o.run(built.args);
      this.o.remember?.(!answer.ok);
      await notify(this.app, this.o.component, answer);
      if (answer.ok) this.close();
      else this.showError(answer.error.message);
      return answer;
    } catch (err) {
      const msg = words.engineFailed + messageOf(err);
      this.o.remember?.(true);
      this.showError(msg);
      new Notice(msg);
      return null;
    } finally {
      this.busy = false;
      this.runButton?.setDisabled(false).setButtonText(words.run);
    }
  }

  private showError(msg: string): void {
    this.errorEl?.setText(msg);
  }
}
