// An instance dies mid-match (SIGKILL: no shutdown, its connections cut by the kernel). Two
// instances of this spec's own sit behind two balancers, as behind a load balancer that sends
// each connection to a live instance: the host and a friend reach the first instance, a third
// player the second. Everyone taps every round. In round 3 the first instance is killed; its
// players' pages must reconnect (through their balancer, to the second) by themselves and play
// on. Then: every page shows the podium, every round was closed once and shown, every tap the
// server acknowledged is in the results, each player's score is the sum of their rounds, no
// answer was a 5xx, and the boards counted each player's match once.
import { expect, test, type Page } from "./fixtures/test";
import { balancer, Instance } from "./fixtures/cluster";
import { GamePage } from "./fixtures/game_page";
import { HomePage } from "./fixtures/home_page";
import { FIRST_PORT } from "./fixtures/instances";

const ROUNDS = 8;
const KILL_IN_ROUND = 3;
// Ports of this spec's own, clear of the suite's instances and engine (FIRST_PORT..+2).
const [A, B, TO_A, TO_B] = [10, 11, 12, 13].map((i) => FIRST_PORT + i);

type Tap = { round: number; status: number; counted: boolean; at: number };

/** Notes every tap the page sends and what came back, and every 5xx it was answered. */
function watch(page: Page) {
  const taps: Tap[] = [];
  const failedTaps: number[] = [];
  const serverErrors: string[] = [];
  // Every round the page sent a tap in, whatever became of the request: a tap whose answer was
  // lost (its instance killed after the write, or mid-body) may still be in the results.
  const sent = new Set<number>();
  page.on("request", (request) => {
    if (request.url().endsWith("/api/rooms/tap")) {
      sent.add(Number(new URLSearchParams(request.postData() ?? "").get("round")));
    }
  });
  page.on("response", async (response) => {
    if (response.status() >= 500) serverErrors.push(`${response.status()} ${response.url()}`);
    if (!response.url().endsWith("/api/rooms/tap")) return;
    const round = Number(new URLSearchParams(response.request().postData() ?? "").get("round"));
    const body = await response.json().catch(() => null);
    taps.push({ round, status: response.status(), counted: body?.first === true, at: Date.now() });
  });
  page.on("requestfailed", (request) => {
    if (request.url().endsWith("/api/rooms/tap")) {
      failedTaps.push(Number(new URLSearchParams(request.postData() ?? "").get("round")));
    }
  });
  return { taps, failedTaps, serverErrors, sent };
}

/** Taps once in every round the page shows, 100-400 ms after it appears, until the podium. */
async function tapEveryRound(player: GamePage) {
  const tapped = new Set<number>();
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline && !(await player.podium.isVisible())) {
    const round = await player.reveal.getAttribute("data-round", { timeout: 200 }).catch(() => null);
    if (round && !tapped.has(Number(round))) {
      tapped.add(Number(round));
      await player.page.waitForTimeout(100 + Math.random() * 300);
      await player.udd.click({ timeout: 1_000 }).catch(() => {});
    }
    await player.page.waitForTimeout(25);
  }
}

