// The daily flight: two players fly today's flight at once, each meets the same ten things in
// an order of their own; a reload mid-flight continues where the clock is and cannot replay a
// round; a second try is refused; their places on the day's board agree with their scores; the
// share text names no thing; its link opens the flight for a stranger, naming no thing, and its
// preview card is a PNG in both languages. The real clock: a flight takes about 56 s.
import * as fs from "node:fs";
import { expect, test, type Page } from "./fixtures/test";
import { violations } from "./fixtures/axe";

async function checkA11y(page: Page, where: string) {
  expect(await violations(page, where)).toEqual([]);
}

/** Plays the flight on `page`: taps every thing it is shown (after a human pause) when `tap`
 * says so, reloads once at `reloadAt` things; returns the things in the order shown. */
async function fly(page: Page, tap: (name: string) => boolean, reloadAt: number): Promise<string[]> {
  const seen: string[] = [];
  const thing = page.getByTestId("flight-thing");
  while (seen.length < 10) {
    // The next thing, or the result once the flight is over.
    const next = await Promise.race([
      thing.waitFor({ state: "visible", timeout: 12_000 }).then(() => "thing"),
      page.getByTestId("flight-done").waitFor({ timeout: 12_000 }).then(() => "done"),
    ]);
    if (next === "done") break;
    const name = (await thing.innerText()).trim();
    if (seen[seen.length - 1] !== name) {
      seen.push(name);
      if (tap(name)) {
        await page.waitForTimeout(350);
        await page.getByTestId("flight-udd").click();
      }
      if (seen.length === reloadAt) {
        await page.reload();
        // Back on the same flight: the thing shown now is this one or a later one, never an
        // earlier one again.
        await expect(page.getByTestId("start-flight")).toHaveCount(0);
      }
    }
    await thing.waitFor({ state: "hidden", timeout: 12_000 }).catch(() => {});
  }
  return seen;
}

