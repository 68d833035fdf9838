// A refused form post comes back to its page with the reason shown, with JavaScript and
// without it (the forms are plain posts either way), and changes nothing.
import { expect, test } from "./fixtures/test";
import { HomePage } from "./fixtures/home_page";
import { RoomPage } from "./fixtures/room_page";

test("joining a room that does not exist says so on the home page", async ({ page }) => {
  const home = new HomePage(page);
  await home.goto();
  await home.tryJoinRoom("ZZZZZ", "Asha");
  await expect(page).toHaveURL((url) => url.pathname === "/");
  await expect(home.formError).toHaveText("There is no open room with that code. It may have ended.");
});

test("a name someone in the room already uses is refused", async ({ browser }) => {
  const hostContext = await browser.newContext();
  const hostPage = await hostContext.newPage();
  await new HomePage(hostPage).goto();
  await new HomePage(hostPage).createRoom("Meera");
  const code = await new RoomPage(hostPage).roomCode();

  const otherContext = await browser.newContext();
  const room = new RoomPage(await otherContext.newPage());
  await room.goto(code);
  await room.joinForm.getByLabel("Your name").fill("meera");
  await room.joinForm.getByRole("button", { name: "Join" }).click();
  await expect(room.formError).toHaveText("Someone in that room already uses that name. Pick another.");
  await room.expectPlayers(["Meera"]);
  await hostContext.close();
  await otherContext.close();
});

test("the host cannot shrink a room below the players in it", async ({ browser, playwright, baseURL }) => {
  const hostContext = await browser.newContext();
  const hostPage = await hostContext.newPage();
  await new HomePage(hostPage).goto();
  await new HomePage(hostPage).createRoom("Host");
  const room = new RoomPage(hostPage);
  const code = await room.roomCode();
  // Two more players join through the API, each with a session of their own.
  for (const name of ["Asha", "Ravi"]) {
    const player = await playwright.request.newContext({ baseURL });
    const joined = await player.post("/api/rooms/join", { form: { code, name } });
    expect(joined.ok()).toBe(true);
    await player.dispose();
  }
  await hostPage.reload();
  await room.expectPlayers(["Host", "Asha", "Ravi"]);
  await hostPage.getByLabel("Players (2–12)").fill("2");
  await hostPage.getByRole("button", { name: "Save settings" }).click();
  await expect(room.formError).toHaveText("The room holds more players than that already.");
  await expect(room.playerCount).toHaveText("Players (3 of 8)");
  await hostContext.close();
});
