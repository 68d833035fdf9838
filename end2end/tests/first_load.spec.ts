// The first-load budgets, as Chromium downloads it (the encoded bytes of every file under /pkg/
// and every stylesheet, brotli as served): a page with nothing interactive loads no wasm and no
// script file at all; a page with an island loads the bundle's main wasm, its glue, the split
// bundle's link module and the chunks of its own lazy islands, within its own budget (the room's
// code never on /things, the catalog's never in the room); the big screen loads the room's and
// its own small stylesheet. Each page's bytes are printed as loaded before it was interactive
// (the islands awake) and after.
// `./udd test` runs this spec, so a bundle that grows past a budget fails the test command.
import { expect, test, type Page } from "./fixtures/test";
import { HomePage } from "./fixtures/home_page";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";

/** The budgets, in the one file the benchmark (`udd-server bench`) prints them from too. */
const BUDGETS = JSON.parse(readFileSync(path.resolve(__dirname, "../budgets.json"), "utf8"));
/** Wasm + JS + CSS of the room page, brotli bytes as served, which it must not grow past: the
 * split bundle's room (167,926 B on 2026-12-01), with 1.2 % to spare. The aim (120,000 B before
 * the Udd! button works) is printed beside it, not yet asserted. */
const ROOM_PAGE_BUDGET: number = BUDGETS.room_page_bytes;
const ROOM_PAGE_AIM: number = BUDGETS.room_page_aim_bytes;
/** The catalog's page: the main wasm and the catalog's own chunks (93,293 B on 2026-12-01). */
const THINGS_PAGE_BUDGET: number = BUDGETS.things_page_bytes;
/** A page with nothing interactive downloads only the stylesheet. */
const STATIC_PAGE_BUDGET: number = BUDGETS.static_page_bytes;
/** The big screen (a TV, not a phone) loads what the room page does and its own stylesheet,
 * which must stay small. */
const SCREEN_CSS_BUDGET: number = BUDGETS.screen_css_bytes;
for (const [name, budget] of Object.entries({ ROOM_PAGE_BUDGET, ROOM_PAGE_AIM, THINGS_PAGE_BUDGET, STATIC_PAGE_BUDGET, SCREEN_CSS_BUDGET })) {
  if (!Number.isInteger(budget) || budget <= 0) throw new Error(`end2end/budgets.json: ${name} is ${budget}`);
}

type Load = { wasm: number; js: number; css: number; before: number; after: number; files: string[] };

