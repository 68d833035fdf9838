// A look bought in the shop and worn is seen by the other players: player A buys and wears a
// look, opens a room, and player B (another browser, on the other server instance) sees it
// around A's avatar in the lobby (with and without JavaScript), then, with JavaScript, on the
// match's standings and on the podium.
import { expect, test } from "./fixtures/test";
import { AccountPage } from "./fixtures/account_page";
import { HomePage } from "./fixtures/home_page";
import { RoomPage } from "./fixtures/room_page";
import { GamePage } from "./fixtures/game_page";
import { ShopPage } from "./fixtures/shop_page";
import { FIRST_INSTANCE, SECOND_INSTANCE } from "./fixtures/instances";
import { grant } from "./fixtures/operator";

test("a look worn by one player is seen by another in the room", async ({ browser }, info) => {
  const username = `wear_${info.project.name.replace("-", "")}_${Date.now() % 1_000_000}`;
  const aContext = await browser.newContext({ baseURL: FIRST_INSTANCE });
  const a = await aContext.newPage();
  const home = new HomePage(a);
  await home.goto();
  await home.createRoom("Asha");
  const account = new AccountPage(a);
  await account.goto();
  await account.claim(username, "correct horse battery");
  grant(username, [], 100);

  const shop = new ShopPage(a);
  await shop.goto();
  await expect(shop.item("look-night").getByTestId("owned")).toHaveCount(0);
  await shop.buy("look-night");
  await expect(shop.notice).toHaveText("Bought Night sky theme for 🪶 40.");
  await expect(shop.item("look-night").getByTestId("owned")).toHaveText("Owned");
  await shop.wear("look-night");
  await expect(shop.item("look-night").getByTestId("wearing")).toHaveText("Wearing");
  await expect(shop.notice).toContainText("You now wear Night sky theme");

  // A opens a room wearing it; B joins from the other instance and sees it on A.
  await home.goto();
  await home.createRoom("Asha");
  const code = await new RoomPage(a).roomCode();
  const bContext = await browser.newContext({ baseURL: SECOND_INSTANCE });
  const b = await bContext.newPage();
  await new HomePage(b).goto();
  await new HomePage(b).joinRoom(code, "Ravi");
  const room = new RoomPage(b);
  await room.expectPlayers(["Asha", "Ravi"]);
  const asha = room.players.filter({ hasText: "Asha" });
  await expect(asha.locator(".avatar")).toHaveAttribute("data-look", "look-night");
  await expect(asha.locator(".avatar")).toHaveClass(/look-night/);
  await expect(room.players.filter({ hasText: "Ravi" }).locator(".avatar")).not.toHaveAttribute("data-look", /./);

  if (info.project.name === "js") {
    const host = new GamePage(a);
    const friend = new GamePage(b);
    await host.waitForHydration();
    await friend.waitForHydration();
    await host.expectPlayers(["Asha", "Ravi"], 5_000);
    await host.startMatch(1, 1000, 5);
    const onBoard = friend.standings.filter({ hasText: "Asha" }).locator(".avatar");
    await expect(onBoard).toHaveAttribute("data-look", "look-night", { timeout: 15_000 });
    await expect(friend.podium).toBeVisible({ timeout: 20_000 });
    const onPodium = friend.podium.getByTestId("podium-place").filter({ hasText: "Asha" }).locator(".avatar");
    await expect(onPodium).toHaveAttribute("data-look", "look-night");
  }
  expect([...shop.problems, ...room.problems]).toEqual([]);
  await aContext.close();
  await bContext.close();
});
