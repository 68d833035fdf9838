// A guest claims an account, signs out, and signs back in by username and by email; a taken
// username and a wrong password are refused with a reason. With JavaScript and without it.
import { expect, test } from "./fixtures/test";
import { AccountPage } from "./fixtures/account_page";
import { HomePage } from "./fixtures/home_page";

test("a guest claims an account, signs out and signs back in", async ({ page }, info) => {
  // Unique per project and run: both projects share one table.
  const username = `asha_${info.project.name.replace("-", "")}_${Date.now() % 1_000_000}`;
  const email = `${username}@example.com`;
  const home = new HomePage(page);
  await home.goto();
  await home.createRoom("Asha", "Butterfly");

  const account = new AccountPage(page);
  await account.goto();
  await expect(account.displayName).toHaveText("Asha");
  await expect(account.kind).toHaveText("Playing as a guest");
  await account.claim(username, "correct horse battery", email);
  await expect(account.kind).toHaveText(`Signed in as @${username}`);

  await account.signOut();
  await account.signIn(username, "not the password");
  await expect(account.formError).toHaveText("Wrong username, email or password.");
  await account.signIn(email.toUpperCase(), "correct horse battery");
  await expect(account.kind).toHaveText(`Signed in as @${username}`);
  await expect(account.displayName).toHaveText("Asha");

  await account.signOut();
  await account.signIn(username, "correct horse battery");
  await expect(account.kind).toHaveText(`Signed in as @${username}`);
});

test("a taken username is refused and changes nothing", async ({ browser }, info) => {
  const username = `ravi_${info.project.name.replace("-", "")}_${Date.now() % 1_000_000}`;
  const claim = async (name: string) => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await new HomePage(page).goto();
    await new HomePage(page).createRoom(name);
    const account = new AccountPage(page);
    await account.goto();
    await account.claim(username, "long enough secret");
    return { context, account };
  };
  const first = await claim("Ravi");
  await expect(first.account.kind).toHaveText(`Signed in as @${username}`);
  const second = await claim("Other Ravi");
  await expect(second.account.formError).toHaveText("That username is taken.");
  await expect(second.account.kind).toHaveText("Playing as a guest");
  await first.context.close();
  await second.context.close();
});
