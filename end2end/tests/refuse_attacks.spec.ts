// Attacks a real browser makes possible, refused: a crafted room link runs no script, and a
// page of another origin (another port of the same host, or another site) cannot claim an
// account, sign in, sign out or join a room for the player who visits it. The attacker's pages
// are served by Playwright's router at their own origins; the forms post to the real server.
import { expect, test, type BrowserContext, type Page } from "./fixtures/test";
import { AccountPage } from "./fixtures/account_page";
import { HomePage } from "./fixtures/home_page";
import { FIRST_INSTANCE, SECOND_INSTANCE } from "./fixtures/instances";

// A page on the same host at another port: the same *site* (cookies marked SameSite=Lax are
// sent with its posts), another *origin*.
const SAME_SITE_ATTACKER = `${SECOND_INSTANCE}/attacker`;
// A page on another site altogether.
const CROSS_SITE_ATTACKER = "http://attacker.test/page";

/** Serves `html` at `url` in this context (nothing reaches the network for it). */
async function serveAttackerPage(context: BrowserContext, url: string, html: string) {
  await context.route(url, (route) =>
    route.fulfill({ status: 200, contentType: "text/html", body: html }),
  );
}

/** An attacker's page that posts `fields` to the game's `path` as soon as it loads. */
function autoPost(path: string, fields: Record<string, string>): string {
  const inputs = Object.entries(fields)
    .map(([name, value]) => `<input type="hidden" name="${name}" value="${value}">`)
    .join("");
  return `<!doctype html><form method="post" action="${FIRST_INSTANCE}${path}">${inputs}</form>
    <script>document.forms[0].submit()</script>`;
}

/** Opens the attacker's page in the victim's browser and waits for its post's answer. */
async function visit(page: Page, attacker: string, path: string) {
  const answer = page.waitForResponse((res) => res.url() === `${FIRST_INSTANCE}${path}`);
  await page.goto(attacker);
  return answer;
}

/** A guest in `context` (the victim), and what /me says of them. */
async function victim(context: BrowserContext, name: string) {
  const page = await context.newPage();
  await new HomePage(page).goto();
  await new HomePage(page).createRoom(name);
  const account = new AccountPage(page);
  await account.goto();
  await expect(account.displayName).toHaveText(name);
  await expect(account.kind).toHaveText("Playing as a guest");
  return { page, account };
}

test.describe("with JavaScript in the victim's browser", () => {
  test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "the attacker's page needs script");

  test("a crafted room link runs no script", async ({ page }) => {
    let dialogs = 0;
    page.on("dialog", (dialog) => {
      dialogs += 1;
      void dialog.dismiss();
    });
    // `window.pwned=1` written as upper-case hex entities: it survives the code's upper-casing.
    const script = [..."window.pwned=1"]
      .map((c) => `&#X${c.charCodeAt(0).toString(16).toUpperCase()};`)
      .join("");
    const payload = `</title><img src=x onerror=${script}><title>`;
    const response = await page.goto(`/r/${encodeURIComponent(payload)}`);
    expect(response?.status()).toBe(400);
    await page.waitForLoadState("load");
    expect(await page.evaluate(() => (window as unknown as { pwned?: number }).pwned)).toBeUndefined();
    expect(dialogs).toBe(0);
    await expect(page).toHaveTitle("No such room · Udd");
    expect(await page.locator("img[src=x]").count()).toBe(0);
    const html = await response!.text();
    expect(html).not.toContain("<img src=x");
    expect(html.toLowerCase()).not.toContain("<img src=x");
  });

  test("another origin cannot claim the visitor's account", async ({ browser }, info) => {
    const context = await browser.newContext({ baseURL: FIRST_INSTANCE });
    const { page, account } = await victim(context, "Claimee");
    await serveAttackerPage(
      context,
      SAME_SITE_ATTACKER,
      autoPost("/api/claim", {
        username: `evil_${Date.now() % 1_000_000}`,
        password: "attacker password",
      }),
    );
    const answer = await visit(page, SAME_SITE_ATTACKER, "/api/claim");
    expect(answer.status()).toBe(403);
    await account.goto();
    await expect(account.kind).toHaveText("Playing as a guest");
    await expect(account.displayName).toHaveText("Claimee");
    await context.close();
    void info;
  });

  test("another site cannot sign the visitor in as someone else", async ({ browser }) => {
    // The attacker has an account of their own.
    const attackerContext = await browser.newContext({ baseURL: FIRST_INSTANCE });
    const attacker = await victim(attackerContext, "Mallory");
    const username = `mallory_${Date.now() % 1_000_000}`;
    await attacker.account.claim(username, "mallory's password");
    await expect(attacker.account.kind).toHaveText(`Signed in as @${username}`);
    await attackerContext.close();

    const context = await browser.newContext({ baseURL: FIRST_INSTANCE });
    const { page, account } = await victim(context, "Victor");
    for (const origin of [CROSS_SITE_ATTACKER, SAME_SITE_ATTACKER]) {
      await serveAttackerPage(
        context,
        origin,
        autoPost("/api/sign-in", { login: username, password: "mallory's password" }),
      );
      const answer = await visit(page, origin, "/api/sign-in");
      expect(answer.status()).toBe(403);
      await account.goto();
      await expect(account.displayName).toHaveText("Victor");
      await expect(account.kind).toHaveText("Playing as a guest");
    }
    await context.close();
  });

  test("another origin cannot sign the visitor out", async ({ browser }) => {
    const context = await browser.newContext({ baseURL: FIRST_INSTANCE });
    const { page, account } = await victim(context, "Stayin");
    await serveAttackerPage(context, SAME_SITE_ATTACKER, autoPost("/api/sign-out", {}));
    const answer = await visit(page, SAME_SITE_ATTACKER, "/api/sign-out");
    expect(answer.status()).toBe(403);
    await account.goto();
    await expect(account.displayName).toHaveText("Stayin");
    await context.close();
  });

  test("another site cannot make the visitor join a room", async ({ browser }) => {
    const hostContext = await browser.newContext({ baseURL: FIRST_INSTANCE });
    const hostPage = await hostContext.newPage();
    await new HomePage(hostPage).goto();
    await new HomePage(hostPage).createRoom("Host");
    const code = hostPage.url().split("/").pop()!;

    const context = await browser.newContext({ baseURL: FIRST_INSTANCE });
    const { page, account } = await victim(context, "Wanderer");
    for (const origin of [CROSS_SITE_ATTACKER, SAME_SITE_ATTACKER]) {
      await serveAttackerPage(
        context,
        origin,
        autoPost("/api/rooms/join", { code, name: "Puppet", avatar: "frog" }),
      );
      const answer = await visit(page, origin, "/api/rooms/join");
      expect(answer.status()).toBe(403);
    }
    // Still the same guest (no new identity was made for them), and not in the room.
    await account.goto();
    await expect(account.displayName).toHaveText("Wanderer");
    await hostPage.goto(`/r/${code}`);
    await expect(hostPage.getByTestId("lobby")).not.toContainText("Puppet");
    await context.close();
    await hostContext.close();
  });

  test("the game's own forms still work from its own pages", async ({ browser }) => {
    const context = await browser.newContext({ baseURL: FIRST_INSTANCE });
    const { account } = await victim(context, "Ownpage");
    const username = `own_${Date.now() % 1_000_000}`;
    await account.claim(username, "correct horse battery");
    await expect(account.kind).toHaveText(`Signed in as @${username}`);
    await context.close();
  });
});
