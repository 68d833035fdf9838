// A trade made by picking, with and without JavaScript: two players in two browser contexts,
// on the two server instances. Asha chooses Ravi by his username, picks two of her crows and
// his kite (no ids typed anywhere); a refusal brings the form back as it was with the error
// beside its field; Ravi's top bar counts the offer, he accepts, both bags show the cards
// moved, and the count goes back to nothing. Asha reaches the same form from Ravi's profile.
// Two guests, who have no usernames, pick each other from the players they played with.
import { expect, test } from "./fixtures/test";
import { InventoryPage, TradesPage } from "./fixtures/inventory_page";
import { FIRST_INSTANCE, SECOND_INSTANCE } from "./fixtures/instances";
import { grant } from "./fixtures/operator";
import { player } from "./fixtures/players";
import { roomOfTwo } from "./fixtures/game_page";
import path from "node:path";

const SCREENS = path.resolve(__dirname, "../../target/screens/moments");


test("a trade made by picking cards from both bags, accepted, moves them", async ({ browser }, info) => {
  const asha = await player(browser, FIRST_INSTANCE, "Asha", info.project.name);
  const ravi = await player(browser, SECOND_INSTANCE, "Ravi", info.project.name);
  grant(asha.username, ["crow", "crow"], 10);
  grant(ravi.username, ["kite"], 30);

  // Nothing waits for Ravi yet, and the page says what to do.
  const raviTrades = new TradesPage(ravi.page);
  await raviTrades.goto();
  await expect(raviTrades.waiting).toHaveCount(0);
  await expect(ravi.page.getByTestId("incoming-empty")).toBeVisible();

  // Asha chooses him by typing his username, and picks.
  const ashaTrades = new TradesPage(asha.page);
  await ashaTrades.goto();
  await expect(asha.page.getByTestId("outgoing-empty")).toBeVisible();
  await ashaTrades.choose(`@${ravi.username}`);
  await expect(asha.page.getByRole("heading", { level: 1 })).toHaveText("Offer a trade to Ravi");
  // The link beside "Back to your trades" says whose profile it opens.
  await expect(asha.page.getByTestId("with-profile")).toHaveText(`@${ravi.username}'s profile`);
  await expect(ashaTrades.form.getByTestId("give-card")).toContainText(["Crow"]);
  await expect(ashaTrades.form.getByTestId("give-card").filter({ hasText: "Crow" })).toContainText("You have 2");
  await expect(ashaTrades.form.getByTestId("want-card").filter({ hasText: "Kite" })).toContainText("They have 1");
  await expect(ashaTrades.form).not.toContainText("crow:");

  // More feathers than she has: refused, the form back as it was, the error beside the field.
  await ashaTrades.give("Crow").fill("2");
  await ashaTrades.ask("Kite").fill("1");
  await ashaTrades.feathers(999, 0);
  await ashaTrades.send();
  await expect(asha.page.getByTestId("give_feathers-error")).toContainText("Not enough feathers");
  await expect(ashaTrades.give("Crow")).toHaveValue("2");
  await expect(ashaTrades.ask("Kite")).toHaveValue("1");
  await expect(asha.page.getByTestId("give_feathers")).toHaveValue("999");

  await ashaTrades.feathers(0, 5);
  await ashaTrades.send();
  await expect(ashaTrades.notice).toContainText("Offer sent to Ravi");
  await expect(ashaTrades.outgoing.first()).toContainText("2 × Crow");
  await expect(ashaTrades.outgoing.first().getByTestId("offer-status")).toHaveText("open");

  // From his profile, the same form.
  await ashaTrades.outgoing.first().getByTestId("offer-player").click();
  await asha.page.getByRole("link", { name: "Offer a trade" }).click();
  await expect(asha.page.getByRole("heading", { level: 1 })).toHaveText("Offer a trade to Ravi");
  await expect(ashaTrades.form).toBeVisible();

  // Ravi's top bar counts it.
  await raviTrades.goto();
  await expect(raviTrades.waiting).toHaveText(/1/);
  await expect(ravi.page.locator("header").getByRole("link", { name: "Trades 1 offer waiting" })).toBeVisible();
  const offer = raviTrades.incoming.first();
  await expect(offer).toContainText("Asha");
  await expect(offer.getByTestId("offer-gives")).toHaveText("🐦‍⬛ 2 × Crow");
  await expect(offer.getByTestId("offer-asks")).toHaveText("🪁 1 × Kite, 🪶 5 feathers");
  await raviTrades.acceptFirst();
  await expect(raviTrades.notice).toContainText("Trade done with Asha");
  await expect(raviTrades.waiting).toHaveCount(0);

  // Both see the cards moved.
  const raviCards = new InventoryPage(ravi.page);
  await raviCards.goto();
  await expect(raviCards.qty("Crow")).toHaveText("2");
  await expect(raviCards.qty("Kite")).toHaveCount(0);
  await expect(raviCards.feathers).toContainText("25 feathers");
  const ashaCards = new InventoryPage(asha.page);
  await ashaCards.goto();
  await expect(ashaCards.qty("Kite")).toHaveText("1");
  await expect(ashaCards.qty("Crow")).toHaveCount(0);
  await expect(ashaCards.feathers).toContainText("15 feathers");
  await ashaTrades.goto();
  await expect(ashaTrades.outgoing.first().getByTestId("offer-status")).toHaveText("accepted");
  await expect(ashaTrades.waiting).toHaveCount(0);
  expect([...ashaTrades.problems, ...raviTrades.problems]).toEqual([]);
  await asha.context.close();
  await ravi.context.close();
});

