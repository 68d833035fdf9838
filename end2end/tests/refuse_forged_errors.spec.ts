// A refusal a page shows is one the server wrote, for this browser, within the last minute: an
// `__err` written into a link (forged), one changed on its way (tampered) or one taken to
// another browser (replayed) shows nothing, and the real one shows its message. With
// JavaScript and without it.
import { expect, test, type Page } from "./fixtures/test";
import { AccountPage } from "./fixtures/account_page";
import { HomePage } from "./fixtures/home_page";

const NO_ROOM = "There is no open room with that code. It may have ended.";
const WRONG_LOGIN = "Wrong username, email or password.";
const PHISH = "Your account is locked. Sign in again at udd-support.example";

/** `__err` as the server writes it: the error's JSON in URL-safe base64 (padded). */
function errParam(error: object): string {
  return Buffer.from(JSON.stringify(error)).toString("base64").replace(/\+/g, "-").replace(/\//g, "_");
}

/** The address of `url` on our origin (path and query). */
function address(url: URL): string {
  return `${url.pathname}${url.search}`;
}

/** Opens `to` and checks the page shows no form error and none of the attacker's words. */
async function showsNothing(page: Page, to: string, ready: () => Promise<void>) {
  await page.goto(to);
  await ready();
  await expect(page.getByTestId("form-error")).toHaveCount(0);
  await expect(page.getByText(PHISH)).toHaveCount(0);
}

test("a refusal on the home page shows only in its own browser, unchanged", async ({ page, browser }) => {
  const home = new HomePage(page);
  await home.goto();
  await home.tryJoinRoom("ZZZZZ", "Asha");
  await expect(home.formError).toHaveText(NO_ROOM);
  const sealed = new URL(page.url());
  const ready = () => expect(home.joinForm).toBeVisible();

  // Forged: the attacker's words with no seal, and with the real refusal's seal.
  const forged = new URL("/", sealed);
  forged.searchParams.set("__path", "/api/rooms/join");
  forged.searchParams.set("__err", errParam({ Forbidden: PHISH }));
  await showsNothing(page, address(forged), ready);
  expect(sealed.searchParams.get("__sig")).toMatch(/^\d+\.[\w-]+$/);
  forged.searchParams.set("__sig", sealed.searchParams.get("__sig")!);
  await showsNothing(page, address(forged), ready);

  // Tampered: the sealed address with the attacker's error, or with another form's path.
  const tampered = new URL(sealed);
  tampered.searchParams.set("__err", errParam({ Forbidden: PHISH }));
  await showsNothing(page, address(tampered), ready);
  const moved = new URL(sealed);
  moved.searchParams.set("__path", "/api/rooms/create");
  await showsNothing(page, address(moved), ready);

  // Replayed: the sealed address in another browser.
  const other = await browser.newContext();
  const otherPage = await other.newPage();
  await showsNothing(otherPage, address(sealed), () => expect(new HomePage(otherPage).joinForm).toBeVisible());
  await other.close();

  // The real one, in its own browser, still shows.
  await page.goto(address(sealed));
  await expect(home.formError).toHaveText(NO_ROOM);
});

test("a signed-in guest's refusal shows only to that session", async ({ page, browser }) => {
  const home = new HomePage(page);
  await home.goto();
  await home.createRoom("Meera");
  const account = new AccountPage(page);
  await account.goto();
  await expect(account.kind).toHaveText("Playing as a guest");
  await account.signIn("nobody_here", "not the password");
  await expect(account.formError).toHaveText(WRONG_LOGIN);
  const sealed = new URL(page.url());
  expect(sealed.pathname).toBe("/me");

  // Replayed in another browser, with a session of its own.
  const other = await browser.newContext();
  const otherPage = await other.newPage();
  await new HomePage(otherPage).goto();
  await new HomePage(otherPage).createRoom("Ravi");
  const otherAccount = new AccountPage(otherPage);
  await showsNothing(otherPage, address(sealed), () => expect(otherAccount.kind).toHaveText("Playing as a guest"));
  await other.close();

  // Tampered in its own browser.
  const tampered = new URL(sealed);
  tampered.searchParams.set("__err", errParam({ Forbidden: PHISH }));
  await showsNothing(page, address(tampered), () => expect(account.kind).toHaveText("Playing as a guest"));

  await page.goto(address(sealed));
  await expect(account.formError).toHaveText(WRONG_LOGIN);
});
