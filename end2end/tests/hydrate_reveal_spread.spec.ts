// In a reaction game every player must see the thing at the same moment, whichever server
// instance their phone reached. Three players, two on the first instance and one on the second,
// watch a 10-round match; each page notes when each round's thing arrives on its stream and
// when it appears on screen (its own clock; all pages run on this machine, so the clocks
// agree). The spread per round, last player minus first, is printed with its p95 for both. It
// runs in a project of its own after every other spec (playwright.config.ts), so that no other
// browser shares the two cores. The servers' part (arrival) is asserted; the screen also carries
// the test machine's rendering, so it is printed only.
import { expect, test } from "./fixtures/test";
import { GamePage } from "./fixtures/game_page";
import { HomePage } from "./fixtures/home_page";
import { FIRST_INSTANCE, SECOND_INSTANCE } from "./fixtures/instances";

const ROUNDS = 10;
/** The target is 50 ms; the test allows twice that so a loaded CI machine is not flaky. */
const P95_LIMIT_MS = 100;

// Runs in each page before its scripts: notes when round n's thing first arrives on the room's
// stream and when it first appears on screen, by the page's own clock.
const noteReveals = () => {
  type Seen = Record<string, number>;
  const marks = { painted: {} as Seen, arrived: {} as Seen };
  (window as unknown as { __reveals: typeof marks }).__reveals = marks;
  const now = () => performance.timeOrigin + performance.now();
  new MutationObserver(() => {
    const at = now();
    for (const el of document.querySelectorAll("[data-testid=reveal]")) {
      const n = el.getAttribute("data-round");
      if (n && !(n in marks.painted)) marks.painted[n] = at;
    }
  }).observe(document, { subtree: true, childList: true, attributes: true });
  const Source = window.EventSource;
  window.EventSource = class extends Source {
    constructor(url: string | URL, init?: EventSourceInit) {
      super(url, init);
      this.addEventListener("message", (event) => {
        const at = now();
        try {
          const game = JSON.parse((event as MessageEvent).data)?.lobby?.game;
          for (const round of game?.rounds ?? []) {
            if (round.thing && !(round.n in marks.arrived)) marks.arrived[round.n] = at;
          }
        } catch {
          // "ended" and the like carry no rounds.
        }
      });
    }
  };
};

function spreadOf(seen: Record<string, number>[], rounds: number[]): { spreads: number[]; p95: number } {
  const spreads = rounds.map((n) => {
    const at = seen.map((s) => s[String(n)]);
    expect(at.every((t) => typeof t === "number"), `round ${n} reached every page`).toBe(true);
    return Math.round(Math.max(...at) - Math.min(...at));
  });
  const sorted = [...spreads].sort((a, b) => a - b);
  return { spreads, p95: sorted[Math.ceil(0.95 * sorted.length) - 1] };
}

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

  type Marks = { painted: Record<string, number>; arrived: Record<string, number> };
  const marks: Marks[] = await Promise.all(
    players.map((p) => p.page.evaluate(() => (window as unknown as { __reveals: Marks }).__reveals)),
  );
  const rounds = Object.keys(marks[0].painted).map(Number).sort((a, b) => a - b);
  expect(rounds).toHaveLength(ROUNDS);
  const arrived = spreadOf(marks.map((m) => m.arrived), rounds);
  const painted = spreadOf(marks.map((m) => m.painted), rounds);
  console.log(
    `reveal spread across two instances, ${ROUNDS} rounds (ms):\n` +
      `  arrived on the stream: ${arrived.spreads.join(", ")}; p95 ${arrived.p95}\n` +
      `  on screen:             ${painted.spreads.join(", ")}; p95 ${painted.p95}`,
  );
  expect(arrived.p95).toBeLessThanOrEqual(P95_LIMIT_MS);
  for (const player of players) expect(player.problems).toEqual([]);
  await Promise.all(contexts.map((c) => c.close()));
});
