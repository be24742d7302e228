// Screenshot tests: every form, the recall view and a refusal, drawn by the
// built main.js in the fake app (tests/fake/obsidian.ts), laid out by
// headless Chromium with Obsidian-like styles (obsidian.css, then the
// plugin's styles.css), in English and French at a desktop width, and in
// French at a phone's width. Each image is compared with the one checked in
// beside this file (<name>.<lang>[.phone].png): a change to what a person
// sees shows in a review as a changed image. On a mismatch the new image is
// written beside as *.actual.png (ignored by git) and the test fails;
// KESSHO_UPDATE_SCREENS=1 rewrites the checked-in images instead.
//
// Deterministic: DejaVu fonts (fonts-dejavu), a fixed viewport and device
// scale, no animation or caret (obsidian.css), the plugin's clock fixed.

import assert from "node:assert/strict";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { chromium, type Browser } from "playwright-core";
import { setLanguage } from "../fake/obsidian";
import { pluginDir } from "../node";
import { executablePath } from "../browser/chromium";
import { decodePNG, diffPixels } from "./png";
import { freshPlugin, reset, screens } from "./screens";

// The device's zone shows in the settings tab: the same on every machine.
process.env["TZ"] = "Europe/Paris";

const dir = join(pluginDir, "tests", "screens");
const update = process.env["KESSHO_UPDATE_SCREENS"] === "1";
const css = readFileSync(join(dir, "obsidian.css"), "utf8") + "\n" + readFileSync(join(pluginDir, "styles.css"), "utf8");

/** The shots of each screen: language and viewport width. */
const variants = [
  { lang: "en", width: 680, phone: false },
  { lang: "fr", width: 680, phone: false },
  { lang: "fr", width: 400, phone: true },
] as const;

/** A channel may differ by this much (anti-aliasing), and this share of the pixels may differ at all. */
const tolerance = 24;
const share = 0.0005;

function page(body: string, phone: boolean): string {
  return `<!doctype html><html><head><meta charset="utf-8"><style>${css}</style></head><body><div class="kessho-shot${phone ? " phone" : ""}">${body}</div></body></html>`;
}

test("the comparison sees a change: a few pixels altered differ, the same image does not", () => {
  const png = readFileSync(join(dir, "form-set-phase.en.png"));
  const a = decodePNG(png);
  const b = { ...a, rgba: a.rgba.slice() };
  assert.equal(diffPixels(a, b, tolerance), 0);
  for (let i = 0; i < 40 * 4; i += 4) b.rgba[i] = 255 - b.rgba[i]!;
  assert.ok(a.rgba.length > 0 && a.width > 100);
  assert.ok(diffPixels(a, b, tolerance) > 0);
  assert.equal(diffPixels(a, { ...a, width: a.width - 1 }, tolerance), a.width * a.height, "another size differs everywhere");
});

describe("screens", { skip: existsSync(executablePath) ? false : "no /usr/bin/chromium (scripts/ensure-chromium.sh)" }, () => {
  let browser: Browser;
  before(async () => {
    browser = await chromium.launch({ executablePath, headless: true, args: ["--no-sandbox", "--disable-gpu", "--font-render-hinting=none", "--disable-lcd-text", "--force-color-profile=srgb"] });
  });
  after(async () => {
    await browser?.close();
  });

  for (const s of screens) {
    for (const v of variants) {
      const name = `${s.name}.${v.lang}${v.phone ? ".phone" : ""}`;
      test(name, async () => {
        reset();
        setLanguage(v.lang);
        const html = await s.render(await freshPlugin(v.lang));
        const p = await browser.newPage({ viewport: { width: v.width, height: 600 }, deviceScaleFactor: 1 });
        try {
          await p.setContent(page(html, v.phone));
          await p.evaluate(() => document.fonts.ready);
          const png = await p.locator(".kessho-shot").screenshot({ animations: "disabled", caret: "hide" });
          const want = join(dir, `${name}.png`);
          const actual = join(dir, `${name}.actual.png`);
          if (update) {
            writeFileSync(want, png);
            rmSync(actual, { force: true });
            return;
          }
          if (!existsSync(want)) {
            writeFileSync(actual, png);
            assert.fail(`${name}.png is not checked in: review ${name}.actual.png, then run with KESSHO_UPDATE_SCREENS=1`);
          }
          const a = decodePNG(png);
          const b = decodePNG(readFileSync(want));
          const differ = diffPixels(a, b, tolerance);
          if (differ > Math.max(10, share * a.width * a.height)) {
            writeFileSync(actual, png);
            assert.fail(`${name}: ${differ} pixels differ (${a.width}×${a.height} against ${b.width}×${b.height}): see ${name}.actual.png; KESSHO_UPDATE_SCREENS=1 takes it`);
          }
          rmSync(actual, { force: true });
        } finally {
          await p.close();
        }
      });
    }
  }
});
