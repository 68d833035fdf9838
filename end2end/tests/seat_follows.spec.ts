// A seat follows its player. A signed-in player opens the room on a second device (another
// browser context, signed in there) in the middle of a match: they keep playing there, the first
// device is told its seat moved, and the big screen shows them present. A player whose network
// is cut for 10 s (Playwright's offline mode) is back in their seat with their points and streak.
// A player whose page is gone is greyed as away on the screen and the other players' pages, and
// back at once when they return. The oracles: the standings the host's page shows, and the
// shipped strings.
import { expect, test } from "./fixtures/test";
import { AccountPage } from "./fixtures/account_page";
import { GamePage, roomOfTwo } from "./fixtures/game_page";
import { FIRST_INSTANCE, SECOND_INSTANCE } from "./fixtures/instances";
import { strings, text } from "./fixtures/strings";

test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "a seat moves with the room's live stream");

/** The score `name` has in `page`'s standings. */
async function scoreOf(page: GamePage, name: string): Promise<number> {
  const scores = await page.scores();
  return scores.find(([n]) => n === name)?.[1] ?? NaN;
}

test("a seat follows its player to another device mid-match, and back from 10 s offline", async ({ browser }) => {
  test.setTimeout(180_000);
  const rooms = strings("en", "rooms");
  const { hostContext, friendContext, host, friend, code } = await roomOfTwo(browser, "Meera", "Kabir");
  // Kabir claims his guest as an account, so he can sign in elsewhere.
  const account = new AccountPage(friend.page);
  await account.goto();
  const username = `kabir${Date.now() % 1_000_000}`;
  await account.claim(username, "correct horse battery staple");
  await expect(account.kind).toHaveText(`Signed in as @${username}`, { timeout: 20_000 });
  await friend.goto(code);
  await friend.waitForHydration();

  const screenContext = await browser.newContext({ baseURL: SECOND_INSTANCE, viewport: { width: 1280, height: 720 } });
  const screen = new GamePage(await screenContext.newPage());
  await screen.page.goto(`/r/${code}/screen`);
  await screen.waitForHydration();

  await host.startMatch(6, 3000, 31);
  // Round 1 on the first device: Kabir taps.
  await friend.thingOfRound(1);
  await friend.tapHumanly();
  await friend.expectResultsOf(1);

  // Kabir opens the room on a second device (the other instance), signed in there.
  const secondContext = await browser.newContext({ baseURL: FIRST_INSTANCE });
  const second = new GamePage(await secondContext.newPage());
  const there = new AccountPage(second.page);
  await there.goto();
  await there.signIn(username, "correct horse battery staple");
  await second.goto(code);
  await second.waitForHydration();
  // The first device is told, and stops following the room.
  await expect(friend.page.getByTestId("seat-moved")).toContainText(text(rooms, "room.moved"), { timeout: 5_000 });
  // He keeps playing on the second device: his points carry on from round 1.
  await second.thingOfRound(2);
  const before = await scoreOf(host, "Kabir");
  await second.tapHumanly();
  await second.expectResultsOf(2);
  await expect(second.page.getByTestId("verdict")).toBeVisible();
  await expect.poll(() => scoreOf(host, "Kabir"), { timeout: 10_000 }).not.toBe(before);
  // The screen shows him present (his second device listens).
  await expect(screen.page.getByTestId("player").filter({ hasText: "Kabir" })).not.toHaveClass(/away/);

  // Meera's network is cut for 10 s, then comes back: her page follows the room again, with her
  // points and streak as the room has them.
  await host.page.context().setOffline(true);
  await host.page.waitForTimeout(10_000);
  await host.page.context().setOffline(false);
  await expect(host.board).toBeVisible();
  await second.thingOfRound(5);
  await host.thingOfRound(5);
  await expect.poll(async () => JSON.stringify(await host.scores()), { timeout: 5_000 }).toBe(JSON.stringify(await second.scores()));
  // Her own verdict comes back with the round's close, with her run of right calls as the room
  // has it (the verdict's streak is worked out by the server from every round she played).
  await host.expectResultsOf(5);
  await expect(host.page.getByTestId("verdict")).toHaveAttribute("data-round", /\d+/);

  // Kabir closes his second device: greyed as away on the screen and Meera's page once unheard
  // for the grace, and back at once on his return.
  await secondContext.close();
  const kabirOnScreen = screen.page.getByTestId("player").filter({ hasText: "Kabir" });
  await expect(kabirOnScreen).toHaveClass(/away/, { timeout: 30_000 });
  await expect(kabirOnScreen.getByTestId("away")).toHaveText(text(rooms, "lobby.away"));
  // Each instance judges by what it heard: the one that held his stream up to a beat later.
  await expect(host.page.getByTestId("player").filter({ hasText: "Kabir" })).toHaveClass(/away/, { timeout: 15_000 });
  await friend.goto(code);
  await friend.waitForHydration();
  await expect(kabirOnScreen).not.toHaveClass(/away/, { timeout: 5_000 });

  for (const context of [hostContext, friendContext, screenContext]) await context.close();
});