test("players of a killed instance reconnect to the other, and the match ends with every acknowledged tap", async ({
  browser,
}) => {
  test.setTimeout(150_000);
  const first = await Instance.start(A);
  const second = await Instance.start(B);
  const balancers = [await balancer(TO_A, [A, B]), await balancer(TO_B, [B, A])];
  try {
    const contexts = await Promise.all(
      [TO_A, TO_A, TO_B].map((port) => browser.newContext({ baseURL: `http://127.0.0.1:${port}` })),
    );
    const pages = await Promise.all(contexts.map((c) => c.newPage()));
    const seen = pages.map(watch);
    const names = ["Host", "Near", "Far"];

    await new HomePage(pages[0]).goto();
    await new HomePage(pages[0]).createRoom(names[0]);
    const host = new GamePage(pages[0]);
    const code = await host.roomCode();
    await host.waitForHydration();
    const players = [host];
    for (const [i, page] of pages.entries()) {
      if (i === 0) continue;
      const player = new GamePage(page);
      await player.goto(code);
      await player.join(names[i]);
      await player.waitForHydration();
      players.push(player);
    }
    await host.expectPlayers(names, 5_000);

    await host.startMatch(ROUNDS, 1500, 23);
    const playing = players.map(tapEveryRound);
    await host.reveal.filter({ hasText: `Round ${KILL_IN_ROUND} of` }).waitFor({ timeout: 30_000 });
    await pages[0].waitForTimeout(150 + Math.random() * 300);
    const killedAt = Date.now();
    first.kill();
    await Promise.all(playing);
    expect(first.dead).toBe(true);

    for (const player of players) await expect(player.podium).toBeVisible({ timeout: 30_000 });

    // The match as the surviving instance keeps it.
    const answer = await contexts[2].request.post(`http://127.0.0.1:${TO_B}/api/rooms/lobby`, {
      form: { code },
      headers: { accept: "application/json", origin: `http://127.0.0.1:${TO_B}` },
    });
    expect(answer.status()).toBe(200);
    const data = await answer.json();
    const game = data.lobby.game;
    const idOf = new Map<string, string>(
      game.players.map((p: { nickname: string; user_id: string }) => [p.nickname, p.user_id]),
    );
    expect([...idOf.keys()].sort()).toEqual([...names].sort());

    // No round skipped: every one was shown and closed once, with a result for every player.
    expect(game.rounds.map((r: { n: number }) => r.n - game.first_round + 1)).toEqual(
      Array.from({ length: ROUNDS }, (_, i) => i + 1),
    );
    for (const round of game.rounds) {
      expect(round.thing, `round ${round.n} was shown`).not.toBeNull();
      expect(round.closed_at_ms, `round ${round.n} was closed`).not.toBeNull();
      expect(round.results.map((r: { user_id: string }) => r.user_id).sort()).toEqual([...idOf.values()].sort());
    }

    for (const [i, name] of names.entries()) {
      const me = idOf.get(name)!;
      const results = game.rounds.map(
        (r: { results: { user_id: string; reaction_ms: number | null; points: number }[] }) =>
          r.results.find((x) => x.user_id === me)!,
      );
      // Every acknowledged tap is in its round's results.
      const acknowledged = seen[i].taps.filter((t) => t.status === 200 && t.counted);
      for (const tap of acknowledged) {
        expect(results[tap.round - 1].reaction_ms, `${name}'s acknowledged tap in round ${tap.round}`).not.toBeNull();
      }
      // ...and nothing else is: a round the page sent no tap in is not scored for it. (A tap
      // whose answer was cut off may or may not have reached the table; either is right.)
      for (const [r, result] of results.entries()) {
        if (result.reaction_ms === null) continue;
        expect(seen[i].sent.has(r + 1), `${name} is scored in round ${r + 1} only after tapping in it`).toBe(true);
      }
      // Each round scored once: the total is the sum of the rounds.
      const player = game.players.find((p: { user_id: string }) => p.user_id === me);
      const sum = results.reduce((s: number, r: { points: number }) => s + r.points, 0);
      expect(player.score, `${name}'s score`).toBe(sum);
      expect(seen[i].serverErrors, `${name}'s page got no 5xx`).toEqual([]);
    }
    console.log(
      names
        .map((name, i) => {
          const taps = seen[i].taps;
          const ok = taps.filter((t) => t.status === 200 && t.counted);
          return `${name}: ${ok.length} taps acknowledged (${ok.filter((t) => t.at > killedAt).length} after the kill), ` +
            `${taps.length - ok.length} refused, ${seen[i].failedTaps.length} cut off`;
        })
        .join("; "),
    );
    // The first instance's players played on through the second: taps after the kill counted.
    for (const i of [0, 1]) {
      const after = seen[i].taps.filter((t) => t.at > killedAt + 500 && t.status === 200 && t.counted);
      expect(after.length, `${names[i]} played on after the kill`).toBeGreaterThan(0);
    }

    // The boards counted each player's match once (the suite's instances project them within seconds).
    for (const [i, context] of contexts.entries()) {
      await expect
        .poll(
          async () => {
            const mine = await context.request.post(`http://127.0.0.1:${TO_B}/api/boards/mine`, {
              headers: { accept: "application/json", origin: `http://127.0.0.1:${TO_B}` },
            });
            const boards: { line: { matches: number } }[] = mine.status() === 200 ? await mine.json() : [];
            return boards.filter((b) => b.line.matches > 0).map((b) => b.line.matches);
          },
          { message: `${names[i]}'s boards of totals`, timeout: 30_000 },
        )
        .toEqual(expect.arrayContaining([1]));
      const mine = await context.request.post(`http://127.0.0.1:${TO_B}/api/boards/mine`, {
        headers: { accept: "application/json", origin: `http://127.0.0.1:${TO_B}` },
      });
      const boards: { line: { matches: number } }[] = await mine.json();
      expect(boards.filter((b) => b.line.matches > 1), `${names[i]}: no board counted the match twice`).toEqual([]);
    }
    await Promise.all(contexts.map((c) => c.close()));
  } finally {
    first.kill();
    second.kill();
    for (const server of balancers) server.close();
  }
});
