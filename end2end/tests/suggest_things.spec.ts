// Things made together: the host opens the lobby's suggestion box, two players' phones (on
// both instances) see its form appear, and suggest three things; the host sees that they came
// in, puts one ruling to the room's vote, the phones are told and vote, and the host overrides
// the room, accepts one as sent and turns one down, then puts the accepted into their deck.
// The deck then holds exactly its twelve things and those two, with the rulings the host chose
// (read back from the deck's editor, whose lines are the deck). The oracles: the lines the test
// pasted and typed, and the locale files' strings. Pictures of each state go to
// target/screens/decks.
import { expect, test } from "./fixtures/test";
import { GamePage } from "./fixtures/game_page";
import { HomePage } from "./fixtures/home_page";
import { FIRST_INSTANCE, SECOND_INSTANCE } from "./fixtures/instances";
import { strings, text } from "./fixtures/strings";
import { shots as pictures } from "./fixtures/shots";

const LINES = Array.from({ length: 12 }, (_, i) => `Pet ${i + 1}, no`);

test("players suggest things, the room votes on a ruling, and the host's deck holds exactly what the host accepted", async ({ browser, javaScriptEnabled }) => {
  test.setTimeout(150_000);
  const s = strings("en", "suggest");
  const js = javaScriptEnabled !== false;
  const hostContext = await browser.newContext({ baseURL: FIRST_INSTANCE, javaScriptEnabled });
  const host = new GamePage(await hostContext.newPage());
  await new HomePage(host.page).goto();
  await new HomePage(host.page).createRoom("Tara");
  const code = await host.roomCode();
  await host.page.goto("/decks/new");
  await host.page.getByTestId("deck-title").fill("Our things");
  await host.page.getByTestId("deck-lines").fill(LINES.join("\n"));
  await host.page.getByTestId("save-deck").click();
  await host.page.waitForURL(/\/d\/[A-Z0-9]{7}$/);
  const deck = new URL(host.page.url()).pathname.split("/").pop()!;

  // Two phones in the lobby, one on each instance, before the box opens.
  const phones: GamePage[] = [];
  for (const [name, base] of [["Nila", SECOND_INSTANCE], ["Veer", FIRST_INSTANCE]]) {
    const context = await browser.newContext({ baseURL: base, viewport: { width: 360, height: 740 }, javaScriptEnabled: true });
    const phone = new GamePage(await context.newPage());
    await phone.goto(code);
    await phone.join(name);
    await phone.waitForHydration();
    await expect(phone.page.getByTestId("suggest-form")).toBeHidden();
    phones.push(phone);
  }
  const [nila, veer] = phones;

  // The host opens the box; the phones' forms appear by themselves.
  await host.goto(code);
  await expect(host.page.getByTestId("suggest-closed")).toBeVisible();
  await pictures(host.page, "decks", "suggest-closed", js, { width: 1280, height: 800 });
  await host.submit(host.page.getByTestId("open-suggestions"));
  await expect(host.page.getByTestId("suggest-box")).toContainText(text(s, "none"));
  for (const phone of phones) await expect(phone.page.getByTestId("suggest-form")).toBeVisible({ timeout: 10_000 });

  const suggest = async (phone: GamePage, name: string, flies: boolean, note = "") => {
    const form = phone.page.getByTestId("suggest-form");
    await form.getByLabel(text(s, "name")).fill(name);
    await form.getByLabel(text(s, flies ? "flies" : "grounded"), { exact: true }).check();
    await form.getByLabel(text(s, "note")).fill(note);
    await phone.submit(form.getByTestId("send-suggestion"));
    await expect(phone.page.getByTestId("suggest-notice")).toHaveText(text(s, "sent"));
    await expect(phone.page.getByTestId("my-suggestions")).toContainText(name);
  };
  await suggest(nila, "🦇 Bat", true);
  await suggest(nila, "Kite", true);
  await suggest(veer, "Flying fish", false, "It glides");
  await pictures(nila.page, "decks", "suggest-sent", true, { width: 1280, height: 800 });

  // The host hears they came in (with JavaScript, as a note; without, on the next load).
  const fresh = async () => {
    if (js) {
      await expect(host.page.getByTestId("box-changed")).toBeVisible({ timeout: 10_000 });
      await host.submit(host.page.getByTestId("box-changed").getByRole("link"));
    } else {
      await host.goto(code);
    }
  };
  await fresh();
  const item = (name: string) => host.page.getByTestId("suggestion").filter({ has: host.page.getByTestId("suggestion-name").getByText(name, { exact: true }) });
  await expect(host.page.getByTestId("suggestion")).toHaveCount(3);
  await host.submit(item("Flying fish").getByTestId("to-vote"));
  await expect(item("Flying fish")).toHaveAttribute("data-status", "vote");
  await expect(item("Flying fish").getByTestId("vote-tally")).toHaveText(text(s, "tally_none"));

  // Each phone is told a vote opened, and votes: it does not fly.
  for (const phone of phones) {
    const told = phone.page.getByTestId("vote-changed");
    await expect(told).toBeVisible({ timeout: 10_000 });
    await phone.submit(told.getByRole("link"));
    const vote = phone.page.getByTestId("vote");
    await expect(vote).toContainText(text(s, "vote_question", { name: "Flying fish" }));
    await phone.submit(vote.getByTestId("vote-grounded"));
    await expect(phone.page.getByTestId("suggest-notice")).toHaveText(text(s, "voted"));
    await expect(phone.page.getByTestId("my-vote")).toHaveText(text(s, "your_vote_grounded"));
  }
  await pictures(veer.page, "decks", "suggest-voted", true, { width: 1280, height: 800 });

  // The room says 0 to 2; the form starts from the room's ruling, and the host overrides it.
  await fresh();
  const fish = item("Flying fish");
  await expect(fish.getByTestId("vote-tally")).toHaveText(text(s, "tally", { yes: "0", no: "2" }));
  await expect(fish.getByLabel(text(s, "grounded"), { exact: true })).toBeChecked();
  await pictures(host.page, "decks", "suggest-box", js, { width: 1280, height: 800 });
  await fish.getByLabel(text(s, "flies"), { exact: true }).check();
  await fish.getByLabel(text(s, "note")).fill("It glides far enough");
  await host.submit(fish.getByTestId("accept"));
  await host.submit(item("🦇 Bat").getByTestId("accept"));
  await host.submit(item("Kite").getByTestId("reject"));
  await expect(item("Kite")).toHaveAttribute("data-status", "rejected");
  await expect(host.page.locator("[data-testid=suggestion][data-status=accepted]")).toHaveCount(2);

  // Into the host's deck: exactly those two, after its twelve.
  const put = host.page.getByTestId("put-suggestions");
  await put.locator("select[name=into]").selectOption(deck);
  await host.submit(put.getByTestId("put"));
  await expect(host.page.getByTestId("suggest-notice")).toHaveText(text(s, "put_done", { count: "2" }));
  await expect(host.page.locator("[data-testid=suggestion][data-status=saved]")).toHaveCount(2);
  await host.page.goto(`/d/${deck}/edit`);
  const lines = (await host.page.getByTestId("deck-lines").inputValue()).trim().split("\n");
  expect(lines).toEqual([
    ...LINES.map((line) => `❔ ${line}`),
    "🦇 Bat, yes",
    "❔ Flying fish, yes, It glides far enough",
  ]);
  for (const context of [hostContext, nila.page.context(), veer.page.context()]) await context.close();
});
