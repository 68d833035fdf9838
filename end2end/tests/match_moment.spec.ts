// The match moment, on two instances: a tap is pressed within the frame it was made in; when a
// round closes each player sees a big right or wrong with their points and their run of right
// calls (🔥), which counts up and resets; the podium names the winner, offers the match's card to
// share, and announces a badge only the first time the player earns it.
import { expect, test, type Page } from "./fixtures/test";
import { type GamePage, HUMANLY, roomOfTwo } from "./fixtures/game_page";
import { whatFlies } from "./fixtures/things_page";
import path from "node:path";

// Pictures of the moments for people to look at (not compared), beside fit_pages' own.
const SCREENS = path.resolve(__dirname, "../../target/screens/moments");



/** Taps round `n` (or holds back) as `tap` decides from whether the thing flies; answers
 * whether the player called it right. */
async function play(player: GamePage, n: number, flies: Map<string, boolean>, tap: (flies: boolean) => boolean) {
  const thing = await player.thingOfRound(n);
  const itFlies = flies.get(thing);
  expect(itFlies, `the catalog knows ${thing}`).not.toBeUndefined();
  const tapping = tap(itFlies!);
  if (tapping) {
    await player.page.waitForTimeout(HUMANLY);
    await player.udd.click();
  }
  return tapping === itFlies;
}

/** The player's verdict of round `n` once it closes: right or wrong, the points, the run. */
async function verdictOf(player: GamePage, n: number) {
  const verdict = player.page.getByTestId("verdict");
  await expect(verdict).toHaveAttribute("data-round", String(n), { timeout: 15_000 });
  return {
    right: ((await verdict.getAttribute("class")) ?? "").includes("right"),
    word: (await verdict.locator(".verdict-word").innerText()).trim(),
    points: Number((await verdict.getByTestId("verdict-points").innerText()).replace("+", "")),
    streak: Number(await verdict.getAttribute("data-streak")),
    streakShown: await verdict.getByTestId("streak").count(),
  };
}

test("every tap is pressed at once and every round closes on right or wrong with points and a run", async ({ browser }, info) => {
  test.skip(info.project.use.javaScriptEnabled === false, "a match is played with JavaScript");
  test.setTimeout(120_000);
  const { hostContext, friendContext, host, friend } = await roomOfTwo(browser, "Tapper", "Holder");
  const flies = await whatFlies(await hostContext.newPage());
  const ROUNDS = 4;
  // The holder asked their system for less motion.
  await friend.page.emulateMedia({ reducedMotion: "reduce" });
  await host.startMatch(ROUNDS, 3000, 7);
  await expect(friend.board).toBeVisible({ timeout: 2_000 });

  let run = 0;
  let wasRight = 0;
  let pressedChecked = false;
  for (let n = 1; n <= ROUNDS; n++) {
    // The tapper calls every round right but the last, which they call wrong on purpose.
    const wrongOnPurpose = n === ROUNDS;
    const thing = await host.thingOfRound(n);
    const itFlies = flies.get(thing)!;
    const tapping = wrongOnPurpose ? !itFlies : itFlies;
    if (tapping) {
      await host.page.waitForTimeout(HUMANLY);
      if (!pressedChecked) {
        pressedChecked = true;
        // Pressed within a frame: the class is there at the next animation frame after the click.
        const pressed = await host.udd.evaluate(
          (button) =>
            new Promise<[boolean, string | null]>((resolve) => {
              (button as HTMLButtonElement).click();
              requestAnimationFrame(() =>
                resolve([button.classList.contains("pressed"), button.getAttribute("aria-pressed")]),
              );
            }),
        );
        expect(pressed).toEqual([true, "true"]);
      } else {
        await host.udd.click();
      }
    }
    const holderRight = !itFlies; // the holder never taps

    const mine = await verdictOf(host, n);
    // The verdict is the player's line of the round's results, read at once: a few seconds on
    // (a slow screenshot below), the results shown are the next round's.
    const summary = await host.summary.innerText();
    expect(summary).toContain(`Round ${n}:`);
    expect(summary).toContain(`You: ${mine.points > 0 ? "+" : ""}${mine.points}.`);
    run = tapping === itFlies ? run + 1 : 0;
    wasRight += tapping === itFlies ? 1 : 0;
    expect(mine.right, `round ${n}`).toBe(tapping === itFlies);
    expect(mine.word).toContain(mine.right ? "Right" : "Wrong");
    expect(mine.points > 0, `round ${n}: ${mine.points} points`).toBe(mine.right);
    expect(mine.streak, `round ${n}`).toBe(run);
    expect(mine.streakShown).toBe(run >= 2 ? 1 : 0);
    if (run >= 2) await expect(host.page.getByTestId("streak")).toHaveText(`🔥 ${run} in a row`);
    if (n >= 3) await host.page.screenshot({ path: path.join(SCREENS, `verdict-${n}-1280.png`) });

    // The other player, on the other instance, gets their own verdict.
    const theirs = await verdictOf(friend, n);
    if (n === 2) await friend.page.screenshot({ path: path.join(SCREENS, `verdict-holder-${n}-1280.png`) });
    expect(theirs.right, `holder, round ${n}`).toBe(holderRight);
    // It pops in, except for the player who asked for less motion.
    const animation = (player: GamePage) =>
      player.page.getByTestId("verdict").evaluate((el) => getComputedStyle(el).animationName);
    expect(await animation(host)).toBe("pop");
    expect(await animation(friend)).toBe("none");
  }
  // The run counted up (it reached at least 2 before the wrong call) and reset to nothing.
  expect(pressedChecked, "the seed gives the tapper a tap to press").toBe(true);
  expect(wasRight).toBe(ROUNDS - 1);
  expect(run).toBe(0);

  // Sound is on until the player mutes it, and the browser remembers the mute.
  const sound = host.page.getByTestId("sound");
  await expect(sound).toHaveText("🔊 Sound on");
  await expect(sound).toHaveAttribute("aria-pressed", "true");
  await sound.click();
  await expect(sound).toHaveText("🔇 Sound off");
  await host.page.reload();
  await host.waitForHydration();
  await expect(host.page.getByTestId("sound")).toHaveText("🔇 Sound off");
  await expect(host.page.getByTestId("sound")).toHaveAttribute("aria-pressed", "false");
  expect(host.problems).toEqual([]);
  expect(friend.problems).toEqual([]);
  await hostContext.close();
  await friendContext.close();
});

