// After a match, a player finds their rank and their neighbours on the boards; the room's board
// link, shared, opens in a fresh context with JavaScript off and previews with the top three.
import { expect, test } from "./fixtures/test";
import { BoardPage } from "./fixtures/board_page";
import { roomOfTwo } from "./fixtures/game_page";
import { SECOND_INSTANCE } from "./fixtures/instances";

test("a player sees their rank and the players around them after a match", async ({ browser }) => {
  test.setTimeout(90_000);
  const { hostContext, friendContext, host, friend, code } = await roomOfTwo(browser, "Ranked", "Rival");

  // One round: the host holds back, the rival taps, so their scores differ. A long window: the
  // tap's note shows only while its round is open, and on a busy machine the thing can reach
  // the rival's instance late.
  await host.startMatch(1, 6000, 11);
  await friend.thingOfRound(1);
  await friend.tapHumanly();
  await expect(host.podium).toBeVisible({ timeout: 15_000 });
  const standings = await host.scores();

  // The room's board, once the projector has counted the match.
  const boardHref = await host.page.getByTestId("board-link").getAttribute("href");
  // The board's own address: the room's id (its code and a ULID), which outlives the code.
  expect(boardHref).toMatch(new RegExp(`^/lb/best/all/room-${code}-[0-9A-HJKMNP-TV-Z]{26}$`));
  const mine = await hostContext.newPage();
  const board = new BoardPage(mine);
  await mine.goto(boardHref!);
  await board.waitForLines(2);
  await board.waitForRankOf(2);
  await expect(board.scores).toHaveText(standings.map(([, s]) => String(s)).sort((a, b) => Number(b) - Number(a)));
  const myRank = standings[0][0] === "Ranked" || standings[0][1] === standings[1][1] ? 1 : 2;
  // The rank comes from the board's counting tree, which follows the entries from the stream
  // (on DynamoDB Local a move can land a moment after the total counts both): read again until
  // it has, as a player reloading would.
  await expect(async () => {
    await mine.reload();
    await expect(board.myRank).toHaveText(new RegExp(`^You are #${myRank} of 2 \\(top \\d+\\.\\d%\\)\\.$`), { timeout: 1_000 });
  }).toPass({ timeout: 20_000 });
  // Both are in the top lines already: no second table of the same rows, their own row marked.
  await expect(board.aroundMe).toHaveCount(0);
  await expect(board.myRow).toHaveCount(1);
  await expect(board.myRow).toContainText("Ranked");
  await expect(board.rows.filter({ hasText: "Rival" })).toHaveCount(1);
  await expect(board.facts).toContainText(/Updated \d+ (s|min) ago/);

  // Everyone's all-time board has them too, with their neighbours from every other match.
  await mine.goto("/lb?metric=best&period=all&scope=global");
  await expect(board.standing).toBeVisible();
  await expect(board.myRank).toHaveText(/^You are #\d+ of \d+/);
  // Their row is marked once: among the top lines, or in the rows around them below.
  await expect(board.myRow).toHaveCount(1);
  await expect(board.myRow).toContainText("Ranked");

  // The shared link, fresh, without JavaScript or a session.
  const visitor = await browser.newContext({ baseURL: SECOND_INSTANCE, javaScriptEnabled: false });
  const shared = new BoardPage(await visitor.newPage());
  await shared.page.goto(boardHref!);
  await expect(shared.rows).toHaveCount(2);
  await expect(shared.standing).toHaveCount(0);
  const html = await (await visitor.request.get(boardHref!)).text();
  expect(html).toContain(`<meta property="og:title" content="Udd leaderboard: Best match · all time · room ${code}"`);
  expect(html).toMatch(/<meta property="og:description" content="1\. (Ranked|Rival) -?\d+ · \d\. (Ranked|Rival) -?\d+"/);
  expect(html).not.toContain("<leptos-island");

  await hostContext.close();
  await friendContext.close();
  await visitor.close();
});
