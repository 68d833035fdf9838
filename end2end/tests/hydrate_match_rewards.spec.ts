// After a match the standings show what each player earned (feathers, cards, badges), computed by
// the same rules the stream projector grants by; the feathers then arrive in the player's
// wallet. From the results, "trade with this room" offers to a guest in the room (guests have no
// username), who accepts on the other server instance.
import { expect, test } from "./fixtures/test";
import { roomOfTwo } from "./fixtures/game_page";
import { InventoryPage, TradesPage } from "./fixtures/inventory_page";

test("the results show each player's rewards, which arrive, and a room trade follows", async ({ browser }) => {
  test.setTimeout(90_000);
  const { host, friend, code } = await roomOfTwo(browser, "Giver", "Taker");

  await host.startMatch(2, 3000, 5);
  await friend.thingOfRound(1);
  await friend.tapHumanly();
  await expect(host.podium).toBeVisible({ timeout: 20_000 });

  // Everyone's rewards, on both screens alike; the podium's first earns the most feathers.
  const earned = host.page.getByTestId("earned");
  await expect(earned).toHaveCount(2);
  const feathers = await earned.evaluateAll((cells) => cells.map((c) => Number(c.getAttribute("data-feathers"))));
  for (const f of feathers) expect(f).toBeGreaterThanOrEqual(1);
  expect(feathers[0]).toBeGreaterThan(feathers[1]);
  await expect(friend.page.getByTestId("earned")).toHaveCount(2);
  const hostRow = host.standings.filter({ hasText: "Giver" });
  const mine = Number(await hostRow.getByTestId("earned").getAttribute("data-feathers"));

  await expect(host.page.getByTestId("trade-room")).toHaveAttribute("href", `/trades?room=${code}`);
  const wallet = (n: number) => new RegExp(`(^|\\D)${n} feathers`);

  // The projector grants exactly that: the wallet shows it once the match is counted.
  await host.page.getByTestId("see-cards").click();
  const inventory = new InventoryPage(host.page);
  await expect(async () => {
    await inventory.goto();
    await expect(inventory.feathers).toContainText(wallet(mine), { timeout: 500 });
  }).toPass({ timeout: 15_000 });

  // Back to the results: trade with this room. Taker is a guest, offered to by the room.
  await host.page.goto(`/trades?room=${code}`);
  const offer = host.page.getByTestId("room-offer");
  await expect(offer.getByTestId("room-player")).toHaveText(["Offer to Taker"]);
  await offer.getByTestId("room-player").click();
  const hostTrades = new TradesPage(host.page);
  await expect(hostTrades.form).toBeVisible();
  await hostTrades.feathers(1, 0);
  await hostTrades.send();
  await expect(hostTrades.notice).toContainText("Offer sent to Taker");
  await expect(hostTrades.outgoing.first()).toContainText("Taker");

  const friendTrades = new TradesPage(friend.page);
  await friendTrades.goto();
  await expect(friendTrades.waiting).toHaveText(/1/);
  await expect(friendTrades.incoming.first()).toContainText("Giver");
  await friendTrades.acceptFirst();
  await inventory.goto();
  await expect(inventory.feathers).toContainText(wallet(mine - 1));
});
