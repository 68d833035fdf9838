// A whole match: three players in three browser contexts on two server instances play three
// rounds with a fixed seed. One taps flyers fast (with the Space key), one taps everything, one
// never taps; the standings follow the rules. One player reloads mid-match and carries on. The
// room leaderboard's link then works in a fresh context without JavaScript, and its raw HTML
// carries the OpenGraph tags; the podium leads to every round of the match, and from there to a
// player's profile.
import { expect, test } from "./fixtures/test";
import { BoardPage } from "./fixtures/board_page";
import { GamePage, HUMANLY } from "./fixtures/game_page";
import { HomePage } from "./fixtures/home_page";
import { FIRST_INSTANCE, SECOND_INSTANCE } from "./fixtures/instances";
import { ThingsPage } from "./fixtures/things_page";

const ROUNDS = 3;
const HOLD_REWARD = 150;

// Each page notes (its own clock, the server's machine) when round n's thing reaches the DOM.
const notePaints = () => {
  const seen: Record<string, number> = ((window as any).__revealAt = {});
  new MutationObserver(() => {
    const at = performance.timeOrigin + performance.now();
    for (const el of document.querySelectorAll("[data-testid=reveal]")) {
      const n = el.getAttribute("data-round");
      if (n && !(n in seen)) seen[n] = at;
    }
  }).observe(document, { subtree: true, childList: true, attributes: true });
};

