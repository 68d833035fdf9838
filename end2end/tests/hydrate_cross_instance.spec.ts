// A room's page on one server instance hears changes made through another in well under a
// second: the instance a change went through tells the others at once (live/peers.rs), so
// nothing waits for a poll. The host's page is served by the first instance; 21 changes (7
// joins, 7 settings, 7 kicks) are made through the second, each timed from its answer to the
// moment the host's page shows it, by a MutationObserver in the page (the same machine's clock;
// not Playwright's `expect`, whose retries at 100, 250, 500 and 1,000 ms would add their own
// wait). It runs in the timing project, alone, after the others.
import { request as apiRequest, type APIRequestContext } from "@playwright/test";
import { expect, test } from "./fixtures/test";
import { HomePage } from "./fixtures/home_page";
import { FIRST_INSTANCE, SECOND_INSTANCE } from "./fixtures/instances";
import { RoomPage } from "./fixtures/room_page";

const ROUNDS_OF_CHANGES = 7;
/** The target: a change seen on the other instance within 300 ms at p95. */
const P95_LIMIT_MS = 300;

test("changes made through one instance show on another's page within 300 ms (p95)", async ({ browser }) => {
  test.setTimeout(120_000);
  const context = await browser.newContext({ baseURL: FIRST_INSTANCE });
  const page = await context.newPage();
  const home = new HomePage(page);
  await home.goto();
  await home.createRoom("Host", "Peacock");
  const host = new RoomPage(page);
  const code = await host.roomCode();
  await host.waitForHydration();

  // In the page: when each player's name comes and goes, and when the settings line changes.
  await page.evaluate(() => {
    type Mark = { what: string; at: number };
    const w = window as unknown as { __marks: Mark[] };
    w.__marks = [];
    let names = new Set<string>();
    let settings = "";
    const look = () => {
      const at = performance.timeOrigin + performance.now();
      const now = new Set(
        Array.from(document.querySelectorAll("[data-testid=player] .nickname")).map((e) => e.textContent ?? ""),
      );
      for (const n of now) if (!names.has(n)) w.__marks.push({ what: `in:${n}`, at });
      for (const n of names) if (!now.has(n)) w.__marks.push({ what: `out:${n}`, at });
      names = now;
      const line = document.querySelector("[data-testid=settings-summary]")?.textContent ?? "";
      if (line !== settings) w.__marks.push({ what: `settings:${line}`, at });
      settings = line;
    };
    look();
    new MutationObserver(look).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
  const marks = async () => page.evaluate(() => (window as unknown as { __marks: { what: string; at: number }[] }).__marks);
  // From the change's answer to the page showing it; the page may show it before the test has
  // read the answer (the news is that quick), which counts as 0. Marks from before the change
  // was sent are not it.
  const shownAfter = async (what: (mark: string) => boolean, { sent, answered }: Timing): Promise<number> => {
    const first = async () => (await marks()).find((m) => what(m.what) && m.at >= sent);
    await expect.poll(async () => (await first()) !== undefined, { timeout: 5_000 }).toBe(true);
    return Math.max(0, Math.round((await first())!.at - answered));
  };

  // The host, through the second instance: their session cookie, sent as a form post would be.
  const cookie = (await context.cookies()).map((c) => `${c.name}=${c.value}`).join("; ");
  const hostApi = await apiRequest.newContext({ baseURL: SECOND_INSTANCE });
  type Timing = { sent: number; answered: number };
  const post = async (api: APIRequestContext, path: string, form: Record<string, string>, extra: Record<string, string> = {}): Promise<Timing> => {
    const sent = Date.now();
    const response = await api.post(path, {
      form,
      headers: { origin: SECOND_INSTANCE, accept: "application/json", ...extra },
    });
    const answered = Date.now();
    expect(response.status(), `${path}: ${await response.text()}`).toBe(200);
    return { sent, answered };
  };
  const pause = () => new Promise((r) => setTimeout(r, 150 + Math.random() * 300));
  const latencies: { change: string; ms: number }[] = [];

  for (let i = 0; i < ROUNDS_OF_CHANGES; i++) {
    // A guest joins through the second instance (each from an address of their own).
    const name = `Guest${i}`;
    const guest = await apiRequest.newContext({ baseURL: SECOND_INSTANCE });
    await pause();
    let answered = await post(guest, "/api/rooms/join", { code, name }, { "x-forwarded-for": `10.8.0.${i + 1}` });
    latencies.push({ change: `join ${name}`, ms: await shownAfter((m) => m === `in:${name}`, answered) });

    // The host changes the room's size.
    const max = String(i % 2 === 0 ? 12 : 10);
    await pause();
    answered = await post(hostApi, "/api/rooms/settings", {
      code,
      "settings[max_players]": max,
      "settings[rounds]": "10",
      "settings[window_ms]": "3000",
      "settings[public]": "false",
    }, { cookie });
    latencies.push({ change: `settings ${max}`, ms: await shownAfter((m) => m.startsWith("settings:") && m.includes(`up to ${max} players`), answered) });

    // And removes the guest: their id from the host's page, as the kick button carries it.
    const id = await page
      .getByTestId("player")
      .filter({ hasText: name })
      .locator("input[name=player]")
      .first()
      .inputValue();
    await pause();
    answered = await post(hostApi, "/api/rooms/kick", { code, player: id }, { cookie });
    latencies.push({ change: `kick ${name}`, ms: await shownAfter((m) => m === `out:${name}`, answered) });
    await guest.dispose();
  }
  await hostApi.dispose();

  const sorted = latencies.map((l) => l.ms).sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.ceil(q * sorted.length) - 1];
  console.log(
    `cross-instance changes (${sorted.length}), answer to shown on the other instance's page: ` +
      `p50 ${at(0.5)} ms, p95 ${at(0.95)} ms, max ${sorted[sorted.length - 1]} ms; ` +
      latencies.map((l) => `${l.change} ${l.ms}`).join(", "),
  );
  expect(sorted.length).toBeGreaterThanOrEqual(20);
  expect(at(0.95), "p95 of a change made through another instance, shown on this one").toBeLessThanOrEqual(P95_LIMIT_MS);
});
