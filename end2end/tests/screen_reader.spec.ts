// A match played by keyboard, listened to as a screen reader would: one live region
// (`aria-live="assertive"`) says the thing when it shows, then the player's verdict, the round's
// line and who was fastest, and at the end the winner, in the page's language. The player taps
// with Space from the page and with Enter on the focused Udd! button. The oracles are the seed
// catalog (names, whether a thing flies), the shipped strings and the standings' scores.
import { expect, test, type Page } from "./fixtures/test";
import { HUMANLY, roomOfTwo } from "./fixtures/game_page";
import { SECOND_INSTANCE } from "./fixtures/instances";
import { strings, text } from "./fixtures/strings";
import { thing } from "./fixtures/things";

test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "a round is played by the island");

for (const lang of ["en", "hi"] as const) {
  test(`the live region says the thing, your result and the winner; keys tap (${lang})`, async ({ browser }) => {
    test.setTimeout(90_000);
    const game = strings(lang, "game");
    const { hostContext, friendContext, host, friend } = await roomOfTwo(browser, "Meera", "Kabir");
    await friendContext.addCookies([{ name: "udd_lang", value: lang, url: SECOND_INSTANCE }]);
    await friend.page.reload();
    await friend.waitForHydration();
    const page: Page = friend.page;
    const live = page.getByTestId("announce");

    await host.startMatch(2, 3000, 17);
    await expect(live).toHaveAttribute("aria-live", "assertive");
    for (const n of [1, 2]) {
      const heading = text(game, "board.round_of", { n, total: 2 });
      const reveal = page.getByTestId("reveal").filter({ hasText: heading });
      await expect(reveal).toBeVisible({ timeout: 15_000 });
      const id = await reveal.getByTestId("shown-thing").getAttribute("data-thing");
      const shown = thing(id!);
      const name = lang === "hi" ? shown.hi : shown.en;
      await expect(live).toHaveText(`${heading}: ${name}`);

      // Round 1 by Space with nothing focused, round 2 by Enter on the focused button, each a
      // human moment after the thing shows (a reaction under 80 ms is refused as inhuman: CI
      // once pressed Space fast enough to be refused).
      await page.waitForTimeout(HUMANLY);
      if (n === 1) {
        await page.keyboard.press(" ");
      } else {
        await friend.udd.focus();
        await page.keyboard.press("Enter");
      }
      await expect(friend.udd).toHaveAttribute("aria-pressed", "true");
      // The server counted it: its answer is the reaction time, not a refusal.
      await expect(friend.myTap).toContainText(/counted|गिना गया/, { timeout: 5_000 });

      // The round closes: the verdict (a tap is right only on a thing that flies), the round's
      // line, and the fastest right tap, which was Kabir's when it flies (Meera never taps).
      const verdict = text(game, shown.flies ? "verdict.right" : "verdict.wrong");
      const line = text(game, shown.flies ? "results.flies" : "results.grounded", { n, thing: name });
      await expect(live).toContainText(verdict, { timeout: 10_000 });
      await expect(live).toContainText(line);
      const fastest = text(game, "announce.fastest", { name: "Kabir" });
      if (shown.flies) await expect(live).toContainText(fastest);
      else await expect(live).not.toContainText(fastest);
    }

    // The winner, by the standings' scores.
    await expect(friend.podium).toBeVisible({ timeout: 10_000 });
    const scores = await friend.scores();
    const best = Math.max(...scores.map(([, s]) => s));
    const winners = scores.filter(([, s]) => s === best).map(([n]) => n);
    // A tie is said in the plural ("Meera & Kabir win!").
    const said = winners.length > 1 ? "podium.wins_tied" : "podium.wins";
    await expect(live).toContainText(text(game, said, { name: winners.join(" & ") }));
    await hostContext.close();
    await friendContext.close();
  });
}
