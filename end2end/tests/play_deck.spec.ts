// A deck played in a room: a host pastes 12 lines into a new public deck, chooses it in the
// lobby (with JavaScript and without: a plain form), is refused more rounds than it has things,
// and plays a 5-round match with two phones (one on each instance) and the big screen; every
// thing shown is the deck's, every round's line follows the deck's ruling, and once the
// projector has counted the match the deck's page shows its play. A second host finds it in the
// gallery (this week's most played), plays it by its code, and the page shows 2 plays. Pictures
// of the lobby, the deck's page and the gallery go to target/screens/decks. The oracles: the
// lines the test pasted (which names fly) and the locale files' strings.
import { expect, test } from "./fixtures/test";
import { GamePage, HUMANLY } from "./fixtures/game_page";
import { HomePage } from "./fixtures/home_page";
import { FIRST_INSTANCE, SECOND_INSTANCE } from "./fixtures/instances";
import { strings, text } from "./fixtures/strings";
import { shots as pictures } from "./fixtures/shots";

const PETS = ["Moti", "Tommy", "Kalu", "Bholu", "Chintu", "Pinky", "Sheru", "Tiger", "Mithu", "Bunty", "Raja", "Rani"];
/** This family's rulings: every third pet flies. */
const flies = (name: string) => PETS.indexOf(name) % 3 === 0;
const LINES = PETS.map((pet, i) => `${pet}, ${flies(pet) ? "yes" : "no"}${i === 1 ? ", he only jumps" : ""}`);
const ROUNDS = 5;

/** Waits until deck `deck`'s page, opened again each second, says it was played `plays` times
 * (the projector counts a match a moment after it ends). */
async function expectPlays(page: import("./fixtures/test").Page, deck: string, plays: number) {
  await expect
    .poll(
      async () => {
        await page.goto(`/d/${deck}`);
        return page.getByTestId("deck-plays").getAttribute("data-plays");
      },
      { timeout: 30_000, intervals: [1_000] },
    )
    .toBe(String(plays));
}

