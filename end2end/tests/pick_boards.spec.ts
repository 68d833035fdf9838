// The boards' links and forms work with JavaScript and without it (this spec runs in both
// projects): /lb picks a board by metric, period and scope, each board has one permanent
// address, and "go to position" is a plain GET form.
import { expect, test } from "./fixtures/test";
import { BoardPage } from "./fixtures/board_page";

test("the board links pick every period and metric and land on a permanent address", async ({ page }) => {
  const board = new BoardPage(page);
  const response = await page.goto("/lb");
  expect(response?.status()).toBe(200);
  // The default: this week's best matches, everyone.
  await expect(board.heading).toContainText("Best match · week");
  await expect(board.address).toHaveText(/^\/lb\/best\/week-\d{4}-W\d{2}\/global$/);

  await board.pick("Today");
  await expect(board.heading).toContainText(/Best match · \d{4}-\d{2}-\d{2} · everyone/);
  await expect(board.address).toHaveText(/^\/lb\/best\/day-\d{4}-\d{2}-\d{2}\/global$/);
  await expect(board.facts).toContainText("Next reset in");

  await board.pick("Total points");
  // Totals are not kept by the day: the link lands on this week's totals.
  await expect(board.heading).toContainText("Total points · week");
  await board.pick("This season");
  await expect(board.heading).toContainText(/Total points · \d{4} Q\d · everyone|Total points · .+ · everyone/);
  await board.pick("All time");
  await expect(board.heading).toHaveText("Total points · all time · everyone");
  await expect(board.address).toHaveText("/lb/total/all/global");

  // The permanent address is a page of its own.
  const permanent = await board.address.innerText();
  await page.goto(permanent);
  await expect(board.heading).toHaveText("Total points · all time · everyone");
});

test("a bad board address is a clear error, not a blank page", async ({ page }) => {
  const board = new BoardPage(page);
  const wrong = await page.goto("/lb/worst/all/global");
  expect(wrong?.status()).toBe(400);
  await expect(page.getByRole("alert")).toContainText('"best" or "total"');
  const future = await page.goto("/lb/best/day-2999-01-01/global");
  expect(future?.status()).toBe(404);
  await expect(page.getByRole("alert")).toContainText("has not begun");
  const forged = await page.goto("/lb/best/all/global?after=forged.cursor");
  expect(forged?.status()).toBe(400);
  await expect(board.heading).toHaveText("No such board");
});