test("three players on two instances play a match that scores by the rules", async ({ browser }) => {
  test.setTimeout(120_000);
  const hostContext = await browser.newContext({ baseURL: FIRST_INSTANCE });
  const alwaysContext = await browser.newContext({ baseURL: SECOND_INSTANCE });
  // The third player is on a 360 px phone.
  const neverContext = await browser.newContext({
    baseURL: FIRST_INSTANCE,
    viewport: { width: 360, height: 740 },
    hasTouch: true,
  });
  for (const context of [hostContext, alwaysContext, neverContext]) await context.addInitScript(notePaints);

  // What flies, as a player knows it: the catalog page.
  const catalogPage = await hostContext.newPage();
  const things = new ThingsPage(catalogPage);
  await things.goto("?flies=all");
  const names = await things.names();
  const verdicts = await things.verdicts();
  const flies = new Map(names.map((name, i) => [name.trim(), verdicts[i] === "true"]));
  await catalogPage.close();

  const fastPage = await hostContext.newPage();
  await new HomePage(fastPage).goto();
  await new HomePage(fastPage).createRoom("Fast", "Kite");
  const fast = new GamePage(fastPage);
  const code = await fast.roomCode();
  await fast.waitForHydration();

  const always = new GamePage(await alwaysContext.newPage());
  await always.goto(code);
  await always.join("Always", "Owl");
  await always.waitForHydration();
  let never = new GamePage(await neverContext.newPage());
  await never.goto(code);
  await never.join("Never", "Frog");
  await never.waitForHydration();
  await fast.expectPlayers(["Fast", "Always", "Never"], 2_000);

  // A 6 s window: on a loaded 2-core machine a test's click can land 2.7 s after the reveal
  // (seen with three matches at once, as a slow phone would), which a 3 s window turns into a
  // click on a closed round.
  await fast.startMatch(ROUNDS, 6000, 7);
  await fast.waitForHydration();
  await expect(always.board).toBeVisible({ timeout: 2_000 });
  await expect(never.board).toBeVisible({ timeout: 2_000 });

  const shown: boolean[] = [];
  for (let n = 1; n <= ROUNDS; n++) {
    // Each player watches their own screen and decides after a human moment.
    const play = async (player: GamePage, taps: (flies: boolean) => boolean, tap: () => Promise<void>) => {
      const thing = await player.thingOfRound(n);
      expect(flies.has(thing)).toBe(true);
      if (taps(flies.get(thing)!)) {
        await player.page.waitForTimeout(HUMANLY);
        await tap();
        // Instant local feedback, before the server answers.
        await expect(player.myTap).toContainText("Udd!");
      }
      return thing;
    };
    const [thing, alwaysSaw, neverSaw] = await Promise.all([
      play(fast, (f) => f, () => fastPage.keyboard.press("Space")),
      play(always, () => true, () => always.udd.click()),
      play(never, () => false, async () => {}),
    ]);
    expect(alwaysSaw).toBe(thing);
    expect(neverSaw).toBe(thing);
    const thingFlies = flies.get(thing)!;
    shown.push(thingFlies);
    await never.expectNoSideways();
    if (process.env.UDD_SHOTS) await never.page.screenshot({ path: `${process.env.UDD_SHOTS}/round-${n}.png` });
    for (const player of [fast, always, never]) await player.expectResultsOf(n);
    // The server counted exactly the taps made.
    expect(await never.resultOf("Fast")).toContain(thingFlies ? "tapped in" : "held back");
    expect(await never.resultOf("Always")).toContain("tapped in");
    expect(await never.resultOf("Never")).toContain("held back");
    if (n === 1) {
      // A reload mid-match picks the match up where it is.
      await never.page.reload();
      never = new GamePage(never.page);
      await expect(never.board).toBeVisible();
      await never.waitForHydration();
      await never.expectResultsOf(1);
    }
  }
  // When each player, on either instance, saw each thing on screen (`never`
  // reloaded after round 1 and noted afresh, so rounds are compared from 2 on).
  const paints = await Promise.all(
    [fast, always, never].map((p) => p.page.evaluate(() => (window as any).__revealAt as Record<string, number>)),
  );
  const spreads: number[] = [];
  for (let n = 2; n <= ROUNDS; n++) {
    const at = paints.map((p) => p[String(n)]);
    expect(at.every((t) => typeof t === "number")).toBe(true);
    spreads.push(Math.round(Math.max(...at) - Math.min(...at)));
  }
  const sorted = [...spreads].sort((a, b) => a - b);
  const p95 = sorted[Math.min(sorted.length - 1, Math.ceil(0.95 * sorted.length) - 1)];
  console.log(`reveal spread across two instances, per round (ms): ${spreads.join(", ")}; p95 ${p95} ms (on screen, while other specs run; hydrate_reveal_spread measures alone)`);
  // Printed, not asserted here: on screen it carries the test machine's load as well (three
  // pages tapping). `hydrate_reveal_spread` asserts the servers' part over ten rounds.

  // The seed draws two flyers and one that does not fly (60% of three, rounded).
  expect(shown.filter((f) => f).length).toBe(2);

  await expect(fast.podium).toBeVisible({ timeout: 10_000 });
  const standings = await fast.scores();
  expect(standings.map(([name]) => name)).toEqual(["Fast", "Always", "Never"]);
  const score = new Map(standings);
  // Never tapping earns the hold reward once (one non-flyer, a streak of one: no bonus).
  expect(score.get("Never")).toBe(HOLD_REWARD);
  // Fast tapped both flyers (at least 500 each) and held back on the other.
  expect(score.get("Fast")!).toBeGreaterThanOrEqual(2 * 500 + HOLD_REWARD);
  // Always tapped all three: two flyers at 500 or more each, the non-flyer at -300.
  expect(score.get("Always")!).toBeGreaterThanOrEqual(2 * 500 - 300);
  await expect(always.podium).toBeVisible({ timeout: 2_000 });
  await expect(never.podium).toBeVisible({ timeout: 2_000 });
  await never.expectNoSideways();
  if (process.env.UDD_SHOTS) await never.page.screenshot({ path: `${process.env.UDD_SHOTS}/podium.png`, fullPage: true });
  expect(await always.scores()).toEqual(standings);

  // The match's receipt: what it cost on DynamoDB, added up from both instances, priced.
  for (const p of [fast, always, never]) {
    await expect(p.page.getByTestId("receipt")).toContainText(/This match cost \d+\.\d write and \d+\.\d read units \(\d+ DynamoDB calls\): \$0\.\d{6} on demand/, { timeout: 10_000 });
  }
  // It grows as each instance reports in: three players, three rounds, so once both have,
  // the start (META and three rounds), the taps, the three closes and the end are all on it.
  const writes = async () =>
    Number(/cost (\d+\.\d) write/.exec((await fast.page.getByTestId("receipt").textContent()) ?? "")![1]);
  await expect.poll(writes, { timeout: 10_000 }).toBeGreaterThanOrEqual(3 + 3 + 3);
  // And it is there for a visitor without JavaScript (the server renders it).
  const plain = await browser.newContext({ baseURL: SECOND_INSTANCE, javaScriptEnabled: false });
  const plainPage = await plain.newPage();
  await plainPage.goto(`/r/${code}`);
  await expect(plainPage.getByTestId("receipt")).toContainText("write and");
  // Without JavaScript the page says the match needs it, and shows no control that does nothing.
  await expect(plainPage.getByTestId("needs-js")).toBeVisible();
  await expect(plainPage.getByTestId("sound")).toBeHidden();
  await expect(plainPage.getByTestId("udd")).toHaveCount(0);
  await plain.close();

  // The room leaderboard: opened fresh, without JavaScript or a session.
  const boardHref = await fast.page.getByTestId("board-link").getAttribute("href");
  // The board's own address: the room's id (its code and a ULID), which outlives the code.
  expect(boardHref).toMatch(new RegExp(`^/lb/best/all/room-${code}-[0-9A-HJKMNP-TV-Z]{26}$`));
  const visitor = await browser.newContext({ baseURL: SECOND_INSTANCE, javaScriptEnabled: false });
  const boardPage = new BoardPage(await visitor.newPage());
  await boardPage.page.goto(boardHref!);
  // The projector counts the match on the boards within moments of its end.
  await boardPage.waitForLines(3);
  await expect(boardPage.rows.nth(0)).toContainText("Fast");
  await expect(boardPage.scores).toHaveText(standings.map(([, s]) => String(s)));
  const html = await (await visitor.request.get(boardHref!)).text();
  expect(html).toContain(`<meta property="og:title" content="Udd leaderboard: Best match · all time · room ${code}"`);
  expect(html).toMatch(/<meta property="og:description" content="1\. Fast \d+ · 2\. Always -?\d+ · 3\. Never 150"/);
  expect(html).toContain('name="twitter:card"');

  // The board lists the room's matches, each linked to its rounds.
  await expect(boardPage.page.getByTestId("room-matches").getByTestId("match-link")).toHaveCount(1);

  for (const p of [fast, always, never]) expect(p.problems).toEqual([]);

  // From the podium to every round of the match, then to a player's profile (server pages).
  await fast.page.getByTestId("match-detail-link").click();
  await expect(fast.page.getByTestId("match-page")).toBeVisible();
  await expect(fast.page.getByTestId("match-round")).toHaveCount(3);
  await expect(fast.page.getByTestId("match-player")).toHaveCount(3);
  await expect(fast.page.getByTestId("match-score")).toHaveText(standings.map(([, s]) => String(s)));
  // Never held every round: three holds in Never's column.
  const neverColumn = 3 + standings.findIndex(([name]) => name === "Never");
  for (let round = 0; round < 3; round++) {
    await expect(fast.page.getByTestId("match-round").nth(round).locator("td, th").nth(neverColumn)).toContainText("held");
  }
  const matchUrl = fast.page.url();
  await fast.page.getByTestId("player-link").filter({ hasText: "Always" }).click();
  await expect(fast.page.getByTestId("profile-name")).toHaveText("Always");
  await expect(fast.page.getByTestId("profile-match-link")).toHaveAttribute("href", new URL(matchUrl).pathname);
  // The projector counts the match on their boards within moments.
  await expect
    .poll(async () => {
      await fast.page.reload();
      return fast.page.getByTestId("profile-board").count();
    }, { timeout: 10_000 })
    .toBeGreaterThan(0);
  await expect(fast.page.getByTestId("stat-matches")).toHaveText("1");

  // Every shareable page names its card: a 1200 × 630 PNG drawn on the server. The board's is
  // read in a fresh context without JavaScript, as a link's preview would be.
  const expectCard = async (page: import("@playwright/test").Page) => {
    const image = await page.locator('meta[property="og:image"]').getAttribute("content");
    expect(image, `${page.url()} names its card`).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/og\//);
    const answer = await page.request.get(image!);
    expect(answer.status()).toBe(200);
    expect(answer.headers()["content-type"]).toBe("image/png");
    const png = await answer.body();
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([1200, 630]);
    await expect(page.locator('meta[name="twitter:card"]')).toHaveAttribute("content", "summary_large_image");
  };
  await expectCard(fast.page);
  await fast.page.goto(matchUrl);
  await expectCard(fast.page);
  await boardPage.page.goto(boardHref!);
  await expectCard(boardPage.page);
  await hostContext.close();
  await alwaysContext.close();
  await neverContext.close();
  await visitor.close();
});
