// The first-load budget, as Chromium downloads it (the encoded bytes of every file under /pkg/,
// brotli as served): a page with nothing interactive loads no wasm and no script file at all,
// and a page with an island (the room, the catalog) loads wasm + JS + CSS within the budget; the
// big screen loads the room's and its own small stylesheet.
// `./udd test` runs this spec, so a bundle that grows past the budget fails the test command.
import { expect, test, type Page } from "./fixtures/test";
import { HomePage } from "./fixtures/home_page";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";

/** The budgets, in the one file the benchmark (`udd-server bench`) prints them from too. */
const BUDGETS = JSON.parse(readFileSync(path.resolve(__dirname, "../budgets.json"), "utf8"));
/** Wasm + JS + CSS of a page with islands, brotli bytes as served, which it must not grow
 * past: the room page's weight after the match's live region and keyboard taps (issue 27,
 * 177,093 B, paid for by wasm-opt's flatten and rereloop), with 0.3 % to spare. */
const ISLAND_PAGE_BUDGET: number = BUDGETS.island_page_bytes;
/** A page with nothing interactive downloads only the stylesheet. */
const STATIC_PAGE_BUDGET: number = BUDGETS.static_page_bytes;
/** The big screen (a TV, not a phone) loads what the room page does and its own stylesheet,
 * which must stay small. */
const SCREEN_CSS_BUDGET: number = BUDGETS.screen_css_bytes;
for (const [name, budget] of Object.entries({ ISLAND_PAGE_BUDGET, STATIC_PAGE_BUDGET, SCREEN_CSS_BUDGET })) {
  if (!Number.isInteger(budget) || budget <= 0) throw new Error(`end2end/budgets.json: ${name} is ${budget}`);
}

type Load = { wasm: number; js: number; css: number; files: string[] };

async function firstLoad(page: Page, path: string): Promise<Load> {
  const sizes: Promise<[string, number]>[] = [];
  const listener = (request: import("@playwright/test").Request) => {
    const url = new URL(request.url());
    // The bundle, and every stylesheet a page loads besides (the big screen's, the room's own).
    if (url.pathname.startsWith("/pkg/") || /^\/[\w-]+\.css$/.test(url.pathname)) {
      sizes.push(request.sizes().then((s) => [url.pathname, s.responseBodySize] as [string, number]));
    }
  };
  page.on("requestfinished", listener);
  const response = await page.goto(path);
  expect(response?.status(), path).toBe(200);
  await expect(page.locator(".app")).toHaveAttribute("data-hydrated", "true");
  await page.waitForLoadState("networkidle");
  page.off("requestfinished", listener);
  const load: Load = { wasm: 0, js: 0, css: 0, files: [] };
  for (const [file, bytes] of await Promise.all(sizes)) {
    load.files.push(file);
    if (file.endsWith(".wasm")) load.wasm += bytes;
    else if (file.endsWith(".js")) load.js += bytes;
    else if (file.endsWith(".css")) load.css += bytes;
  }
  return load;
}

