// WCAG 2.1 AA by axe-core (the rules tagged wcag2a, wcag2aa, wcag21a and wcag21aa; none turned
// off, nothing excluded): every page in English and in Hindi, with JavaScript on and off (the
// two projects), signed in with cards and an offer waiting, at a phone's width and a desktop's;
// and the room in each of its states: the lobby as host, guest and visitor, a round showing,
// after a tap, between rounds and at the podium. And on every page, every stop of the keyboard's
// Tab shows where focus is.
import { violations } from "./fixtures/axe";
import { expect, test, type Page } from "./fixtures/test";
import { everyPage, open, openWithoutJavaScript } from "./fixtures/every_page";
import { roomOfTwo } from "./fixtures/game_page";
import { FIRST_INSTANCE, SECOND_INSTANCE } from "./fixtures/instances";

/** Tabs through the page (up to 80 stops, or until focus comes round again) and names each
 * stop whose focus cannot be seen: no outline of at least 2 px on it (or, for the avatar
 * picker's hidden radios, on the emoji that stands for it). */
async function unseenFocus(page: Page, where: string): Promise<string[]> {
  const unseen: string[] = [];
  const seen = new Set<string>();
  await page.locator("body").evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  for (let i = 0; i < 80; i++) {
    await page.keyboard.press("Tab");
    const stop = await page.evaluate(() => {
      const el = document.activeElement as HTMLElement | null;
      if (!el || el === document.body) return null;
      const shown = el.matches(".avatar-choice input") ? (el.nextElementSibling as HTMLElement) : el;
      const style = getComputedStyle(shown);
      const path = [...document.querySelectorAll("*")].indexOf(el);
      const name = `${el.tagName.toLowerCase()} "${(el.textContent || el.getAttribute("name") || "").trim().slice(0, 30)}"`;
      return { path, name, visible: style.outlineStyle !== "none" && parseFloat(style.outlineWidth) >= 2 };
    });
    if (!stop || seen.has(String(stop.path))) break;
    seen.add(String(stop.path));
    if (!stop.visible) unseen.push(`${where}: focus not visible on ${stop.name}`);
  }
  return unseen;
}

for (const lang of ["en", "hi"] as const) {
  test(`every page passes axe-core at 360 px and 1280 px, and shows where focus is (${lang})`, async ({ browser }, info) => {
    // Every page at two widths, axe-core and a tab through each: 3.2-3.4 min with JavaScript
    // in `./udd test`'s three workers (2026-11-29), and without it, beside them, past 4.
    test.setTimeout(360_000);
    // Without JavaScript the pages are checked as such a browser draws them (see
    // openWithoutJavaScript): axe-core is itself a script.
    const withJavaScript = !!info.project.use.javaScriptEnabled;
    const { context, page, pages } = await everyPage(browser, info, lang, true);
    const found: string[] = [];
    for (const width of [360, 1280]) {
      await page.setViewportSize({ width, height: 800 });
      for (const [name, href] of pages) {
        if (withJavaScript) await open(page, info, href, lang);
        else await openWithoutJavaScript(page, href, lang);
        found.push(...(await violations(page, `${name} at ${width} px (${lang})`)));
        if (width === 1280) found.push(...(await unseenFocus(page, `${name} (${lang})`)));
      }
    }
    await context.close();
    expect(found, found.join("\n")).toEqual([]);
  });

  test(`the room passes axe-core in the lobby, mid-round and at the podium (${lang})`, async ({ browser }, info) => {
    test.skip(!info.project.use.javaScriptEnabled, "a round is played by the island");
    test.setTimeout(120_000);
    const { hostContext, friendContext, host, friend, code } = await roomOfTwo(browser, "Meera", "Kabir");
    const visitorContext = await browser.newContext({ baseURL: FIRST_INSTANCE });
    for (const [context, url] of [[hostContext, FIRST_INSTANCE], [friendContext, SECOND_INSTANCE], [visitorContext, FIRST_INSTANCE]] as const) {
      await context.addCookies([{ name: "udd_lang", value: lang, url }]);
    }
    const visitor = await visitorContext.newPage();
    // The room animates what a live change brings (a thing, a verdict pops in from 60 % opacity),
    // and a change may land while axe is measuring: the pages are checked as they rest, with
    // motion reduced (the same colours, without the fade).
    for (const page of [host.page, friend.page, visitor]) await page.emulateMedia({ reducedMotion: "reduce" });
    const found: string[] = [];
    const check = async (page: Page, where: string) => found.push(...(await violations(page, `${where} (${lang})`)));
    const hydrated = async (page: Page) => expect(page.locator(".app")).toHaveAttribute("data-hydrated", "true");

    for (const page of [host.page, friend.page]) {
      await page.reload();
      await hydrated(page);
    }
    await visitor.goto(`/r/${code}`);
    await hydrated(visitor);
    await check(host.page, "lobby, host");
    await check(friend.page, "lobby, guest");
    await check(visitor, "lobby, visitor");

    // The host starts two rounds (in English: the page object's labels), then reads in `lang`.
    await hostContext.addCookies([{ name: "udd_lang", value: "en", url: FIRST_INSTANCE }]);
    await host.page.reload();
    await host.startMatch(2, 8000, 11);
    await hostContext.addCookies([{ name: "udd_lang", value: lang, url: FIRST_INSTANCE }]);
    await host.page.reload();
    await hydrated(host.page);

    // The round is open for 8 s: the friend taps at once, then the three pages are checked.
    await expect(friend.page.getByTestId("reveal")).toBeVisible({ timeout: 15_000 });
    await friend.tapHumanly();
    await expect(friend.udd).toHaveAttribute("aria-pressed", "true");
    await check(friend.page, "after a tap");
    await check(host.page, "a round showing, player");
    await check(visitor, "a round showing, visitor");
    await expect(friend.page.getByTestId("verdict")).toBeVisible({ timeout: 15_000 });
    await check(friend.page, "between rounds");
    await check(host.page, "between rounds, host");
    await expect(host.podium).toBeVisible({ timeout: 20_000 });
    await expect(friend.podium).toBeVisible({ timeout: 5_000 });
    await check(host.page, "podium, host");
    await check(friend.page, "podium, guest");
    await check(visitor, "podium, visitor");
    for (const context of [hostContext, friendContext, visitorContext]) await context.close();
    expect(found, found.join("\n")).toEqual([]);
  });
}