test("two players fly today's flight: same things, own orders, one try, ranks by score", async ({ browser }, info) => {
  test.skip(info.project.use.javaScriptEnabled === false, "the flight is played with JavaScript");
  test.setTimeout(150_000);
  const contexts = await Promise.all([browser.newContext(), browser.newContext()]);
  const [asha, ravi] = await Promise.all(contexts.map((c) => c.newPage()));
  for (const [page, name] of [
    [asha, "Asha"],
    [ravi, "Ravi"],
  ] as const) {
    await page.goto("/daily");
    await checkA11y(page, "the daily before a start");
    await page.getByTestId("start-flight").getByRole("textbox").fill(name);
    await page.getByTestId("start-flight").getByRole("button").click();
    await expect(page.getByTestId("flight-countdown")).toBeVisible({ timeout: 10_000 });
  }
  await checkA11y(asha, "the daily in the air");
  // Asha taps everything; Ravi taps nothing: by the rules she scores on flyers, he on the rest.
  const [ashaSaw, raviSaw] = await Promise.all([
    fly(asha, () => true, 3),
    fly(ravi, () => false, 6),
  ]);
  await expect(asha.getByTestId("flight-done")).toBeVisible({ timeout: 20_000 });
  await expect(ravi.getByTestId("flight-done")).toBeVisible({ timeout: 20_000 });
  // The same things (a reload may skip one round's view, never show one twice), in two orders.
  expect(new Set(ashaSaw).size).toBe(ashaSaw.length);
  expect(new Set(raviSaw).size).toBe(raviSaw.length);
  const union = new Set([...ashaSaw, ...raviSaw]);
  expect(union.size).toBeLessThanOrEqual(10);
  expect(ashaSaw.join("|")).not.toBe(raviSaw.join("|"));

  // A second try is refused.
  const again = await asha.request.post("/api/daily/start", { form: { name: "Asha" }, headers: { Accept: "application/json" } });
  expect(again.status()).toBe(409);

  // The share names no thing it showed.
  for (const page of [asha, ravi]) {
    const share = await page.getByTestId("share-text").inputValue();
    expect(share).toMatch(/^Udd Daily #\d+ 🐦 \d+\/10/);
    for (const name of union) {
      const words = name.replace(/^\P{L}+/u, "").trim();
      expect(share).not.toContain(words);
    }
  }
  // Places agree with scores once the board has counted both.
  const score = async (page: Page) => Number((await page.getByTestId("flight-score").innerText()).match(/-?\d+/)![0]);
  const place = async (page: Page) => {
    await expect(async () => {
      await page.reload();
      await expect(page.getByTestId("flight-place")).toContainText("of 2", { timeout: 1_000 });
      await expect(page.getByTestId("flight-place")).not.toContainText("About");
    }).toPass({ timeout: 30_000 });
    return Number((await page.getByTestId("flight-place").innerText()).match(/#(\d+)/)![1]);
  };
  const [ashaScore, raviScore] = [await score(asha), await score(ravi)];
  const [ashaPlace, raviPlace] = [await place(asha), await place(ravi)];
  if (ashaScore > raviScore) expect([ashaPlace, raviPlace]).toEqual([1, 2]);
  else if (raviScore > ashaScore) expect([ashaPlace, raviPlace]).toEqual([2, 1]);
  else expect([ashaPlace, raviPlace]).toEqual([1, 1]);
  await checkA11y(asha, "the daily's result");
  // The share's link opens the flight's page (a stranger's view: no cookie), which names no
  // thing, and whose preview card renders in both languages.
  const link = (await asha.getByTestId("share-text").inputValue()).split("\n").pop()!;
  expect(link).toMatch(/\/daily\/\d{4}-\d{2}-\d{2}\/[0-9A-Z]{26}$/);
  const stranger = await browser.newContext();
  contexts.push(stranger);
  const shared = await stranger.newPage();
  await shared.goto(new URL(link).pathname);
  await expect(shared.getByTestId("daily-flown")).toContainText(/\d+\/10/);
  const sharedText = await shared.locator("main").innerText();
  for (const name of union) expect(sharedText).not.toContain(name.replace(/^\P{L}+/u, "").trim());
  await checkA11y(shared, "a shared flight");
  for (const lang of ["en", "hi"]) {
    const image = await shared.request.get(`/og${new URL(link).pathname}?lang=${lang}`);
    expect(image.status()).toBe(200);
    expect(image.headers()["content-type"]).toBe("image/png");
    expect((await image.body()).subarray(1, 4).toString()).toBe("PNG");
    if (process.env.UDD_SHOTS) fs.writeFileSync(`${process.env.UDD_SHOTS}/daily-card-${lang}.png`, await image.body());
  }
  if (process.env.UDD_SHOTS) {
    for (const lang of ["en", "hi"]) {
      for (const javaScriptEnabled of [true, false]) {
        const context = await browser.newContext({ javaScriptEnabled, baseURL: info.project.use.baseURL });
        await context.addCookies([{ name: "udd_lang", value: lang, url: new URL(link).origin }]);
        const view = await context.newPage();
        await view.goto(new URL(link).pathname);
        for (const width of [360, 1280]) {
          await view.setViewportSize({ width, height: 740 });
          const js = javaScriptEnabled ? "js" : "nojs";
          await view.screenshot({ path: `${process.env.UDD_SHOTS}/daily-flown-${lang}-${js}-${width}.png`, fullPage: true });
        }
        await context.close();
      }
    }
  }
  if (process.env.UDD_SHOTS) {
    for (const width of [360, 1280]) {
      await asha.setViewportSize({ width, height: 900 });
      await asha.screenshot({ path: `${process.env.UDD_SHOTS}/daily-done-${width}.png`, fullPage: true });
    }
  }
  await Promise.all(contexts.map((c) => c.close()));
});
