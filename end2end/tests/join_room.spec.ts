// A host opens a room, a friend joins with the code from another browser, a visitor sees the
// lobby: with JavaScript and without it.
import { expect, test } from "./fixtures/test";
import { HomePage } from "./fixtures/home_page";
import { RoomPage } from "./fixtures/room_page";

test("a host opens a room and a friend joins by code", async ({ browser }) => {
  const hostContext = await browser.newContext();
  const friendContext = await browser.newContext();
  const hostPage = await hostContext.newPage();
  const home = new HomePage(hostPage);
  await home.goto();
  await home.createRoom("Host");
  const hostRoom = new RoomPage(hostPage);
  const code = await hostRoom.roomCode();
  expect(code).toMatch(/^[A-Z0-9]{5}$/);
  await hostRoom.expectPlayers(["Host"]);
  await expect(hostRoom.players.first()).toContainText("Host");
  await expect(hostRoom.shareLink).toHaveAttribute("href", `/r/${code}`);

  const friendPage = await friendContext.newPage();
  const friendHome = new HomePage(friendPage);
  await friendHome.goto();
  await friendHome.joinRoom(code.toLowerCase(), "Asha");
  await new RoomPage(friendPage).expectPlayers(["Host", "Asha"]);

  await hostPage.reload();
  await hostRoom.expectPlayers(["Host", "Asha"]);
  await hostPage.screenshot({ path: "test-results/lobby-host.png", fullPage: true });

  // The host's controls are plain form posts that come back to the lobby.
  await hostRoom.players.filter({ hasText: "Asha" }).getByRole("button", { name: "Remove" }).click();
  await hostRoom.expectPlayers(["Host"]);
  await hostPage.getByRole("button", { name: "Leave room" }).click();
  await hostPage.waitForURL((url) => url.pathname === "/");
  expect((await hostRoom.goto(code))?.status()).toBe(404);
  await hostContext.close();
  await friendContext.close();
});

test("a visitor with the link sees the lobby and a way to join", async ({ browser }) => {
  const hostContext = await browser.newContext();
  const hostPage = await hostContext.newPage();
  await new HomePage(hostPage).goto();
  await new HomePage(hostPage).createRoom("Meera");
  const code = await new RoomPage(hostPage).roomCode();

  const visitor = await browser.newContext();
  const page = await visitor.newPage();
  const room = new RoomPage(page);
  const response = await room.goto(code);
  expect(response?.status()).toBe(200);
  await room.expectPlayers(["Meera"]);
  await expect(page.getByTestId("join-room")).toBeVisible();
  await hostContext.close();
  await visitor.close();
});

test("an unknown room says so", async ({ page }) => {
  const room = new RoomPage(page);
  const response = await room.goto("ZZZZZ");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "No such room" })).toBeVisible();
});

test("the lobby shows a QR code of its link", async ({ page }) => {
  const home = new HomePage(page);
  await home.goto();
  await home.createRoom("Qr");
  const qr = page.getByTestId("room-qr").locator("svg");
  await expect(qr).toBeVisible();
  expect(await qr.locator("path, rect").count()).toBeGreaterThan(0);
});
