// Reports that hide: after a match, three players in the room report one of the others from the
// room's page ("Report a player", a server-drawn list, then a plain form with a reason). The
// third report hides the reported player's name everywhere at once: the big screen on the other
// instance draws it as a tag without a reload, and the room's board page shows the tag where
// the name was. The oracles: the names the players typed and the tag's form ("👤·" and three
// characters of the id), never the server's own rendering of them.
import { expect, test } from "./fixtures/test";
import { BoardPage } from "./fixtures/board_page";
import { GamePage, roomOfTwo } from "./fixtures/game_page";
import { FIRST_INSTANCE, SECOND_INSTANCE } from "./fixtures/instances";
import { strings, text } from "./fixtures/strings";

test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "the big screen is drawn live by the room's island");

const TAG = /👤·[0-9A-Z]{3}/;

test("a player reported by three others disappears from the board and the big screen", async ({ browser }) => {
  test.setTimeout(120_000);
  const reports = strings("en", "reports");
  const { hostContext, host, friend, code } = await roomOfTwo(browser, "Meera", "Kabir");

  // The big screen on the second instance, nobody signed in.
  const screenContext = await browser.newContext({ baseURL: SECOND_INSTANCE, viewport: { width: 1280, height: 720 } });
  const screen = new GamePage(await screenContext.newPage());
  await screen.page.goto(`/r/${code}/screen`);
  await screen.waitForHydration();
  const big = screen.page.getByTestId("big-screen");

  // One round, so the room's board has both of them.
  await host.startMatch(1, 6000, 11);
  await friend.thingOfRound(1);
  await friend.tapHumanly();
  await expect(host.podium).toBeVisible({ timeout: 15_000 });
  await expect(big).toContainText("Kabir", { timeout: 10_000 });
  const boardHref = (await host.page.getByTestId("board-link").getAttribute("href"))!;
  const board = new BoardPage(await hostContext.newPage());
  await board.page.goto(boardHref);
  await board.waitForLines(2);
  await expect(board.rows.filter({ hasText: "Kabir" })).toHaveCount(1);

  // Three players join and report Kabir from the room's page.
  for (const [i, name] of ["Asha", "Bilal", "Chitra"].entries()) {
    const context = await browser.newContext({ baseURL: FIRST_INSTANCE });
    const reporter = new GamePage(await context.newPage());
    await reporter.goto(code);
    await reporter.join(name);
    await reporter.page.getByTestId("room-report-link").click();
    await expect(reporter.page).toHaveURL(new RegExp(`/r/${code}/report$`));
    await reporter.page.getByRole("link", { name: text(reports, "report_label", { name: "Kabir" }) }).click();
    const form = reporter.page.getByTestId("report-form");
    await form.getByLabel(text(reports, "reason_name")).check();
    await form.getByRole("button", { name: text(reports, "submit") }).click();
    await expect(reporter.page.getByTestId("report-sent")).toHaveText(text(reports, "sent_counted"));
    if (i < 2) {
      // Below the threshold nothing is hidden.
      await board.page.reload();
      await expect(board.rows.filter({ hasText: "Kabir" })).toHaveCount(1);
    }
    await context.close();
  }

  // Hidden at once: the screen (another instance, no reload) and the board page.
  await expect(big).not.toContainText("Kabir", { timeout: 15_000 });
  await expect(big).toContainText(TAG);
  await board.page.reload();
  await expect(board.rows).toHaveCount(2);
  await expect(board.rows.filter({ hasText: "Kabir" })).toHaveCount(0);
  await expect(board.rows.filter({ hasText: TAG })).toHaveCount(1);
  await expect(board.rows.filter({ hasText: "Meera" })).toHaveCount(1);
  // Kabir is asked for another name on his own page.
  await friend.page.goto("/me");
  await expect(friend.page.getByTestId("name-hidden")).toBeVisible();
  await screenContext.close();
});
