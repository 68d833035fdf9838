// Every page fits a phone: at 360 px (and at 1280 px) in English and in Hindi, with JavaScript
// on and off (the two projects), no page scrolls sideways, no link or button overlaps another
// control, no two controls on one line touch (links that "run together"), and no element's
// content is wider than its box (a table past its card, a cut word). Each page is
// also photographed, signed in with cards, an offer waiting and a finished match, into
// target/screens/<project>/ for people to look at (not compared): the README's pictures come
// from there.
import * as fs from "node:fs";
import * as path from "node:path";
import { expect, test, type Page } from "./fixtures/test";
import { everyPage, open } from "./fixtures/every_page";

const SCREENS = path.resolve(__dirname, "../../target/screens");
const WIDTHS = [360, 1280];

type Clash = { kind: string; a: string; b?: string };

/** Every visible link, button and field, with each of its line boxes; pairs that overlap, and
 * pairs on one line with less than 2 px between them; and whether the page scrolls sideways. */
async function clashes(page: Page): Promise<Clash[]> {
  return page.evaluate(() => {
    const found: { kind: string; a: string; b?: string }[] = [];
    const doc = document.documentElement;
    if (doc.scrollWidth > doc.clientWidth + 1) {
      const wide = [...document.querySelectorAll<HTMLElement>("body *")]
        .filter((el) => el.getBoundingClientRect().right > doc.clientWidth + 1)
        .slice(0, 3)
        .map((el) => `${el.tagName.toLowerCase()}.${el.className}`);
      found.push({ kind: `scrolls sideways (${doc.scrollWidth} > ${doc.clientWidth})`, a: wide.join(", ") });
    }
    const name = (el: Element) =>
      `${el.tagName.toLowerCase()} "${(el.textContent || (el as HTMLInputElement).name || "").trim().slice(0, 30)}"`;
    const controls = [...document.querySelectorAll("a, button, input:not([type=hidden]), select, textarea, summary")]
      .filter((el) => {
        const style = getComputedStyle(el);
        if (style.visibility === "hidden" || style.display === "none") return false;
        if (el.closest(".visually-hidden, [hidden], details:not([open]) > :not(summary)")) return false;
        // The avatar picker's radios are hidden behind their emoji on purpose.
        if (el instanceof HTMLInputElement && el.type === "radio" && style.opacity === "0") return false;
        const box = el.getBoundingClientRect();
        return box.width > 0 && box.height > 0;
      });
    const boxes = controls.map((el) => ({
      el,
      rects: [...el.getClientRects()].filter((r) => r.width > 0 && r.height > 0),
    }));
    for (let i = 0; i < boxes.length; i++) {
      for (let j = i + 1; j < boxes.length; j++) {
        const a = boxes[i], b = boxes[j];
        if (a.el.contains(b.el) || b.el.contains(a.el)) continue;
        // A control inside a label, and the label's own link: one control.
        if (a.el.closest("label") && a.el.closest("label") === b.el.closest("label")) continue;
        let verdict: string | undefined;
        for (const r of a.rects) {
          for (const s of b.rects) {
            const x = Math.min(r.right, s.right) - Math.max(r.left, s.left);
            const y = Math.min(r.bottom, s.bottom) - Math.max(r.top, s.top);
            if (x > 1 && y > 1) verdict = "overlap";
            else if (!verdict && y > Math.min(r.height, s.height) / 2 && x > -2) verdict = "touch";
          }
        }
        if (verdict) found.push({ kind: verdict, a: name(a.el), b: name(b.el) });
      }
    }
    // Content wider than its box: text or a table running past its card's border, or cut off
    // at it. Elements meant to scroll (and what they hold), visually hidden text, closed
    // disclosures and drawings are left out.
    for (const el of document.querySelectorAll<HTMLElement>("body *")) {
      const style = getComputedStyle(el);
      // Rows and row groups report no width of their own; cells and tables do.
      if (["none", "contents"].includes(style.display) || /^inline|^table-(row|header|footer|column)/.test(style.display)) continue;
      if (el.closest(".visually-hidden, [hidden], details:not([open]) > :not(summary), svg")) continue;
      // Clipped away for screen readers alone (the match page's column heads on a phone).
      let clipped = false;
      for (let up: HTMLElement | null = el; up && !clipped; up = up.parentElement) {
        clipped = getComputedStyle(up).clip.startsWith("rect");
      }
      if (clipped) continue;
      let scroller: HTMLElement | null = el;
      while (scroller && !["auto", "scroll"].includes(getComputedStyle(scroller).overflowX)) scroller = scroller.parentElement;
      if (scroller) continue;
      if (el.clientWidth > 0 && el.scrollWidth > el.clientWidth + 1) {
        const where = `${el.tagName.toLowerCase()}${el.className ? `.${String(el.className).split(" ").join(".")}` : ""}`;
        found.push({ kind: `overflows its box (${el.scrollWidth} > ${el.clientWidth} px)`, a: `${where} ${name(el).split(" ").slice(1).join(" ")}` });
      }
    }
    return found;
  });
}


for (const lang of ["en", "hi"] as const) {
  test(`every page fits 360 px and 1280 px, and is photographed (${lang})`, async ({ browser }, info) => {
    test.setTimeout(240_000);
    const project = info.project.name;
    const { context, page, pages } = await everyPage(browser, info, lang);
    const dir = path.join(SCREENS, project);
    fs.mkdirSync(dir, { recursive: true });
    const problems: string[] = [];
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 800 });
      for (const [name, href] of pages) {
        await open(page, info, href, lang);
        await page.screenshot({ path: path.join(dir, `${name}-${lang}-${width}.png`), fullPage: true });
        for (const clash of await clashes(page)) {
          problems.push(`${name} at ${width} px (${lang}): ${clash.kind}: ${clash.a}${clash.b ? ` and ${clash.b}` : ""}`);
        }
      }
    }
    await context.close();
    expect(problems, problems.join("\n")).toEqual([]);
  });
}
