// The pages as a phone feels them: Lighthouse's mobile preset (simulated slow 4G, 4x CPU
// slowdown) on Debian's Chromium, against a running server (`./udd bench` starts one). The
// rooms are made through the game's own API first: one in its lobby, one mid-match (30 rounds
// of 10 s: it is still in play while Lighthouse loads it), one finished.
//
//   node run.mjs http://127.0.0.1:3000 [runs]
//
// Prints one line a page (the median of `runs` runs, 1 by default): Performance, Total
// Blocking Time, the longest main-thread task, Time to Interactive, Cumulative Layout Shift,
// and the other three categories' scores. Numbers only: nothing here passes or fails.

import lighthouse from "lighthouse";
import * as chromeLauncher from "chrome-launcher";

const base = (process.argv[2] || "http://127.0.0.1:3000").replace(/\/$/, "");
const runs = Number(process.argv[3] || 1);

/** A phone's cookie jar and the game's form posts, as a page sends them. */
class Phone {
  cookie = "";
  async post(path, form) {
    const response = await fetch(base + path, {
      method: "POST",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        accept: "application/json",
        origin: base,
        ...(this.cookie ? { cookie: this.cookie } : {}),
      },
      body: new URLSearchParams(form).toString(),
    });
    const set = response.headers.get("set-cookie");
    if (set) this.cookie = set.split(";")[0];
    const text = await response.text();
    if (!response.ok) throw new Error(`${path}: ${response.status} ${text}`);
    return text ? JSON.parse(text) : null;
  }
}

/** A room of two with these settings, and its code. */
async function room(rounds, windowMs) {
  const host = new Phone();
  const code = await host.post("/api/rooms/create", { name: "Host" });
  await new Phone().post("/api/rooms/join", { code, name: "Asha" });
  await host.post("/api/rooms/settings", {
    code,
    "settings[max_players]": "8",
    "settings[rounds]": String(rounds),
    "settings[window_ms]": String(windowMs),
    "settings[public]": "false",
  });
  return { code, host };
}

async function state(host, code) {
  const lobby = await host.post("/api/rooms/lobby", { code });
  return JSON.stringify(lobby);
}

async function rooms() {
  const lobby = await room(3, 3000);
  const playing = await room(30, 10000);
  await playing.host.post("/api/rooms/start", { code: playing.code });
  const finished = await room(1, 1000);
  await finished.host.post("/api/rooms/start", { code: finished.code });
  // The round closes after its countdown, window and grace; the match ends a moment later.
  let over = false;
  for (let i = 0; i < 60 && !over; i++) {
    await new Promise((r) => setTimeout(r, 500));
    over = !(await state(finished.host, finished.code)).includes('"state":"playing"');
  }
  if (!over) console.log("(the finished room was still playing after 30 s)");
  return { lobby: lobby.code, playing: playing.code, finished: finished.code };
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)];
}

function figures(lhr) {
  const audit = (id) => lhr.audits[id]?.numericValue ?? NaN;
  const tasks = lhr.audits["long-tasks"]?.details?.items ?? [];
  const longest = tasks.reduce((most, t) => Math.max(most, t.duration ?? 0), 0);
  const score = (id) => Math.round((lhr.categories[id]?.score ?? NaN) * 100);
  return {
    performance: score("performance"),
    tbt: audit("total-blocking-time"),
    longest,
    tti: audit("interactive"),
    cls: audit("cumulative-layout-shift"),
    accessibility: score("accessibility"),
    practices: score("best-practices"),
    seo: score("seo"),
  };
}

const made = await rooms();
const pages = [
  ["home", "/"],
  ["things", "/things"],
  ["a board", "/lb/best/all/global"],
  ["the daily", "/daily"],
  ["room, lobby", `/r/${made.lobby}`],
  ["room, mid-match", `/r/${made.playing}`],
  ["room, finished", `/r/${made.finished}`],
];
const chrome = await chromeLauncher.launch({
  chromePath: process.env.CHROME_PATH || "/usr/bin/chromium",
  chromeFlags: ["--headless=new", "--no-sandbox", "--disable-gpu"],
});
try {
  console.log(
    "Lighthouse 12 mobile (slow 4G, 4x CPU), median of " +
      `${runs}: page | Performance | TBT ms | longest task ms | TTI ms | CLS | a11y, practices, SEO`,
  );
  for (const [name, path] of pages) {
    const each = [];
    for (let i = 0; i < runs; i++) {
      const { lhr } = await lighthouse(base + path, {
        port: chrome.port,
        output: "json",
        logLevel: "error",
        onlyCategories: ["performance", "accessibility", "best-practices", "seo"],
      });
      each.push(figures(lhr));
    }
    const m = (key) => median(each.map((f) => f[key]));
    console.log(
      `Lighthouse ${name} (${path.replace(/[A-Z0-9]{5}$/, "CODE")}): ${m("performance")} | ` +
        `${Math.round(m("tbt"))} | ${Math.round(m("longest"))} | ${Math.round(m("tti"))} | ` +
        `${m("cls").toFixed(3)} | ${m("accessibility")}, ${m("practices")}, ${m("seo")}`,
    );
  }
} finally {
  await chrome.kill();
}
