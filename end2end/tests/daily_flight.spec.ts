// The daily flight: two players fly today's flight at once, each meets the same ten things in
// an order of their own; a reload mid-flight continues where the clock is and cannot replay a
// round; a second try is refused; their places on the day's board agree with their scores; the
// share text names no thing. The real clock: a flight takes about 56 s.
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
    expect(share).toMatch(/^Udd daily #\d+ 🐦 \d+\/10/);
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
  if (process.env.UDD_SHOTS) {
    for (const width of [360, 1280]) {
      await asha.setViewportSize({ width, height: 900 });
      await asha.screenshot({ path: `${process.env.UDD_SHOTS}/daily-done-${width}.png`, fullPage: true });
    }
  }
  await Promise.all(contexts.map((c) => c.close()));
});