test("each page's first load is within its budget, and pages without islands load no wasm", async ({ page }, info) => {
  test.skip(info.project.use.javaScriptEnabled === false, "without JavaScript nothing but the stylesheet loads");
  const home = new HomePage(page);
  await home.goto();
  await home.createRoom("Budget");
  const room = new URL(page.url()).pathname;
  // A public deck of theirs: its page, its editor and the gallery listing it load no wasm.
  await page.goto("/decks/new");
  await page.getByTestId("deck-title").fill("Budget pets");
  await page.getByTestId("deck-lines").fill(Array.from({ length: 10 }, (_, i) => `Pet ${i + 1}, ${i % 2 ? "yes" : "no"}`).join("\n"));
  await page.locator("input[name=visibility][value=public]").check();
  await page.getByTestId("save-deck").click();
  await page.waitForURL(/\/d\/[A-Z0-9]{7}$/);
  const deck = new URL(page.url()).pathname;

  const pages: [string, string, boolean][] = [
    ["home", "/", false],
    ["account", "/me", false],
    ["board", `${room}/lb`, false],
    ["boards", "/lb", false],
    ["things", "/things", true],
    ["room", room, true],
    ["screen", `${room}/screen`, true],
    ["decks", "/decks", false],
    ["new deck", "/decks/new", false],
    ["deck", deck, false],
    ["editor", `${deck}/edit`, false],
    ["gallery", "/decks?by=newest", false],
  ];
  const rows: string[] = [];
  const totals = new Map<string, number>();
  for (const [name, path, islands] of pages) {
    // A fresh cache for each page: what a first visit downloads.
    const context = await page.context().browser()!.newContext({
      baseURL: info.project.use.baseURL,
      extraHTTPHeaders: info.project.use.extraHTTPHeaders,
      storageState: await page.context().storageState(),
    });
    const fresh = await context.newPage();
    const load = await firstLoad(fresh, path);
    await context.close();
    const total = load.wasm + load.js + load.css;
    rows.push(`${name.padEnd(8)} wasm ${String(load.wasm).padStart(7)}  js ${String(load.js).padStart(6)}  css ${String(load.css).padStart(5)}  total ${String(total).padStart(7)} B`);
    totals.set(name, total);
    if (name === "screen") {
      // The room's own island and bundle, and the screen's stylesheet.
      expect(load.files.filter((f) => f === "/screen.css"), "the screen's stylesheet").toHaveLength(1);
      expect(total - totals.get("room")!, "the screen's own bytes").toBeLessThanOrEqual(SCREEN_CSS_BUDGET);
    } else if (islands) {
      expect(load.files, `${name} loads no big-screen stylesheet`).not.toContain("/screen.css");
      expect(load.wasm, `${name} wakes its islands with the wasm`).toBeGreaterThan(0);
      expect(total, `${name}: ${load.files.join(", ")}`).toBeLessThanOrEqual(ISLAND_PAGE_BUDGET);
    } else {
      expect(load.files.filter((f) => /\.(wasm|js)$/.test(f)), `${name} loads no wasm or script file`).toEqual([]);
      expect(total, name).toBeLessThanOrEqual(STATIC_PAGE_BUDGET);
    }
  }
  console.log(`first load, brotli bytes as served:\n${rows.join("\n")}`);
});

test("the bundle's files are named after their contents and kept for a year; pages are never kept", async ({ page }, info) => {
  test.skip(info.project.use.javaScriptEnabled === false, "the wasm and its script load only with JavaScript");
  const responses: import("@playwright/test").Response[] = [];
  page.on("response", (response) => {
    if (new URL(response.url()).pathname.startsWith("/pkg/")) responses.push(response);
  });
  const html = await page.goto("/things");
  await expect(page.locator(".app")).toHaveAttribute("data-hydrated", "true");
  await page.waitForLoadState("networkidle");
  expect(html?.headers()["cache-control"], "a page is never stored").toBe("no-store");
  const kinds = new Set<string>();
  for (const response of responses) {
    const name = new URL(response.url()).pathname.slice("/pkg/".length);
    const match = /^udd\.([0-9a-f]{16})\.(wasm|js|css)$/.exec(name);
    expect(match, `${name} is named after its contents`).not.toBeNull();
    kinds.add(match![2]);
    expect(response.status(), name).toBe(200);
    expect(response.headers()["cache-control"], name).toBe("public, max-age=31536000, immutable");
    // The name's hash is the first 16 hex digits of the SHA-256 of the bytes served.
    const digest = createHash("sha256").update(await response.body()).digest("hex");
    expect(match![1], `${name}'s hash is its contents'`).toBe(digest.slice(0, 16));
  }
  expect([...kinds].sort()).toEqual(["css", "js", "wasm"]);
  // The plain names are gone: nothing can be served unhashed and then kept stale.
  const plain = await page.request.get("/pkg/udd.wasm");
  expect(plain.headers()["cache-control"] ?? "").not.toContain("immutable");
});
