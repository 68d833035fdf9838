// No page logs a console error or loads anything with an HTTP status of 400 or more.
import { expect, test } from "./fixtures/test";
import { AppPage } from "./fixtures/app_page";

for (const path of ["/", "/me", "/things", "/things?flies=yes", "/things?flies=no&q=fish", "/matches"]) {
  test(`loading ${path} is clean`, async ({ page }, info) => {
    const app = new AppPage(page);
    const response = await page.goto(path);
    expect(response?.status()).toBe(200);
    if (info.project.use.javaScriptEnabled !== false) await app.waitForHydration();
    await app.settle();
    expect(app.problems).toEqual([]);
  });
}

test("an unknown page says so with a 404", async ({ page }) => {
  const response = await page.goto("/no-such-page");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Nothing flies here" })).toBeVisible();
});

test("the server reports the engine it was started with", async ({ request }) => {
  const response = await request.get("/healthz");
  expect(response.status()).toBe(200);
  const health = await response.json();
  expect(health.table_status).toBe("ACTIVE");
  // Both instances reach the shared engine by its endpoint URL.
  expect(health.engine).toBe("endpoint");
});
