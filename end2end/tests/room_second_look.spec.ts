// The room at a second look (2026-11-29): a visitor who arrives on a phone mid-match is offered
// the one thing they can do now, playing along, on the first screen, and is not told they will
// play; joined after round 1 closed, they are scored over the rounds they could play (calling
// every one right is "3/3", not "3/4"), by the same rule as the room's audience figure, which then
// agrees (100 %); and the countdown before every round reads 3-2-1 (the results' pause was
// counted in: 5, 4, 3, 2, 1). The oracles: the seed catalog (whether each thing flies), who
// tapped (the test decides), and the shipped strings.
import { violations } from "./fixtures/axe";
import { expect, test, type Page } from "./fixtures/test";
import { GamePage, roomOfTwo } from "./fixtures/game_page";
import { HomePage } from "./fixtures/home_page";
import { FIRST_INSTANCE, SECOND_INSTANCE } from "./fixtures/instances";
import { strings, text } from "./fixtures/strings";
import { thing } from "./fixtures/things";

test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "the match is drawn live by the room's island");

const ROUNDS = 5;

/** With UDD_SHOTS set (a directory), photographs `page` as it is, for people to look at. */
async function shot(page: Page, name: string, fullPage?: boolean) {
  const dir = process.env.UDD_SHOTS;
  if (!dir) return;
  const { width, height } = page.viewportSize()!;
  await page.screenshot({ path: `${dir}/${name}-${width}x${height}.png`, fullPage: fullPage ?? width < 800 });
}

/** Notes every figure the countdown shows on `page`, in order: `window.__counts`. */
async function noteCountdowns(page: Page) {
  await page.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { __counts: string[] }).__counts = seen;
    const look = () => {
      for (const el of document.querySelectorAll("[data-testid=countdown] .count-num")) {
        const shown = (el.textContent ?? "").trim();
        if (seen[seen.length - 1] !== shown) seen.push(shown);
      }
    };
    new MutationObserver(look).observe(document.body, { childList: true, subtree: true, characterData: true });
    look();
  });
}

test("a visitor mid-match plays along from the first screen, is scored over the rounds they could play, and every countdown reads 3-2-1", async ({ browser }) => {
  test.setTimeout(120_000);
  const game = strings("en", "game");
  const rooms = strings("en", "rooms");
  const { hostContext, friendContext, host, friend, code } = await roomOfTwo(browser, "Meera", "Kabir");
  await host.startMatch(ROUNDS, 5000, 31);
  await noteCountdowns(host.page);
  await host.thingOfRound(1);
  await host.expectResultsOf(1);
  // The count before a round is said as one, not under the round's number alone (where a big
  // screen's giant 3 read as the round's number).
  await expect(host.page.getByTestId("countdown")).toContainText(`${text(game, "board.round_of", { n: 2, total: ROUNDS })} ${text(game, "board.starts_in")}`);

  // Round 1 is over: a visitor opens the room's link on a phone, on the other instance.
  const context = await browser.newContext({ baseURL: SECOND_INSTANCE, viewport: { width: 360, height: 740 } });
  const fan = new GamePage(await context.newPage());
  await fan.goto(code);
  await fan.waitForHydration();
  const form = fan.page.getByTestId("join-audience");
  const join = form.getByRole("button", { name: text(rooms, "room.along_button") });
  await expect(join).toBeVisible();
  await shot(fan.page, "visitor-mid-match");
  const button = (await join.boundingBox())!;
  expect(button.y + button.height, "Play along's button on the first screen at 360 × 740").toBeLessThanOrEqual(740);
  // Nobody told them they will play: they joined nothing.
  await expect(fan.page.getByTestId("spectating")).toHaveCount(0);
  await expect(fan.page.getByText(text(game, "board.spectating"))).toHaveCount(0);
  expect(await violations(fan.page, "a visitor mid-match")).toEqual([]);

  await form.getByLabel(text(rooms, "home.your_name")).fill("Zoya");
  // She joins during a countdown, so the round it counts down to is her first, however slow the
  // machine (read off a reveal after joining, a round that closed as she hydrated was hers).
  const countdown = fan.page.getByTestId("countdown");
  await expect(countdown).toContainText(/ starts in/, { timeout: 20_000 });
  const first = Number(/Round (\d+) of/.exec(await countdown.innerText())![1]);
  await fan.submit(join);
  await expect(fan.page.getByTestId("along-note")).toBeVisible();
  await fan.waitForHydration();
  // Round 1 closed before they joined: it is not theirs, not even as a round they were away for.
  await expect(fan.page.locator(".round-verdict.away")).toHaveCount(0);

  // From her first round on, Zoya calls each one right (taps when it flies); the players never
  // tap.
  expect(first).toBeGreaterThan(1);
  for (let n = first; n <= ROUNDS; n++) {
    const id = await fan.page.getByTestId("reveal").filter({ hasText: `Round ${n} of` }).getByTestId("shown-thing").getAttribute("data-thing", { timeout: 20_000 });
    if (thing(id!).flies) await fan.tapHumanly();
    await fan.expectResultsOf(n);
    await expect(fan.page.getByTestId("verdict")).toHaveClass(/right/);
  }
  await expect(fan.podium).toBeVisible({ timeout: 10_000 });
  const played = ROUNDS - first + 1;
  await expect(fan.page.getByTestId("your-calls")).toContainText(text(game, "podium.you_called", { calls: `${played}/${played}` }));
  await shot(fan.page, "audience-end");
  // The room's figure counts the same rounds: she was right in all of them.
  await expect(host.page.getByTestId("crowd-right")).toContainText(text(game, "podium.crowd", { rate: 100 }));

  // The host's page watched every countdown of the match: 3, 2, 1 before each round.
  const counts = await host.page.evaluate(() => (window as unknown as { __counts: string[] }).__counts);
  const figures = counts.filter((c) => /^\d+$/.test(c)).map(Number);
  expect(Math.max(...figures), `countdowns seen: ${counts.join(" ")}`).toBe(3);
  expect(figures.filter((f) => f === 3).length, `countdowns seen: ${counts.join(" ")}`).toBeGreaterThanOrEqual(ROUNDS - 1);

  for (const c of [context, hostContext, friendContext]) await c.close();
});

