// Room control across two server instances on one table: the host locks the room (a visitor on
// the other instance sees why they cannot join, and the server refuses a join with the reason),
// unlocks it (the visitor joins); a host who closes their tab is handed on within 35 s, and one
// who signs out at once, seen live by the player on the other instance. JavaScript only (the
// live stream is what tells the server the host is here).
import { expect, test } from "./fixtures/test";
import { AccountPage } from "./fixtures/account_page";
import { HomePage } from "./fixtures/home_page";
import { FIRST_INSTANCE, SECOND_INSTANCE } from "./fixtures/instances";
import { RoomPage } from "./fixtures/room_page";

const LIVE = 2_000;
/// The server hands on a host unseen for 30 s (HOST_AWAY_MS); the rest is the stream noticing
/// the closed tab and a poll.
const AWAY = 35_000;

test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "the live room needs JavaScript");

/// A host on the first instance with a room (hydrated), and a context on the second instance.
async function hostWithRoom(browser: import("@playwright/test").Browser) {
  const first = await browser.newContext({ baseURL: FIRST_INSTANCE });
  const second = await browser.newContext({ baseURL: SECOND_INSTANCE });
  const hostPage = await first.newPage();
  await new HomePage(hostPage).goto();
  await new HomePage(hostPage).createRoom("Host");
  const host = new RoomPage(hostPage);
  const code = await host.roomCode();
  await host.waitForHydration();
  return { first, second, hostPage, host, code };
}

/// A host on the first instance with a room, and a friend in it on the second.
async function hostAndFriend(browser: import("@playwright/test").Browser) {
  const { first, second, host, code } = await hostWithRoom(browser);
  const friend = new RoomPage(await second.newPage());
  await friend.goto(code);
  await friend.join("Asha");
  await friend.waitForHydration();
  await host.expectPlayers(["Host", "Asha"], LIVE);
  return { first, second, host, friend, code };
}

test("a locked room tells a visitor why and refuses their join; unlocked, they join", async ({ browser }) => {
  const { first, second, hostPage, host, code } = await hostWithRoom(browser);

  await host.submit(hostPage.getByRole("button", { name: "Lock the room" }));
  await expect(hostPage.getByTestId("locked-marker")).toHaveText("🔒 Locked");
  await expect(hostPage.getByRole("button", { name: "Unlock the room" })).toBeVisible();

  // A visitor on the other instance sees the notice instead of the join form.
  const visitor = new RoomPage(await second.newPage());
  await visitor.goto(code);
  await expect(visitor.page.getByTestId("room-locked")).toContainText("The host has locked this room");
  await expect(visitor.joinForm).toBeHidden();
  await expect(visitor.page.getByTestId("locked-marker")).toBeVisible();
  // Nothing invites them in: no link, copy button or QR code.
  await expect(visitor.page.getByTestId("share-link")).toBeHidden();
  await expect(visitor.page.getByTestId("room-qr")).toBeHidden();
  await visitor.waitForHydration();
  await expect(visitor.page.getByTestId("copy-link")).toBeHidden();

  // Posting the join anyway is refused with the reason, and makes nobody.
  const refused = await second.request.post(`${SECOND_INSTANCE}/api/rooms/join`, {
    form: { code, name: "Asha" },
    headers: { Accept: "application/json" },
  });
  expect(refused.status()).toBe(403);
  expect(await refused.text()).toContain("The host has locked this room.");
  await host.expectPlayers(["Host"]);

  // Unlocked: the visitor's page offers the join form again, live, and the join works.
  await host.submit(hostPage.getByRole("button", { name: "Unlock the room" }));
  await expect(hostPage.getByTestId("locked-marker")).toHaveCount(0);
  await expect(visitor.joinForm).toBeVisible({ timeout: LIVE });
  await expect(visitor.page.getByTestId("room-locked")).toBeHidden();
  await expect(visitor.page.getByTestId("room-qr")).toBeVisible();
  await visitor.join("Asha");
  await host.expectPlayers(["Host", "Asha"], LIVE);

  expect(host.problems).toEqual([]);
  await first.close();
  await second.close();
});

test("a host who closes their tab is handed on within 35 s, live on the other instance", async ({ browser }) => {
  test.setTimeout(90_000);
  const { first, second, host, friend } = await hostAndFriend(browser);
  await friend.expectHost("Host");
  await expect(friend.page.getByTestId("settings")).toBeHidden();

  const closed = Date.now();
  await host.page.close();
  await friend.expectHost("Asha", AWAY);
  const took = Date.now() - closed;
  console.log(`handed on ${took} ms after the host's tab closed`);
  // The grace is real: not handed on the moment the tab closed.
  expect(took).toBeGreaterThan(15_000);
  await expect(friend.page.getByTestId("settings")).toBeVisible({ timeout: LIVE });
  await friend.expectPlayers(["Host", "Asha"]);

  expect(friend.problems).toEqual([]);
  await first.close();
  await second.close();
});

test("a host who signs out is handed on at once", async ({ browser }) => {
  const { first, second, host, friend } = await hostAndFriend(browser);
  await friend.expectHost("Host");

  // Only an account signs out (a guest has nothing to sign back in to): the host claims one.
  const account = new AccountPage(host.page);
  await account.goto();
  await account.claim(`host_${Date.now().toString(36)}`, "correct horse battery");
  await account.signOut();
  await friend.expectHost("Asha", LIVE);
  await expect(friend.page.getByTestId("settings")).toBeVisible({ timeout: LIVE });

  expect(friend.problems).toEqual([]);
  await first.close();
  await second.close();
});

test("the host hands the room to a player they choose", async ({ browser }) => {
  const { first, second, host, friend } = await hostAndFriend(browser);
  await host.submit(host.players.filter({ hasText: "Asha" }).getByRole("button", { name: "Make host" }));
  await host.expectHost("Asha");
  await friend.expectHost("Asha", LIVE);
  await expect(friend.page.getByTestId("settings")).toBeVisible({ timeout: LIVE });
  await expect(host.page.getByTestId("settings")).toBeHidden();

  expect(host.problems).toEqual([]);
  expect(friend.problems).toEqual([]);
  await first.close();
  await second.close();
});
