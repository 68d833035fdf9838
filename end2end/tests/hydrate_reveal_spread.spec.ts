// In a reaction game every player must see the thing at the same moment, whichever server
// instance their phone reached. Three players, two on the first instance and one on the second,
// watch a 10-round match; each page notes when each round's thing appears (its own clock; all
// pages run on this machine, so the clocks agree). The spread per round, last player minus
// first, is printed with its p95.
import { expect, test } from "./fixtures/test";
import { GamePage } from "./fixtures/game_page";
import { HomePage } from "./fixtures/home_page";
import { FIRST_INSTANCE, SECOND_INSTANCE } from "./fixtures/instances";

const ROUNDS = 10;
/** The target is 50 ms; the test allows twice that so a loaded CI machine is not flaky. */
const P95_LIMIT_MS = 100;

const noteReveals = () => {
  const seen: Record<string, number> = ((window as unknown as { __revealAt: Record<string, number> }).__revealAt = {});
  new MutationObserver(() => {
    const at = performance.timeOrigin + performance.now();
    for (const el of document.querySelectorAll("[data-testid=reveal]")) {
      const n = el.getAttribute("data-round");
      if (n && !(n in seen)) seen[n] = at;
    }
  }).observe(document, { subtree: true, childList: true, attributes: true });
};

test("every player sees each thing within a few ms of the others, across instances", async ({ browser }) => {
  test.setTimeout(150_000);
  const contexts = await Promise.all(
    [FIRST_INSTANCE, FIRST_INSTANCE, SECOND_INSTANCE].map((baseURL) => browser.newContext({ baseURL })),
  );
  for (const context of contexts) await context.addInitScript(noteReveals);
  const [hostPage, secondPage, otherPage] = await Promise.all(contexts.map((c) => c.newPage()));

  await new HomePage(hostPage).goto();
  await new HomePage(hostPage).createRoom("Host");
  const host = new GamePage(hostPage);
  const code = await host.roomCode();
  await host.waitForHydration();
  const players = [host];
  for (const [page, name] of [[secondPage, "Same"], [otherPage, "Other"]] as const) {
    const player = new GamePage(page);
    await player.goto(code);
    await player.join(name);
    await player.waitForHydration();
    players.push(player);
  }
  await host.expectPlayers(["Host", "Same", "Other"], 2_000);

  // The shortest window: nobody taps, the rounds only need to be shown.
  await host.startMatch(ROUNDS, 1000, 11);
  for (const player of players) await expect(player.podium).toBeVisible({ timeout: 120_000 });

  const seen = await Promise.all(
    players.map((p) => p.page.evaluate(() => (window as unknown as { __revealAt: Record<string, number> }).__revealAt)),
  );
  const rounds = Object.keys(seen[0]).map(Number).sort((a, b) => a - b);
  expect(rounds).toHaveLength(ROUNDS);
  const spreads = rounds.map((n) => {
    const at = seen.map((s) => s[String(n)]);
    expect(at.every((t) => typeof t === "number"), `round ${n} reached every page`).toBe(true);
    return Math.round(Math.max(...at) - Math.min(...at));
  });
  const sorted = [...spreads].sort((a, b) => a - b);
  const p95 = sorted[Math.ceil(0.95 * sorted.length) - 1];
  console.log(`reveal spread across two instances, 10 rounds (ms): ${spreads.join(", ")}; p95 ${p95} ms`);
  expect(p95).toBeLessThanOrEqual(P95_LIMIT_MS);
  for (const player of players) expect(player.problems).toEqual([]);
  await Promise.all(contexts.map((c) => c.close()));
});
