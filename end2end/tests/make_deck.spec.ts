// Decks, their pages: a player makes a deck by pasting lines, sees it with its rulings hidden
// until asked, edits it, and a refused form comes back with everything typed in it, with
// JavaScript and without (the pages are server-drawn plain forms). The oracles: the lines the
// test typed and the locale files' strings.
import { expect, test } from "./fixtures/test";
import { FIRST_INSTANCE } from "./fixtures/instances";
import { strings, text } from "./fixtures/strings";

const d = strings("en", "decks");

/** `count` lines: `Moti 1, yes, …`. */
function petLines(count: number): string[] {
  return Array.from({ length: count }, (_, i) => `Moti ${i + 1}, ${i % 3 === 0 ? "yes" : "no"}, ruled at dinner ${i + 1}`);
}

test("a deck made from pasted lines shows its things, hides its rulings until asked, and is edited", async ({ browser, javaScriptEnabled }) => {
  const context = await browser.newContext({ baseURL: FIRST_INSTANCE, javaScriptEnabled });
  const page = await context.newPage();
  // A guest, made by opening a room (the way a player starts).
  await page.goto("/");
  await page.getByTestId("create-room").locator("input[name=name]").fill("Asha");
  await page.getByTestId("create-room").locator("button[type=submit]").click();
  await page.waitForURL(/\/r\/[A-Z0-9]{5}$/);

  await page.goto("/");
  await page.getByTestId("decks-link").click();
  await page.getByTestId("new-deck-link").click();
  await page.getByTestId("deck-title").fill("Our pets");
  await page.getByTestId("deck-lines").fill(petLines(12).join("\n"));
  await page.getByTestId("save-deck").click();
  await page.waitForURL(/\/d\/[A-Z0-9]{7}$/);

  const things = page.getByTestId("deck-things").locator("li");
  await expect(things).toHaveCount(12);
  await expect(things.first()).toContainText("Moti 1");
  // The rulings are there, closed: a player does not see them before asking.
  const rulings = page.getByTestId("deck-rulings");
  await expect(rulings.getByText("ruled at dinner 1", { exact: false }).first()).toBeHidden();
  await rulings.locator("summary").click();
  await expect(rulings.getByText("ruled at dinner 1", { exact: false }).first()).toBeVisible();

  // Edited: one line more; a line without a ruling is refused and the form keeps all 14 lines.
  await page.getByTestId("edit-deck").click();
  await expect(page.getByTestId("deck-lines")).toHaveValue(/Moti 12, no, ruled at dinner 12/);
  const typed = [...petLines(13), "Kite, maybe"].join("\n");
  await page.getByTestId("deck-lines").fill(typed);
  await page.getByTestId("save-deck").click();
  await expect(page.getByTestId("form-error")).toHaveText(text(d, "errors.unreadable", { line: "14" }));
  await expect(page.getByTestId("deck-lines")).toHaveValue(typed);
  await page.getByTestId("deck-lines").fill(petLines(13).join("\n"));
  await page.getByTestId("save-deck").click();
  await page.waitForURL(/\/d\/[A-Z0-9]{7}$/);
  await expect(page.getByTestId("deck-things").locator("li")).toHaveCount(13);

  // Listed among the player's decks.
  await page.goto("/decks");
  await expect(page.getByTestId("my-decks")).toContainText("Our pets");
  await expect(page.getByTestId("my-decks")).toContainText(text(d, "pages.count", { count: "13" }));
  await context.close();
});
