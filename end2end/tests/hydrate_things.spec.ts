// What hydration adds: filtering in place (no page load) and live search while typing.
import { expect, test } from "./fixtures/test";
import { ThingsPage } from "./fixtures/things_page";

test("after hydration, filters apply in place without loading a page", async ({ page }) => {
  const things = new ThingsPage(page);
  await things.goto();
  await things.waitForHydration();
  // A full page load would wipe this marker.
  await page.evaluate(() => ((window as unknown as { uddMarker: number }).uddMarker = 42));
  const navigations: string[] = [];
  page.on("framenavigated", (frame) => navigations.push(frame.url()));
  let documentRequests = 0;
  page.on("request", (req) => {
    if (req.resourceType() === "document") documentRequests++;
  });

  await things.filter("yes").click();
  await expect(page).toHaveURL(/flies=yes/);
  await things.expectOnly(true);
  expect(await page.evaluate(() => (window as unknown as { uddMarker?: number }).uddMarker)).toBe(42);
  expect(documentRequests).toBe(0);
});

test("after hydration, typing filters the list without submitting", async ({ page }) => {
  const things = new ThingsPage(page);
  await things.goto();
  await things.waitForHydration();
  await things.search.pressSequentially("crow");
  await expect(things.things).toHaveCount(1);
  await expect(things.things.first()).toContainText("Crow");
  await expect(page).not.toHaveURL(/q=crow/);
  await things.search.fill("");
  expect(await things.things.count()).toBeGreaterThanOrEqual(150);
});

test("text typed before hydration survives it and filters the list", async ({ page }) => {
  // Hold the wasm back so the player types into the static page first.
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/pkg\/udd\.[0-9a-f]{16}\.wasm$/, async (route) => {
    await held;
    await route.continue();
  });
  const things = new ThingsPage(page);
  await things.goto();
  await things.search.fill("haathi");
  await expect(page.locator(".app")).toHaveAttribute("data-hydrated", "false");
  release();
  await things.waitForHydration();
  await expect(things.search).toHaveValue("haathi");
  await expect(things.things).toHaveCount(1);
  await expect(things.things.first()).toContainText("Elephant");
});
