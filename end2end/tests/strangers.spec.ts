// Safe with strangers, in the room: a host who approves each join (two visitors ask; one is let
// in and plays, the other is turned away and told so on their page without a reload, and told
// again when they ask again), and a room with friendly names (three players who type nothing
// show on the big screen as three different two-word names from the project's word lists; one
// draws another and the screen follows). The oracles: the word lists as files, the names the
// players typed, and the locale files' strings.
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { violations } from "./fixtures/axe";
import { expect, test } from "./fixtures/test";
import { GamePage } from "./fixtures/game_page";
import { HomePage } from "./fixtures/home_page";
import { FIRST_INSTANCE, SECOND_INSTANCE } from "./fixtures/instances";
import { strings, text } from "./fixtures/strings";

test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "the queue's news and the big screen are drawn live by the room's island");

const s = strings("en", "strangers");
const sHi = strings("hi", "strangers");

/** The words of a language's friendly names, read from the project's own lists. */
function wordsOf(lang: "en" | "hi"): Set<string> {
  const file = path.resolve(__dirname, `../../app/src/rooms/friendly/${lang}.txt`);
  return new Set(
    readFileSync(file, "utf8")
      .split("\n")
      .map((line) => line.trim())
      .filter((line) => line && !line.startsWith("#") && !line.startsWith("[")),
  );
}

function isFriendly(name: string, words: Set<string>): boolean {
  const parts = name.split(" ");
  return parts.length === 2 && parts.every((part) => words.has(part));
}

test("a host approves each join: one asker is let in and plays, the other is turned away and told", async ({ browser }) => {
  test.setTimeout(120_000);
  const hostContext = await browser.newContext({ baseURL: FIRST_INSTANCE });
  const host = new GamePage(await hostContext.newPage());
  await new HomePage(host.page).goto();
  await new HomePage(host.page).createRoom("Teacher");
  const code = await host.roomCode();
  await host.waitForHydration();
  // The host turns approval on from the room.
  const approve = host.page.getByTestId("rule-approve");
  await expect(approve).toContainText(text(s, "approve_off"));
  await host.submit(approve.getByRole("button", { name: text(s, "turn_on") }));
  await expect(host.page.getByTestId("rule-approve")).toContainText(text(s, "approve_on"));
  await expect(host.page.getByTestId("join-queue")).toContainText(text(s, "queue_none"));
  await host.waitForHydration();

  // Two visitors ask, one on each instance, one in Hindi.
  const askers: GamePage[] = [];
  for (const [name, baseURL, lang] of [
    ["Asha", FIRST_INSTANCE, "en"],
    ["Bilal", SECOND_INSTANCE, "hi"],
  ] as const) {
    const context = await browser.newContext({ baseURL });
    await context.addCookies([{ name: "udd_lang", value: lang, url: baseURL }]);
    const asker = new GamePage(await context.newPage());
    await asker.goto(code);
    const table = lang === "en" ? s : sHi;
    const form = asker.page.getByTestId("join-room");
    await form.locator("input[name=name]").fill(name);
    await asker.submit(form.getByRole("button", { name: text(table, "ask_button") }));
    await expect(asker.page.getByTestId("asking")).toHaveText(text(table, "asking", { name }));
    await asker.waitForHydration();
    askers.push(asker);
  }
  const [asha, bilal] = askers;
  expect(await violations(bilal.page, "asking (hi)")).toEqual([]);
  // Nobody is in yet.
  await host.expectPlayers(["Teacher"]);

  // The host's page says the queue changed; the link draws it again.
  const changed = host.page.getByTestId("queue-changed");
  await expect(changed).toBeVisible({ timeout: 10_000 });
  await host.submit(changed.getByRole("link", { name: text(s, "queue_show") }));
  const askersListed = host.page.getByTestId("asker");
  await expect(askersListed.locator(".nickname")).toHaveText(["Asha", "Bilal"]);
  expect(await violations(host.page, "the host's queue")).toEqual([]);

  // Asha is let in: her page turns into a player's at once.
  await host.submit(askersListed.filter({ hasText: "Asha" }).getByTestId("let-in"));
  await host.expectPlayers(["Teacher", "Asha"]);
  await expect(asha.page.getByTestId("waiting-for-host")).toBeVisible({ timeout: 10_000 });
  await expect(asha.page.getByTestId("asking")).toBeHidden();

  // Bilal is turned away: told on his page, in Hindi, without a reload.
  await host.waitForHydration();
  await host.submit(host.page.getByTestId("asker").filter({ hasText: "Bilal" }).getByTestId("turn-away"));
  await expect(bilal.page.getByTestId("turned-away")).toHaveText(text(sHi, "turned_away"), { timeout: 10_000 });
  await expect(bilal.page.getByTestId("asking")).toBeHidden();
  await expect(host.page.getByTestId("join-queue")).toContainText(text(s, "queue_none"));
  expect(await violations(bilal.page, "turned away (hi)")).toEqual([]);

  // Asha plays a round.
  await host.waitForHydration();
  await host.startMatch(1, 6000, 11);
  await asha.thingOfRound(1);
  await asha.tapHumanly();
  await expect(host.podium).toBeVisible({ timeout: 15_000 });
  await expect(host.standings.filter({ hasText: "Asha" })).toHaveCount(1);

  // Bilal asks again from the same browser: refused, and told why.
  await bilal.goto(code);
  const again = bilal.page.getByTestId("join-room");
  await again.locator("input[name=name]").fill("Bilal");
  await bilal.submit(again.getByRole("button", { name: text(sHi, "ask_button") }));
  await expect(bilal.formError).toHaveText(text(sHi, "err_turned_away"));
  await hostContext.close();
});