async function firstLoad(page: Page, path: string): Promise<Load> {
  const sizes: Promise<[string, number, number]>[] = [];
  const listener = (request: import("@playwright/test").Request) => {
    const url = new URL(request.url());
    const finished = Date.now();
    // The bundle, and every stylesheet a page loads besides (the big screen's, the room's own).
    if (url.pathname.startsWith("/pkg/") || /^\/[\w-]+\.css$/.test(url.pathname)) {
      sizes.push(request.sizes().then((s) => [url.pathname, s.responseBodySize, finished] as [string, number, number]));
    }
  };
  page.on("requestfinished", listener);
  const response = await page.goto(path);
  expect(response?.status(), path).toBe(200);
  await expect(page.locator(".app")).toHaveAttribute("data-hydrated", "true");
  const awake = Date.now();
  await page.waitForLoadState("networkidle");
  page.off("requestfinished", listener);
  const load: Load = { wasm: 0, js: 0, css: 0, before: 0, after: 0, files: [] };
  for (const [file, bytes, finished] of await Promise.all(sizes)) {
    load.files.push(file);
    if (file.endsWith(".wasm")) load.wasm += bytes;
    else if (file.endsWith(".js")) load.js += bytes;
    else if (file.endsWith(".css")) load.css += bytes;
    if (finished <= awake) load.before += bytes;
    else load.after += bytes;
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

  const pages: [string, string, number | null][] = [
    ["home", "/", null],
    ["account", "/me", null],
    ["board", `${room}/lb`, null],
    ["boards", "/lb", null],
    ["things", "/things", THINGS_PAGE_BUDGET],
    ["room", room, ROOM_PAGE_BUDGET],
    ["screen", `${room}/screen`, ROOM_PAGE_BUDGET],
    ["decks", "/decks", null],
    ["new deck", "/decks/new", null],
    ["deck", deck, null],
    ["editor", `${deck}/edit`, null],
    ["gallery", "/decks?by=newest", null],
  ];
  const rows: string[] = [];
  const loads = new Map<string, Load>();
  for (const [name, path, budget] of pages) {
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
    const n = (value: number, width: number) => String(value).padStart(width);
    rows.push(`${name.padEnd(8)} wasm ${n(load.wasm, 7)}  js ${n(load.js, 6)}  css ${n(load.css, 5)}  total ${n(total, 7)} B  (before interactive ${n(load.before, 7)}, after ${n(load.after, 6)})`);
    loads.set(name, load);
    const chunks = load.files.filter((f) => /\/(split|chunk)_\w+\.[0-9a-f]{16}\.wasm$/.test(f));
    if (name === "screen") {
      // The room's own island and bundle, and the screen's stylesheet.
      expect(load.files.filter((f) => f === "/screen.css"), "the screen's stylesheet").toHaveLength(1);
      const roomLoad = loads.get("room")!;
      expect(total - (roomLoad.wasm + roomLoad.js + roomLoad.css), "the screen's own bytes").toBeLessThanOrEqual(SCREEN_CSS_BUDGET);
    } else if (budget !== null) {
      expect(load.files, `${name} loads no big-screen stylesheet`).not.toContain("/screen.css");
      expect(load.wasm, `${name} wakes its islands with the wasm`).toBeGreaterThan(0);
      expect(chunks.length, `${name} loads its lazy island's chunks`).toBeGreaterThan(0);
      expect(total, `${name}: ${load.files.join(", ")}`).toBeLessThanOrEqual(budget);
    } else {
      expect(load.files.filter((f) => /\.(wasm|js)$/.test(f)), `${name} loads no wasm or script file`).toEqual([]);
      expect(total, name).toBeLessThanOrEqual(STATIC_PAGE_BUDGET);
    }
  }
  // Each island page loads its own island's code and not the other's: the chunks named after
  // one island's loader are never on the other island's page.
  const own = (name: string, island: string) => loads.get(name)!.files.filter((f) => f.includes(`/split_${island}_loader_`));
  expect(own("things", "thing_browser"), "the catalog's chunk on /things").toHaveLength(1);
  expect(own("things", "live_room"), "no room code on /things").toEqual([]);
  expect(own("room", "live_room"), "the room's chunk in the room").toHaveLength(1);
  expect(own("room", "thing_browser"), "no catalog code in the room").toEqual([]);
  const roomReady = loads.get("room")!.before;
  rows.push(`room before interactive: ${roomReady} B (aim <= ${ROOM_PAGE_AIM} B: ${roomReady <= ROOM_PAGE_AIM ? "reached" : "not yet"})`);
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
  const bodies = new Map<string, Buffer>();
  for (const response of responses) {
    const name = new URL(response.url()).pathname.slice("/pkg/".length);
    const match = /^(udd|__wasm_split|(?:split|chunk)_\w+)\.([0-9a-f]{16})\.(wasm|js|css)$/.exec(name);
    expect(match, `${name} is named after its contents`).not.toBeNull();
    const [, stem, hash, kind] = match!;
    kinds.add(stem.startsWith("split_") || stem.startsWith("chunk_") ? "chunk" : `${stem}.${kind}`);
    expect(response.status(), name).toBe(200);
    expect(response.headers()["cache-control"], name).toBe("public, max-age=31536000, immutable");
    const body = await response.body();
    bodies.set(`${stem}.${kind}`, body);
    if (kind === "wasm" || kind === "css") {
      // The name's hash is the first 16 hex digits of the SHA-256 of the bytes served.
      const digest = createHash("sha256").update(body).digest("hex");
      expect(hash, `${name}'s hash is its contents'`).toBe(digest.slice(0, 16));
    }
  }
  expect([...kinds].sort()).toEqual(["__wasm_split.js", "chunk", "udd.css", "udd.js", "udd.wasm"]);
  // The glue and the link module import each other by name: both are named after the hash of
  // the two together, each with a placeholder of 16 underscores where the names' hash goes.
  const glue = bodies.get("udd.js")!.toString();
  const link = bodies.get("__wasm_split.js")!.toString();
  const hash = /udd\.([0-9a-f]{16})\.js/.exec(link)![1];
  expect(glue, "the glue imports the link module by its name").toContain(`__wasm_split.${hash}.js`);
  const placeholder = (text: string) => text.replaceAll(hash, "_".repeat(16));
  const digest = createHash("sha256").update(placeholder(glue) + placeholder(link)).digest("hex");
  expect(hash, "the glue's and the link module's names are the hash of the two").toBe(digest.slice(0, 16));
  // The other static files may change under their names with any build: kept, asked about each
  // time, and answered "not modified" while unchanged.
  for (const file of ["/screen.css", "/room.css", "/favicon.svg", "/favicon.ico"]) {
    const response = await page.request.get(file);
    expect(response.status(), file).toBe(200);
    expect(response.headers()["cache-control"], file).toBe("no-cache");
    const since = response.headers()["last-modified"];
    expect(since, `${file} says when it last changed`).toBeTruthy();
    const again = await page.request.get(file, { headers: { "If-Modified-Since": since } });
    expect(again.status(), `${file} unchanged`).toBe(304);
  }
  // The plain names are gone: nothing can be served unhashed and then kept stale.
  const plain = await page.request.get("/pkg/udd.wasm");
  expect(plain.headers()["cache-control"] ?? "").not.toContain("immutable");
});