test("the podium names the winner, shares the match's card, and announces a badge only once", async ({ browser }, info) => {
  test.skip(info.project.use.javaScriptEnabled === false, "a match is played with JavaScript");
  test.setTimeout(150_000);
  const { hostContext, friendContext, host, friend } = await roomOfTwo(browser, "Winner", "Loser");
  await hostContext.grantPermissions(["clipboard-read", "clipboard-write"]);
  const flies = await whatFlies(await hostContext.newPage());
  const ROUNDS = 2;

  for (const [match, seed] of [[1, 5], [2, 9]]) {
    if (match === 1) {
      await host.startMatch(ROUNDS, 3000, seed);
    } else {
      // After a match the host's "Play again" comes first, above the winner and the podium (each
      // one's own next step on the first screen); the other player waits for it; both ahead of
      // the round's results and the standings.
      await expect(friend.page.getByTestId("waiting-for-host")).toBeVisible();
      await expect(friend.page.getByTestId("waiting-for-host")).toContainText("next match");
      const again = host.page.getByRole("button", { name: "Play again" });
      await expect(again).toBeVisible();
      const box = async (what: import("@playwright/test").Locator) => (await what.boundingBox())!.y;
      expect(await box(again)).toBeLessThan(await box(host.podium));
      expect(await box(again)).toBeLessThan(await box(host.page.getByTestId("standings")));
      await host.submit(again);
    }
    await expect(friend.board).toBeVisible({ timeout: 5_000 });
    for (let n = 1; n <= ROUNDS; n++) {
      // The winner calls every thing right; the loser calls every thing wrong.
      await Promise.all([
        play(host, n, flies, (f) => f),
        play(friend, n, flies, (f) => !f),
      ]);
    }
    await expect(host.podium).toBeVisible({ timeout: 15_000 });
    await expect(host.page.getByTestId("winner")).toHaveText("🏆 Winner wins!");
    await expect(friend.page.getByTestId("winner")).toHaveText("🏆 Winner wins!", { timeout: 5_000 });
    // The winner's block stands tallest.
    const heights = await host.page.getByTestId("podium-place").evaluateAll((places) =>
      places.map((p) => p.getBoundingClientRect().height),
    );
    expect(heights[0]).toBeGreaterThan(heights[1]);
    // "First win" is news only the first time; the loser earned no badge.
    await expect(host.page.getByTestId("new-badge")).toHaveCount(match === 1 ? 1 : 0);
    if (match === 1) await expect(host.page.getByTestId("new-badge")).toHaveText("🏅 New badge: First win");
    await expect(friend.page.getByTestId("new-badge")).toHaveCount(0);
    await host.page.screenshot({ path: path.join(SCREENS, `podium-${match}-1280.png`), fullPage: true });
    await friend.page.setViewportSize({ width: 360, height: 740 });
    await friend.page.screenshot({ path: path.join(SCREENS, `podium-loser-${match}-360.png`), fullPage: true });
  }

  // The share button gives the match's page, whose preview is the match's card.
  const share = host.page.getByTestId("share-match");
  await expect(share).toHaveText("Copy the match link"); // desktop Chromium has no share sheet
  await share.click();
  await expect(host.page.getByTestId("share-match-status")).toHaveText("Link copied.");
  const copied = await host.page.evaluate(() => navigator.clipboard.readText());
  const detail = await host.page.getByTestId("match-detail-link").getAttribute("href");
  expect(new URL(copied).pathname).toBe(detail);
  const html = await (await host.page.request.get(copied)).text();
  const card = html.match(/<meta property="og:image" content="([^"]+)"/)?.[1];
  expect(card, "the match page names its card").toBeTruthy();
  const picture = await host.page.request.get(card!);
  expect(picture.status()).toBe(200);
  expect(picture.headers()["content-type"]).toBe("image/png");
  expect(host.problems).toEqual([]);
  await hostContext.close();
  await friendContext.close();
});