test("two guests who played a match trade by picking each other from the players they played with", async ({
  browser,
}, info) => {
  test.skip(info.project.use.javaScriptEnabled === false, "a match is played with JavaScript");
  test.setTimeout(60_000);
  // Two guests (no usernames), one match of one round.
  const { hostContext, friendContext, host, friend } = await roomOfTwo(browser, "Meera", "Kabir");
  await host.startMatch(1, 1000, 7);
  await expect(host.podium).toBeVisible({ timeout: 15_000 });
  await host.page.goto("/me");
  const meera = (await host.page.getByTestId("my-profile").getAttribute("href"))!.split("/").pop()!;
  grant(meera, [], 10);

  // Meera's trades page lists Kabir, whom she could not name: he has no username.
  const meeraTrades = new TradesPage(host.page);
  await meeraTrades.goto();
  const kabir = host.page.getByTestId("partner").filter({ hasText: "Kabir" });
  await expect(kabir).toHaveAccessibleName("Offer to Kabir");
  await kabir.click();
  await expect(host.page.getByRole("heading", { level: 1 })).toHaveText("Offer a trade to Kabir");
  await meeraTrades.feathers(3, 0);
  await meeraTrades.send();
  await expect(meeraTrades.notice).toContainText("Offer sent to Kabir");

  // Kabir's top bar counts it on his next page (it is drawn by the server with each page).
  const kabirTrades = new TradesPage(friend.page);
  await kabirTrades.goto();
  await expect(kabirTrades.waiting).toHaveText(/1/);
  await expect(friend.page.getByTestId("partner").filter({ hasText: "Meera" })).toBeVisible();
  await kabirTrades.acceptFirst();
  await expect(kabirTrades.notice).toContainText("Trade done with Meera");
  await expect(kabirTrades.waiting).toHaveCount(0);
  // Pictures of the list, for people to look at (beside fit_pages' own).
  for (const lang of ["en", "hi"]) {
    await friendContext.addCookies([{ name: "udd_lang", value: lang, url: SECOND_INSTANCE }]);
    for (const width of [360, 1280]) {
      await friend.page.setViewportSize({ width, height: 800 });
      await kabirTrades.goto();
      await expect(friend.page.getByTestId("partners")).toBeVisible();
      await friend.page.screenshot({ path: path.join(SCREENS, `trades-partners-${lang}-${width}.png`), fullPage: true });
    }
  }
  await hostContext.close();
  await friendContext.close();
});
