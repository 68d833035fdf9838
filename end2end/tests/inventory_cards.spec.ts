// The inventory with and without JavaScript: category tabs with set progress, sorting by name,
// a name-prefix search and "Next page", all plain links and forms; then two players in two
// browser contexts, on the two server instances, trade a card and feathers through /trades and
// each sees the result.
import { expect, test, type Browser } from "./fixtures/test";
import { AccountPage } from "./fixtures/account_page";
import { HomePage } from "./fixtures/home_page";
import { InventoryPage, TradesPage } from "./fixtures/inventory_page";
import { FIRST_INSTANCE, SECOND_INSTANCE } from "./fixtures/instances";
import { grant } from "./fixtures/operator";

/** A player with an account, in a context of their own on `baseURL`. */
async function player(browser: Browser, baseURL: string, name: string, project: string) {
  const username = `${name.toLowerCase()}_${project.replace("-", "")}_${Date.now() % 1_000_000}`;
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  const home = new HomePage(page);
  await home.goto();
  await home.createRoom(name);
  const account = new AccountPage(page);
  await account.goto();
  await account.claim(username, "correct horse battery");
  await expect(account.kind).toHaveText(`Signed in as @${username}`);
  return { context, page, username };
}

test("the inventory pages: tabs, sort, search and next page", async ({ browser }, info) => {
  const asha = await player(browser, FIRST_INSTANCE, "Asha", info.project.name);
  grant(asha.username, ["all"], 7);
  const inventory = new InventoryPage(asha.page);
  await inventory.goto();
  await expect(inventory.feathers).toContainText("7 feathers");
  await expect(inventory.cards).toHaveCount(30);
  // Every card once: the bird set is complete.
  await expect(inventory.tab("Bird")).toContainText(/Bird (\d+)\/\1/);

  await inventory.tab("Bird").click();
  await expect(asha.page).toHaveURL(/category=bird/);
  const birds = await inventory.cards.count();
  expect(birds).toBeGreaterThan(5);
  for (const card of await inventory.cards.all()) await expect(card).toContainText("· Bird ·");

  await inventory.goto();
  await inventory.sortToggle.click();
  await expect(asha.page).toHaveURL(/sort=name/);
  const names = (await inventory.names.allTextContents()).map((n) => n.toLowerCase());
  expect(names.length).toBe(30);
  expect(names[0] < names[29]).toBe(true);

  await inventory.searchFor("cro");
  await expect(inventory.names.filter({ hasText: /^Crow$/ })).toHaveCount(1);
  for (const name of await inventory.names.allTextContents()) expect(name.toLowerCase().startsWith("cro")).toBe(true);

  await inventory.goto();
  const first = await inventory.names.allTextContents();
  await inventory.nextPage.click();
  await expect(inventory.cards.first()).toBeVisible();
  const second = await inventory.names.allTextContents();
  expect(second.length).toBeGreaterThan(0);
  expect(second.filter((n) => first.includes(n))).toEqual([]);
  expect(inventory.problems).toEqual([]);
  await asha.context.close();
});

test("two players trade a card and feathers, and each sees the result", async ({ browser }, info) => {
  const asha = await player(browser, FIRST_INSTANCE, "Asha", info.project.name);
  const ravi = await player(browser, SECOND_INSTANCE, "Ravi", info.project.name);
  grant(asha.username, ["crow"], 10);
  grant(ravi.username, [], 30);

  const ashaTrades = new TradesPage(asha.page);
  await ashaTrades.goto();
  await ashaTrades.choose(`@${ravi.username}`);
  await ashaTrades.give("Crow").fill("1");
  await ashaTrades.feathers(5, 20);
  await ashaTrades.send();
  await expect(ashaTrades.outgoing.first().getByTestId("offer-status")).toHaveText("open");

  const raviTrades = new TradesPage(ravi.page);
  await raviTrades.goto();
  await expect(raviTrades.incoming.first()).toContainText("Asha");
  await expect(raviTrades.incoming.first()).toContainText("1 × Crow");
  await raviTrades.acceptFirst();

  const raviCards = new InventoryPage(ravi.page);
  await raviCards.goto();
  await expect(raviCards.qty("Crow")).toHaveText("1");
  await expect(raviCards.feathers).toContainText("15 feathers");

  const ashaCards = new InventoryPage(asha.page);
  await ashaCards.goto();
  await expect(ashaCards.page.getByTestId("no-cards")).toBeVisible();
  await expect(ashaCards.feathers).toContainText("25 feathers");
  await ashaTrades.goto();
  await expect(ashaTrades.outgoing.first().getByTestId("offer-status")).toHaveText("accepted");
  expect([...ashaTrades.problems, ...raviTrades.problems]).toEqual([]);
  await asha.context.close();
  await ravi.context.close();
});
