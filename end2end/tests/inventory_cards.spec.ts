// The inventory with and without JavaScript: category tabs, each set's progress, sorting by name,
// a search by any word of a name and "Next page", all plain links and forms; a sale's notice and
// the question before the last card of a kind is sold; the shop's Buy disabled when the player
// cannot afford it, and a pack that shows its cards; then two players in two
// browser contexts, on the two server instances, trade a card and feathers through /trades and
// each sees the result.
import { expect, test } from "./fixtures/test";
import { InventoryPage, TradesPage } from "./fixtures/inventory_page";
import { ShopPage } from "./fixtures/shop_page";
import { FIRST_INSTANCE, SECOND_INSTANCE } from "./fixtures/instances";
import { grant } from "./fixtures/operator";
import { player } from "./fixtures/players";


test("the inventory pages: tabs, sort, search and next page", async ({ browser }, info) => {
  const asha = await player(browser, FIRST_INSTANCE, "Asha", info.project.name);
  grant(asha.username, ["all"], 7);
  const inventory = new InventoryPage(asha.page);
  await inventory.goto();
  await expect(inventory.feathers).toContainText("7 feathers");
  await expect(inventory.cards).toHaveCount(30);
  // Every card once: the bird set is complete.
  await expect(inventory.set("bird")).toContainText(/(\d+) of \1/);
  await expect(inventory.tab("All")).toHaveAttribute("aria-current", "page");

  await inventory.tab("Bird").click();
  await expect(asha.page).toHaveURL(/category=bird/);
  const birds = await inventory.cards.count();
  expect(birds).toBeGreaterThan(5);
  await expect(inventory.tab("Bird")).toHaveAttribute("aria-current", "page");
  for (const card of await inventory.cards.all()) await expect(card).toContainText("Bird");

  await inventory.goto();
  await inventory.sortToggle.click();
  await expect(asha.page).toHaveURL(/sort=name/);
  const names = (await inventory.names.allTextContents()).map((n) => n.toLowerCase());
  expect(names.length).toBe(30);
  expect(names[0] < names[29]).toBe(true);

  await inventory.searchFor("cro");
  await expect(inventory.names.filter({ hasText: /^Crow$/ })).toHaveCount(1);
  for (const name of await inventory.names.allTextContents())
    expect(name.toLowerCase().split(/[^a-z]+/).some((word) => word.startsWith("cro"))).toBe(true);
  // Any word of a name: "squirrel" finds "Flying squirrel".
  await inventory.searchFor("squirrel");
  await expect(inventory.names.filter({ hasText: /^Flying squirrel$/ })).toHaveCount(1);
  await inventory.searchFor("zzzz");
  await expect(asha.page.getByTestId("no-match")).toContainText("“zzzz”");
  await asha.page.getByTestId("clear-search").click();
  await expect(inventory.cards).toHaveCount(30);

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

test("a sale says what it earned, and the last card of a kind asks first", async ({ browser }, info) => {
  const asha = await player(browser, FIRST_INSTANCE, "Asha", info.project.name);
  grant(asha.username, ["crow", "crow"], 0);
  const inventory = new InventoryPage(asha.page);
  await inventory.goto("?place=bag");
  const crow = inventory.card("crow");
  await expect(crow.getByTestId("card-qty")).toHaveText("2");
  await crow.getByRole("button", { name: "Sell one · 🪶 2" }).click();
  await expect(inventory.notice).toHaveText("Sold 1 Crow for 🪶 2.");
  await expect(inventory.notice).toHaveAttribute("role", "status");
  await expect(inventory.feathers).toContainText("2 feathers");

  // The last one: a step that asks; "Keep it" keeps it.
  await inventory.card("crow").getByRole("button", { name: "Sell one · 🪶 2" }).click();
  const ask = asha.page.getByTestId("confirm-sell");
  await expect(ask).toContainText("This is your last Crow in the bag. Sell it for 🪶 2?");
  await expect(inventory.card("crow").getByTestId("card-qty")).toHaveText("1");
  await ask.getByRole("link", { name: "Keep it" }).click();
  await expect(ask).toHaveCount(0);
  await expect(inventory.card("crow").getByTestId("card-qty")).toHaveText("1");

  await inventory.card("crow").getByRole("button", { name: "Sell one · 🪶 2" }).click();
  await asha.page.getByTestId("confirm-sell").getByRole("button", { name: "Yes, sell it" }).click();
  await expect(inventory.notice).toHaveText("Sold 1 Crow for 🪶 2.");
  await expect(inventory.card("crow")).toHaveCount(0);
  await expect(inventory.feathers).toContainText("4 feathers");
  expect(inventory.problems).toEqual([]);
  await asha.context.close();
});

test("the shop: Buy disabled when you cannot afford it, and a pack shows its cards", async ({ browser }, info) => {
  const asha = await player(browser, FIRST_INSTANCE, "Asha", info.project.name);
  grant(asha.username, [], 12);
  const shop = new ShopPage(asha.page);
  await shop.goto();
  await expect(shop.buyButton("pack-3")).toBeDisabled();
  await expect(shop.item("pack-3")).toContainText("Need 🪶 8 more");
  await expect(shop.buyButton("look-golden-feather")).toBeDisabled();

  grant(asha.username, [], 100);
  await shop.goto();
  await expect(shop.buyButton("pack-3")).toBeEnabled();
  await shop.buy("pack-3");
  await expect(shop.notice).toHaveText("Bought Pack of 3 cards for 🪶 20.");
  await expect(shop.openedCards).toHaveCount(3);
  await expect(shop.feathers).toContainText("92 feathers");
  // The pack's cards are in the bag.
  const things = await shop.openedCards.evaluateAll((cards) => cards.map((c) => c.getAttribute("data-thing")!));
  const inventory = new InventoryPage(asha.page);
  await inventory.goto();
  for (const thing of things) await expect(inventory.card(thing)).toHaveCount(1);
  expect(shop.problems).toEqual([]);
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