test("a host plays their own deck in a room, on two instances and the big screen, and its page counts the play", async ({ browser, javaScriptEnabled }) => {
  test.setTimeout(150_000);
  const game = strings("en", "game");
  const d = strings("en", "decks");
  const hostContext = await browser.newContext({ baseURL: FIRST_INSTANCE, javaScriptEnabled });
  const host = new GamePage(await hostContext.newPage());
  await new HomePage(host.page).goto();
  await new HomePage(host.page).createRoom("Tara");
  const code = await host.roomCode();

  // The deck, pasted and public.
  await host.page.goto("/decks/new");
  await host.page.getByTestId("deck-title").fill("Our pets");
  await host.page.getByTestId("deck-lines").fill(LINES.join("\n"));
  await host.page.locator("input[name=visibility][value=public]").check();
  await host.page.getByTestId("save-deck").click();
  await host.page.waitForURL(/\/d\/[A-Z0-9]{7}$/);
  const deck = new URL(host.page.url()).pathname.split("/").pop()!;
  await expect(host.page.getByTestId("deck-plays")).toHaveAttribute("data-plays", "0");

  // Chosen in the lobby: the settings line names it for everyone.
  await host.goto(code);
  const choice = host.page.getByTestId("room-deck");
  await choice.getByTestId("deck-choice").selectOption(deck);
  await host.submit(choice.getByRole("button", { name: text(d, "room.choose") }));
  await expect(host.page.getByTestId("settings-summary")).toContainText("Our pets");
  await expect(host.page.getByTestId("deck-choice")).toHaveValue(deck);
  await pictures(host.page, "decks", "lobby-deck-chosen", javaScriptEnabled !== false);
  // More rounds than the deck has things: refused, said, and nothing changed.
  await host.page.getByLabel("Rounds (1–30)").fill("13");
  await host.saveSettings();
  await expect(host.formError).toHaveText(text(d, "errors.too_few_things", { things: "12" }));
  await expect(host.page.getByLabel("Rounds (1–30)")).toHaveValue("10");
  if (!javaScriptEnabled) {
    // The gallery and the deck's page, as a visitor without JavaScript sees them.
    await host.page.goto(`/decks?q=our+pe`);
    await expect(host.page.getByTestId("gallery-deck").filter({ has: host.page.locator(`[href="/d/${deck}"]`) })).toHaveCount(1);
    await pictures(host.page, "decks", "gallery-search", false);
    await host.page.goto(`/d/${deck}`);
    await pictures(host.page, "decks", "deck-page", false);
    await hostContext.close();
    return;
  }
  await host.waitForHydration();

  // A phone and the big screen, both on the other instance.
  const phoneContext = await browser.newContext({ baseURL: SECOND_INSTANCE, viewport: { width: 360, height: 740 } });
  const phone = new GamePage(await phoneContext.newPage());
  await phone.goto(code);
  await phone.join("Nila");
  await phone.waitForHydration();
  // A second phone, on the host's instance.
  const phone2Context = await browser.newContext({ baseURL: FIRST_INSTANCE, viewport: { width: 360, height: 740 } });
  const phone2 = new GamePage(await phone2Context.newPage());
  await phone2.goto(code);
  await phone2.join("Veer");
  await phone2.waitForHydration();
  const screenContext = await browser.newContext({ baseURL: SECOND_INSTANCE, viewport: { width: 1280, height: 720 } });
  const screen = new GamePage(await screenContext.newPage());
  await screen.page.goto(`/r/${code}/screen`);
  await screen.waitForHydration();
  await host.expectPlayers(["Tara", "Nila", "Veer"], 5_000);

  await host.startMatch(ROUNDS, 3000, 7);
  const shown: string[] = [];
  for (let n = 1; n <= ROUNDS; n++) {
    const name = await host.thingOfRound(n);
    expect(PETS, `round ${n} shows one of the deck's things`).toContain(name);
    shown.push(name);
    for (const player of [phone, phone2]) {
      await expect(player.reveal.filter({ hasText: `Round ${n} of` })).toContainText(name, { timeout: 15_000 });
    }
    await expect(screen.reveal.filter({ hasText: `Round ${n} of` })).toContainText(name, { timeout: 15_000 });
    // Tara taps what the deck says flies; Nila taps everything; Veer nothing.
    const plan: [GamePage, boolean][] = [
      [host, flies(name)],
      [phone, true],
      [phone2, false],
    ];
    await Promise.all(
      plan.map(async ([player, tap]) => {
        if (!tap) return;
        await player.page.waitForTimeout(HUMANLY);
        await player.udd.click({ timeout: 2_000 }).catch(() => {});
      }),
    );
    // The round's line follows the deck's ruling, on the players' pages and the screen.
    const line = text(game, flies(name) ? "results.flies" : "results.grounded", { n, thing: name });
    for (const page of [host, phone, phone2, screen]) {
      await expect(page.summary).toContainText(line, { timeout: 10_000 });
    }
  }
  expect(new Set(shown).size, "no thing twice").toBe(ROUNDS);
  await expect(phone.podium).toBeVisible({ timeout: 15_000 });

  // The match's page shows each round with the deck's ruling, and its note where it has one.
  await phone.page.getByTestId("match-detail-link").click();
  await expect(phone.page.getByTestId("match-round")).toHaveCount(ROUNDS);
  const noted = shown.indexOf(PETS[1]);
  await expect(phone.page.getByTestId("round-note")).toHaveCount(noted < 0 ? 0 : 1);
  if (noted >= 0) await expect(phone.page.getByTestId("match-round").nth(noted).getByTestId("round-note")).toHaveText("he only jumps");
  await pictures(phone.page, "decks", "deck-match", true);

  // The projector counts the match once: the deck's page says so.
  await expectPlays(host.page, deck, 1);
  await expect(host.page.getByTestId("deck-plays")).toContainText(text(d, "room.plays_one"));
  await pictures(host.page, "decks", "deck-page", true);

  // A second host finds it in the gallery (this week's most played) and plays it by its code,
  // alone: every thing their match shows is the deck's too.
  const secondContext = await browser.newContext({ baseURL: SECOND_INSTANCE });
  const second = new GamePage(await secondContext.newPage());
  await second.page.goto("/decks");
  const listed = second.page.getByTestId("gallery-deck").filter({ has: second.page.locator(`[href="/d/${deck}"]`) });
  await expect(listed).toContainText(text(d, "gallery.week_plays", { count: "1" }));
  await pictures(second.page, "decks", "gallery-week", true);
  await new HomePage(second.page).goto();
  await new HomePage(second.page).createRoom("Ravi");
  const secondCode = await second.roomCode();
  const form = second.page.getByTestId("room-deck");
  await form.getByTestId("deck-code").fill(deck.toLowerCase());
  await second.submit(form.getByRole("button", { name: text(d, "room.choose") }));
  await expect(second.page.getByTestId("settings-summary")).toContainText("Our pets");
  await second.waitForHydration();
  await second.startMatch(3, 1000, 9);
  for (let n = 1; n <= 3; n++) expect(PETS).toContain(await second.thingOfRound(n));
  await expect(second.podium).toBeVisible({ timeout: 20_000 });
  expect(secondCode).not.toBe(code);
  await expectPlays(host.page, deck, 2);

  // A player who is not its author may report it, and is told the report counted; its author
  // has no report to send. (One report hides nothing: three do, see data::deck_reports.)
  await second.page.goto(`/d/${deck}`);
  const report = second.page.getByTestId("report-deck");
  await report.locator("summary").click();
  await report.getByRole("radio").first().check();
  await second.submit(report.getByTestId("send-deck-report"));
  await expect(second.page.getByTestId("deck-reported")).toHaveText(text(d, "report.counted"));
  await second.page.getByTestId("report-deck").locator("summary").click();
  await pictures(second.page, "decks", "deck-reported", true);
  await host.page.goto(`/d/${deck}`);
  await expect(host.page.getByTestId("deck")).toBeVisible();
  await expect(host.page.getByTestId("report-deck")).toHaveCount(0);
  for (const context of [hostContext, phoneContext, phone2Context, screenContext, secondContext]) await context.close();
});