/** Whether `locator` lies wholly inside the viewport of its page, as first drawn (scrolled to
 * the top). */
async function onFirstScreen(page: Page, locator: import("@playwright/test").Locator, what: string) {
  await page.evaluate(() => window.scrollTo(0, 0));
  await expect(locator, what).toBeVisible();
  await shot(page, what.replace(/\W+/g, "-"));
  const box = (await locator.boundingBox())!;
  const view = page.viewportSize()!;
  // Soft: every item of a screen is checked (and photographed) before the test fails.
  expect.soft(box.y, `${what}: top at ${box.y} of ${view.height}`).toBeGreaterThanOrEqual(0);
  expect.soft(box.y + box.height, `${what}: bottom at ${Math.round(box.y + box.height)} of ${view.height} (${view.width} px wide)`).toBeLessThanOrEqual(view.height);
}

const PHONE = { width: 360, height: 740 };
const LAPTOP = { width: 1280, height: 800 };

// A full room: the three on phones, and eight more who joined without JavaScript (they never
// tap), so a player's own name and the big screen's standings are checked at twelve.
const QUIET = ["Ishaan", "Meher", "Rohan", "Tanvi", "Arjun", "Kavya", "Neel", "Sara"];

test("each one's own next step and own result are on the first screen, and the big screen's end fits without scrolling", async ({ browser }) => {
  test.setTimeout(180_000);
  const rooms = strings("en", "rooms");
  const game = strings("en", "game");
  const hostContext = await browser.newContext({ viewport: PHONE });
  const contexts = [hostContext];
  const host = new GamePage(await hostContext.newPage());
  await host.page.goto("/");
  await new HomePage(host.page).createRoom("Meera");
  const code = await host.roomCode();
  await host.waitForHydration();
  await host.page.getByLabel(text(rooms, "lobby.max_players")).fill("12");
  await host.submit(host.page.getByRole("button", { name: "Save settings" }));
  await expect(host.page.getByLabel(text(rooms, "lobby.max_players"))).toHaveValue("12");
  const start = host.page.getByTestId("start-match").getByRole("button", { name: "Start the match" });
  // Players join on phones, on both instances; the last one (Dev) will come fourth.
  const players: GamePage[] = [];
  for (const [name, base] of [["Kabir", SECOND_INSTANCE], ["Asha", FIRST_INSTANCE], ["Dev", SECOND_INSTANCE]] as const) {
    const context = await browser.newContext({ baseURL: base, viewport: PHONE });
    contexts.push(context);
    const player = new GamePage(await context.newPage());
    await player.goto(code);
    await player.join(name);
    await player.waitForHydration();
    players.push(player);
  }
  for (const name of QUIET) {
    const context = await browser.newContext({ baseURL: FIRST_INSTANCE, javaScriptEnabled: false });
    contexts.push(context);
    const page = new GamePage(await context.newPage());
    await page.goto(code);
    await page.join(name);
  }
  await host.expectPlayers(["Meera", "Kabir", "Asha", "Dev", ...QUIET], 5_000);
  const dev = players[2];
  for (const size of [PHONE, LAPTOP]) {
    await host.page.setViewportSize(size);
    await onFirstScreen(host.page, start, "the host's Start");
    await dev.page.setViewportSize(size);
    await onFirstScreen(dev.page, dev.players.filter({ hasText: "Dev" }), "a player's own name in the lobby");
    await onFirstScreen(dev.page, dev.page.getByTestId("waiting-for-host"), "a player's wait for the host");
  }
  await host.page.setViewportSize(PHONE);
  await dev.page.setViewportSize(PHONE);

  // The big screen, and an audience member on a phone.
  const screens: [Page, { width: number; height: number }][] = [];
  for (const size of [{ width: 1920, height: 1080 }, { width: 1280, height: 720 }]) {
    const context = await browser.newContext({ baseURL: SECOND_INSTANCE, viewport: size });
    contexts.push(context);
    const page = await context.newPage();
    await page.goto(`/r/${code}/screen`);
    await expect(page.locator(".app")).toHaveAttribute("data-hydrated", "true");
    screens.push([page, size]);
  }
  const fanContext = await browser.newContext({ baseURL: FIRST_INSTANCE, viewport: PHONE });
  contexts.push(fanContext);
  const fan = new GamePage(await fanContext.newPage());
  await fan.goto(code);
  const along = fan.page.getByTestId("join-audience");
  await along.getByLabel(text(rooms, "home.your_name")).fill("Zoya");
  await fan.submit(along.getByRole("button", { name: text(rooms, "room.along_button") }));
  await fan.waitForHydration();

  // One round. Dev does the wrong thing, so he is off the podium: with a thing that flies, he
  // and the eight who never tap share 4th place (a tie shares its place); with one that does
  // not, he alone taps and comes last.
  await host.startMatch(1, 8000, 47);
  const id = await host.page.getByTestId("reveal").getByTestId("shown-thing").getAttribute("data-thing", { timeout: 20_000 });
  const flies = thing(id!).flies;
  const tappers = flies ? [host, players[0], players[1], fan] : [dev];
  const devsPlace = flies ? 4 : 4 + QUIET.length;
  await Promise.all(
    tappers.map(async (p) => {
      await p.reveal.waitFor({ timeout: 15_000 });
      await p.tapHumanly();
    }),
  );
  for (const page of [host, dev, fan]) await expect(page.podium).toBeVisible({ timeout: 15_000 });

  for (const size of [PHONE, LAPTOP]) {
    for (const page of [host, dev, fan]) await page.page.setViewportSize(size);
    await onFirstScreen(host.page, host.page.getByTestId("start-match").getByRole("button", { name: text(game, "start.again") }), "the host's Play again");
    await onFirstScreen(dev.page, dev.page.getByTestId("your-place"), "an own place off the podium");
    await expect(dev.page.getByTestId("your-place")).toHaveText(text(game, "podium.your_place", { place: devsPlace }));
    await onFirstScreen(fan.page, fan.page.getByTestId("your-calls"), "an audience member's own score");
  }
  // The standings mark each one's own row.
  const mine = dev.page.locator("[data-testid=standing][aria-current=true]");
  await expect(mine).toHaveCount(1);
  await expect(mine).toContainText(`Dev${text(rooms, "lobby.you")}`);

  // The big screen's end, on a TV that cannot scroll: the podium, the audience's rate and every
  // player's row in the standings, all inside the screen.
  for (const [page, size] of screens) {
    await expect(page.getByTestId("podium")).toBeVisible({ timeout: 15_000 });
    await expect(page.getByTestId("standing")).toHaveCount(4 + QUIET.length);
    await shot(page, "screen-end", true);
    const height = await page.evaluate(() => document.documentElement.scrollHeight);
    expect.soft(height, `the big screen's end at ${size.width} × ${size.height} scrolls`).toBeLessThanOrEqual(size.height);
    for (const row of await page.getByTestId("standing").all()) await onFirstScreen(page, row, `a row of the standings at ${size.width} × ${size.height}`);
  }
  for (const context of contexts) await context.close();
});
