// The room on a big screen: the lobby links to /r/CODE/screen, which nobody signs in to (the
// room as a visitor sees it: no join form, no Udd! button). It shows the code and the QR to
// join and the players as they arrive; then, from the room's stream on another instance than
// the host's, each round's thing as the phones get it (the same thing; the spread printed), its
// line in the live region, at the close the round's results, the standings and the podium, the
// same as the players'. axe-core finds nothing in the lobby, mid-round, between rounds and at the
// podium. A phone can switch to just the button. The oracles: the seed catalog (names, whether a
// thing flies), the shipped strings, and the players' own pages.
import { violations } from "./fixtures/axe";
import { expect, test, type Page } from "./fixtures/test";
import { GamePage, HUMANLY, roomOfTwo } from "./fixtures/game_page";
import { FIRST_INSTANCE, SECOND_INSTANCE } from "./fixtures/instances";
import { strings, text } from "./fixtures/strings";
import { thing } from "./fixtures/things";

test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "the big screen is drawn live by the room's island");

/** Waits for round `n` of `total` to show on `page`; the thing's id and when it showed. */
async function shown(page: Page, heading: string): Promise<[string, number]> {
  const reveal = page.getByTestId("reveal").filter({ hasText: heading });
  await reveal.waitFor({ state: "visible", timeout: 15_000 });
  const at = Date.now();
  return [(await reveal.getByTestId("shown-thing").getAttribute("data-thing"))!, at];
}

/** With UDD_SHOTS set (a directory), photographs the screen at 1280 and 1920 px for people to
 * look at. */
async function shots(page: Page, name: string) {
  const dir = process.env.UDD_SHOTS;
  if (!dir) return;
  for (const width of [1280, 1920]) {
    await page.setViewportSize({ width, height: Math.round((width * 9) / 16) });
    await page.screenshot({ path: `${dir}/screen-${name}-${width}.png` });
  }
}

// One language after the other, never both at once: each runs axe on a 1920-wide screen in the
// middle of a 6 s round, and the two together on two cores took 13.5 s, past the round's close
// and its results (seen 2026-11-29, two workers).
test.describe.configure({ mode: "serial" });

for (const lang of ["en", "hi"] as const) {
  test(`a big screen follows the room from the lobby to the podium (${lang})`, async ({ browser }) => {
    test.setTimeout(120_000);
    const game = strings(lang, "game");
    const { hostContext, friendContext, host, friend, code } = await roomOfTwo(browser, "Meera", "Kabir");
    await expect(host.page.getByTestId("screen-link")).toHaveAttribute("href", `/r/${code}/screen`);

    // The screen: a context of its own (nobody signed in), on the friend's instance, 1920 wide.
    const screenContext = await browser.newContext({ baseURL: SECOND_INSTANCE, viewport: { width: 1920, height: 1080 } });
    await screenContext.addCookies([{ name: "udd_lang", value: lang, url: SECOND_INSTANCE }]);
    const screen = new GamePage(await screenContext.newPage());
    await screen.page.goto(`/r/${code}/screen`);
    await screen.waitForHydration();
    const big = screen.page.getByTestId("big-screen");
    await expect(big.getByTestId("room-code")).toHaveText(code);
    await expect(big.locator(".qr svg")).toBeVisible();
    await expect(screen.page.getByTestId("screen-join").getByRole("link")).toHaveAttribute("href", `/r/${code}`);
    await expect(screen.page.locator('link[rel=stylesheet][href="/screen.css"]')).toHaveCount(1);
    await screen.expectPlayers(["Meera", "Kabir"]);
    await expect(screen.joinForm).toHaveCount(0);
    expect(await violations(screen.page, "lobby")).toEqual([]);

    // A third player arrives: on the screen at once.
    const thirdContext = await browser.newContext({ baseURL: FIRST_INSTANCE });
    const third = new GamePage(await thirdContext.newPage());
    await third.goto(code);
    await third.join("Asha");
    await screen.expectPlayers(["Meera", "Kabir", "Asha"], 5_000);
    await shots(screen.page, `${lang}-lobby`);

    await host.startMatch(2, 6000, 17);
    const spread: number[] = [];
    for (const n of [1, 2]) {
      const heading = text(game, "board.round_of", { n, total: 2 });
      const [[onPhone, phoneAt], [onScreen, screenAt]] = await Promise.all([
        shown(friend.page, text(strings("en", "game"), "board.round_of", { n, total: 2 })),
        shown(screen.page, heading),
      ]);
      expect(onScreen).toBe(onPhone);
      spread.push(Math.abs(screenAt - phoneAt));
      const seen = thing(onScreen);
      const name = lang === "hi" ? seen.hi : seen.en;
      await expect(screen.page.getByTestId("announce")).toHaveText(`${heading}: ${name}`);
      await expect(screen.udd).toHaveCount(0);
      await friend.page.waitForTimeout(HUMANLY);
      await friend.udd.click();
      if (n === 1) {
        await shots(screen.page, `${lang}-round`);
        expect(await violations(screen.page, "mid-round")).toEqual([]);
      }

      // The close: the round's line and each player's result, as on the players' pages.
      const line = text(game, seen.flies ? "results.flies" : "results.grounded", { n, thing: name });
      await expect(screen.summary).toContainText(line, { timeout: 10_000 });
      await expect(screen.page.getByTestId("result")).toHaveCount(3);
      await friend.expectResultsOf(n);
      if (n === 1) {
        await shots(screen.page, `${lang}-between`);
        expect(await violations(screen.page, "between rounds")).toEqual([]);
      }
    }

    // The podium, and the standings as the host has them.
    await expect(screen.podium).toBeVisible({ timeout: 10_000 });
    await expect(host.podium).toBeVisible({ timeout: 10_000 });
    expect(await screen.scores()).toEqual(await host.scores());
    expect(await violations(screen.page, "podium")).toEqual([]);
    await shots(screen.page, `${lang}-podium`);
    console.log(`big screen after the phone, per round (ms): ${spread.join(", ")}`);

    // A phone with the room on a big screen: just the button.
    await friend.page.getByTestId("view-toggle").click();
    await expect(friend.page).toHaveURL(new RegExp(`/r/${code}\\?view=buttons$`));
    await expect(friend.page.locator(".room-view")).toHaveAttribute("data-view", "buttons");
    await expect(friend.page.locator('link[rel=stylesheet][href="/screen.css"]')).toHaveCount(1);
    await expect(friend.page.getByTestId("view-toggle")).toHaveAttribute("href", `/r/${code}`);

    for (const context of [hostContext, friendContext, thirdContext, screenContext]) await context.close();
  });
}
