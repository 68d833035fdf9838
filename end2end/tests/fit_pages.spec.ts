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
import { HomePage } from "./fixtures/home_page";
import { RoomPage } from "./fixtures/room_page";
import { FIRST_INSTANCE } from "./fixtures/instances";

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
    // Words broken across lines ("Sanja/y Kuma/r" in a name column 52 px wide) and text boxes
    // narrower than a few letters: every run of letters between spaces, hyphens and slashes sits
    // on one line, and a box of its own text (a flex item, a cell) that wraps it is at least
    // three letters wide. Addresses meant to break anywhere (word-break: break-all) are left out.
    const where = (el: Element) => `${el.tagName.toLowerCase()}${el.className ? `.${String(el.className).split(" ").join(".")}` : ""}`;
    const hiddenText = "script, style, noscript, textarea, .visually-hidden, [hidden], svg, details:not([open]) > :not(summary)";
    const range = document.createRange();
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    const narrow = new Set<Element>();
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const el = node.parentElement;
      if (!el || el.closest(hiddenText)) continue;
      const style = getComputedStyle(el);
      if (style.visibility === "hidden" || style.wordBreak === "break-all") continue;
      const text = node.textContent || "";
      for (const m of text.matchAll(/[^\s\-\/\u2010-\u2014]{2,}/g)) {
        range.setStart(node, m.index!);
        range.setEnd(node, m.index! + m[0].length);
        const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.bottom)));
        if (lines.size > 1) found.push({ kind: "a word broken across lines", a: `${where(el)} "${m[0].slice(0, 30)}"` });
      }
      // A box of its own text that wraps it into a column under three letters wide.
      const box = el.getBoundingClientRect();
      const fontSize = parseFloat(style.fontSize);
      range.selectNodeContents(node);
      const wraps = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.bottom))).size > 1;
      if (wraps && !style.display.startsWith("inline") && box.width > 0 && box.width < 3 * fontSize && !narrow.has(el)) {
        narrow.add(el);
        found.push({ kind: `a text box narrower than three letters (${Math.round(box.width)} px)`, a: `${where(el)} "${text.trim().slice(0, 30)}"` });
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

// The lobby as the host and as a player see it, with names of 24 letters and long words in
// Latin and Devanagari, and players away (they joined without JavaScript and never listened):
// each name keeps its line, no word broken letter by letter, the host's buttons beside or
// under it (lobby-names-broken-360.png of 2026-11-29: "Sanja/y Kuma/r", a 24-letter name one
// letter a line once away).
const [HOST_NAME, PLAYER_NAME] = ["Maximiliana Wolfeschlege", "चन्द्रशेखर वेंकटरमन"];
const LONG_NAMES = ["Bartholomew Fitzgerald", "Wolfeschlegelsteinhausen", "सुब्रह्मण्यमचन्द्रशेखर", "Ana"];
test("the lobby with long names and players away fits, as the host and as a player sees it", async ({ browser }, info) => {
  test.setTimeout(150_000);
  const javaScriptEnabled = info.project.use.javaScriptEnabled;
  const dir = path.join(SCREENS, info.project.name);
  fs.mkdirSync(dir, { recursive: true });
  const hostContext = await browser.newContext({ baseURL: FIRST_INSTANCE, javaScriptEnabled });
  const host = await hostContext.newPage();
  await new HomePage(host).goto();
  await new HomePage(host).createRoom(HOST_NAME);
  const code = await new RoomPage(host).roomCode();
  const others = [];
  for (const name of LONG_NAMES) {
    const context = await browser.newContext({ baseURL: FIRST_INSTANCE, javaScriptEnabled: false });
    const page = await context.newPage();
    await new RoomPage(page).goto(code);
    await new RoomPage(page).join(name);
    others.push(context);
  }
  // A player who stays, with the room open: the player's view.
  const playerContext = await browser.newContext({ baseURL: FIRST_INSTANCE, javaScriptEnabled });
  const player = await playerContext.newPage();
  await new RoomPage(player).goto(code);
  await new RoomPage(player).join(PLAYER_NAME);
  for (const context of others) await context.close();
  // Unheard for the presence grace, the players who left are shown away. (Only a live page
  // shows who is away: the room's stream tells it. Without JavaScript the lobby is drawn
  // without, and checked so.)
  if (javaScriptEnabled) {
    await expect
      .poll(async () => {
        await host.reload();
        return host.getByTestId("away").count();
      }, { timeout: 60_000, intervals: [2_000] })
      .toBeGreaterThanOrEqual(LONG_NAMES.length);
  }

  const problems: string[] = [];
  for (const lang of ["en", "hi"] as const) {
    for (const [who, page] of [["host", host], ["player", player]] as const) {
      await page.context().addCookies([{ name: "udd_lang", value: lang, url: FIRST_INSTANCE }]);
      for (const width of WIDTHS) {
        await page.setViewportSize({ width, height: 800 });
        await open(page, info, `/r/${code}`, lang);
        await expect(page.getByTestId("player")).toHaveCount(LONG_NAMES.length + 2);
        if (who === "host" && javaScriptEnabled) {
          // Hosting is offered to the one player here, not to those gone quiet (who may still
          // be removed).
          await expect(page.locator("[data-testid=make-host]:visible")).toHaveCount(1);
          await expect(page.locator(".player.away").first().getByRole("button")).toHaveCount(1);
        } else if (who === "host") {
          await expect(page.locator("[data-testid=make-host]:visible")).toHaveCount(LONG_NAMES.length + 1);
        }
        // A player's own row comes first among the players, on every screen.
        const rows = await page.locator(".player").evaluateAll((rows) =>
          rows.map((row) => ({ name: row.querySelector(".nickname")?.textContent, y: row.getBoundingClientRect().y })),
        );
        const top = rows.sort((a, b) => a.y - b.y)[0].name;
        expect(top, `${who}'s own row first at ${width} px (${lang})`).toBe(who === "host" ? HOST_NAME : PLAYER_NAME);
        await page.screenshot({ path: path.join(dir, `lobby-long-names-${who}-${lang}-${width}.png`), fullPage: true });
        for (const clash of await clashes(page)) {
          problems.push(`${who}'s lobby at ${width} px (${lang}): ${clash.kind}: ${clash.a}${clash.b ? ` and ${clash.b}` : ""}`);
        }
      }
    }
  }
  await hostContext.close();
  await playerContext.close();
  expect(problems, problems.join("\n")).toEqual([]);
});
