// The catalog page works as a plain server-rendered page: with JavaScript and without it.
import { expect, test } from "./fixtures/test";
import { ThingsPage } from "./fixtures/things_page";

test("shows at least 150 things with both rulings", async ({ page }) => {
  const things = new ThingsPage(page);
  await things.goto();
  expect(await things.things.count()).toBeGreaterThanOrEqual(150);
  const verdicts = new Set(await things.verdicts());
  expect(verdicts).toEqual(new Set(["true", "false"]));
  await expect(things.count).toContainText(/Showing \d+ of \d+ things/);
});

test("filter links show only flyers, then only non-flyers, then all", async ({ page }) => {
  const things = new ThingsPage(page);
  await things.goto();
  const total = await things.things.count();

  await things.filter("yes").click();
  await expect(page).toHaveURL(/flies=yes/);
  await expect(things.filter("yes")).toHaveAttribute("aria-current", "page");
  await expect(things.filter("all")).not.toHaveAttribute("aria-current", "page");
  await things.expectOnly(true);

  await things.filter("no").click();
  await expect(page).toHaveURL(/flies=no/);
  await things.expectOnly(false);

  await things.filter("all").click();
  await expect(things.things).toHaveCount(total);
});

test("the search form finds a thing by its Hindi name", async ({ page }) => {
  const things = new ThingsPage(page);
  await things.goto();
  await things.search.fill("हाथी");
  await things.searchButton.click();
  await expect(page).toHaveURL(/q=/);
  await expect(things.things).toHaveCount(1);
  await expect(things.things.first()).toContainText("Elephant");
});

test("a shared filter link opens filtered", async ({ page }) => {
  const things = new ThingsPage(page);
  await things.goto("?flies=no");
  const grounded = await things.things.count();
  await things.goto("?flies=no&q=bird");
  await expect(things.search).toHaveValue("bird");
  await expect(things.filter("no")).toHaveAttribute("aria-current", "page");
  // Both halves of the link count: only non-flyers, and only those the search finds (a link
  // whose `q` were ignored would show every non-flyer).
  await things.expectOnly(false, 1);
  const shown = await things.things.count();
  expect(shown).toBeLessThan(grounded);
  for (const card of await things.things.all()) await expect(card).toContainText(/bird/i);
  await expect(things.count).toContainText(`Showing ${shown} of`);
});

test("searching keeps the chosen filter", async ({ page }) => {
  const things = new ThingsPage(page);
  await things.goto("?flies=yes");
  await things.search.fill("machhli");
  await things.searchButton.click();
  await expect(page).toHaveURL(/flies=yes/);
  await expect(things.things).toHaveCount(1);
  await expect(things.things.first()).toContainText("Flying fish");
});
