// The live lobby: two players on two server instances that share one table see each other come
// and go without reloading, within 2 s; the host's changes reach everyone; the link can be
// copied. JavaScript only (the stream is what hydration adds).
import { expect, test } from "./fixtures/test";
import { HomePage } from "./fixtures/home_page";
import { FIRST_INSTANCE, SECOND_INSTANCE } from "./fixtures/instances";
import { RoomPage } from "./fixtures/room_page";

const LIVE = 2_000;

test("players on two instances see each other arrive and leave live", async ({ browser }) => {
  const first = await browser.newContext({ baseURL: FIRST_INSTANCE });
  const second = await browser.newContext({ baseURL: SECOND_INSTANCE });
  const hostPage = await first.newPage();
  const home = new HomePage(hostPage);
  await home.goto();
  await home.createRoom("Host", "Peacock");
  const host = new RoomPage(hostPage);
  const code = await host.roomCode();
  await host.waitForHydration();

  // The friend opens the link on the other instance and joins there.
  const friendPage = await second.newPage();
  const friend = new RoomPage(friendPage);
  await friend.goto(code);
  await friend.expectPlayers(["Host"]);
  await friend.join("Asha", "Owl");
  await friend.expectPlayers(["Host", "Asha"]);
  await friend.waitForHydration();

  // The host, on the first instance, never reloads.
  await host.expectPlayers(["Host", "Asha"], LIVE);
  await expect(host.players.filter({ hasText: "Asha" }).locator(".avatar")).toHaveText("🦉");
  await expect(host.playerCount).toHaveText("Players (2 of 8)");

  // The host changes the settings: the friend's page follows.
  await hostPage.getByLabel("Players (2–12)").fill("6");
  await host.saveSettings();
  await expect(friend.playerCount).toHaveText("Players (2 of 6)", { timeout: LIVE });

  // The host leaves: hosting passes to Asha, live, and she gets the host's controls.
  await host.leave();
  await friend.expectPlayers(["Asha"], LIVE);
  await friend.expectHost("Asha", LIVE);
  await expect(friendPage.getByTestId("settings")).toBeVisible();

  // The old host comes back through the link: Asha sees him arrive.
  await host.goto(code);
  await host.join("Host");
  await friend.expectPlayers(["Asha", "Host"], LIVE);

  // Asha removes him: his page says so without a reload.
  await host.waitForHydration();
  await friend.players.filter({ hasText: "Host" }).getByRole("button", { name: "Remove" }).click();
  await expect(hostPage.getByTestId("removed")).toBeVisible({ timeout: LIVE });
  await host.expectPlayers(["Asha"], LIVE);

  expect(host.problems).toEqual([]);
  expect(friend.problems).toEqual([]);
  await first.close();
  await second.close();
});

test("the last player leaving ends the room for anyone watching", async ({ browser }) => {
  const hostContext = await browser.newContext();
  const visitorContext = await browser.newContext({ baseURL: SECOND_INSTANCE });
  const hostPage = await hostContext.newPage();
  await new HomePage(hostPage).goto();
  await new HomePage(hostPage).createRoom("Solo");
  const code = await new RoomPage(hostPage).roomCode();

  const visitor = new RoomPage(await visitorContext.newPage());
  await visitor.goto(code);
  await visitor.waitForHydration();
  await new RoomPage(hostPage).leave();
  await expect(visitor.page.getByTestId("room-ended")).toBeVisible({ timeout: LIVE });
  await hostContext.close();
  await visitorContext.close();
});

test("the copy button puts the room's full link on the clipboard", async ({ browser }) => {
  const context = await browser.newContext();
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  const page = await context.newPage();
  await new HomePage(page).goto();
  await new HomePage(page).createRoom("Copier");
  const room = new RoomPage(page);
  const code = await room.roomCode();
  await room.waitForHydration();
  await page.getByTestId("copy-link").click();
  await expect(page.getByTestId("share-status")).toHaveText("Link copied.");
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied).toBe(`${FIRST_INSTANCE}/r/${code}`);
  // The share button is offered exactly when the browser has the Web Share API.
  const canShare = await page.evaluate(() => "share" in navigator);
  await expect(page.getByTestId("share-room")).toHaveCount(canShare ? 1 : 0);
  await context.close();
});