test("a room with friendly names shows three different two-word names on the big screen", async ({ browser }) => {
  test.setTimeout(90_000);
  const english = wordsOf("en");
  const hindi = wordsOf("hi");
  const hostContext = await browser.newContext({ baseURL: FIRST_INSTANCE });
  const host = new GamePage(await hostContext.newPage());
  const home = new HomePage(host.page);
  await home.goto();
  await home.createForm.getByTestId("create-friendly").check();
  await home.createRoom("Teacher");
  const code = await host.roomCode();
  await expect(host.page.getByTestId("rule-friendly")).toContainText(text(s, "friendly_on"));

  const screenContext = await browser.newContext({ baseURL: SECOND_INSTANCE, viewport: { width: 1280, height: 720 } });
  const screen = new GamePage(await screenContext.newPage());
  await screen.page.goto(`/r/${code}/screen`);
  await screen.waitForHydration();

  // Three players join, typing nothing: two in English, one in Hindi.
  const players: GamePage[] = [];
  for (const lang of ["en", "hi", "en"] as const) {
    const context = await browser.newContext({ baseURL: FIRST_INSTANCE });
    await context.addCookies([{ name: "udd_lang", value: lang, url: FIRST_INSTANCE }]);
    const player = new GamePage(await context.newPage());
    await player.goto(code);
    const form = player.page.getByTestId("join-room");
    await expect(form.getByTestId("friendly-help")).toHaveText(text(lang === "en" ? s : sHi, "friendly_help"));
    await expect(form.locator("input[name=name]")).toHaveCount(0);
    await player.submit(form.getByRole("button", { name: text(strings(lang, "rooms"), "home.join") }));
    await expect(player.page.getByTestId("another-name")).toBeVisible();
    players.push(player);
  }

  const names = screen.page.getByTestId("big-screen").getByTestId("player").locator(".nickname");
  await expect(names).toHaveCount(4, { timeout: 10_000 });
  const shown = await names.allInnerTexts();
  expect(shown[0]).toBe("Teacher");
  const drawn = shown.slice(1).map((n) => n.trim());
  expect(new Set(drawn).size).toBe(3);
  expect(isFriendly(drawn[0], english), drawn[0]).toBe(true);
  expect(isFriendly(drawn[1], hindi), drawn[1]).toBe(true);
  expect(isFriendly(drawn[2], english), drawn[2]).toBe(true);

  // One draws another name: the big screen follows without a reload.
  await players[0].submit(players[0].page.getByRole("button", { name: text(s, "another_name") }));
  await expect(names.nth(1)).not.toHaveText(drawn[0], { timeout: 10_000 });
  const again = (await names.nth(1).innerText()).trim();
  expect(isFriendly(again, english), again).toBe(true);
  await expect(players[0].page.getByTestId("another-name")).toContainText(again);
  expect(await violations(players[1].page, "a drawn name (hi)")).toEqual([]);
  await screenContext.close();
  await hostContext.close();
});
