// Browser tests: Debian's Chromium (never a downloaded browser), two projects — with JavaScript
// (hydrated app) and without it (server rendering and plain links/forms alone).
//
// Two server instances share one table, as they would behind a load balancer: the engine runs
// alone (`udd-server engine`, or Amazon DynamoDB Local when UDD_E2E_DYNAMODB_ENDPOINT is set),
// and both instances reach it by endpoint URL. Specs use the first instance by default and
// `SECOND_INSTANCE` to put a player on the other.
import { defineConfig } from "@playwright/test";
import * as path from "node:path";
import { randomBytes } from "node:crypto";
import { FIRST_PORT, SECOND_PORT } from "./tests/fixtures/instances";

const root = path.resolve(__dirname, "..");
const server = process.env.UDD_SERVER ?? path.join(root, "target/release/udd-server");
const enginePort = FIRST_PORT + 2;
// The site the instances serve: `UDD_E2E_SITE` runs a spec against another packaged build (with
// `UDD_E2E_PORT`, beside a suite already running), each engine with a data directory of its own.
const site = process.env.UDD_E2E_SITE ?? "target/site";
const engineData = `target/e2e-data-${enginePort}`;
const endpoint = process.env.UDD_E2E_DYNAMODB_ENDPOINT ?? `http://127.0.0.1:${enginePort}`;
// The shared engine answers only clients with its key (DynamoDB Local ignores it). Chosen once
// by the runner and kept in its environment, which the workers inherit, so a spec can run an
// operator command against the same engine (fixtures/operator.ts).
const engineKey = (process.env.UDD_E2E_ENGINE_KEY ??= randomBytes(16).toString("hex").toUpperCase());
process.env.UDD_E2E_ENDPOINT = endpoint;
process.env.UDD_E2E_SERVER = server;

const instance = (port: number) => ({
  command: `exec "${server}"`,
  cwd: root,
  url: `http://127.0.0.1:${port}/healthz`,
  reuseExistingServer: false,
  timeout: 60_000,
  stdout: "ignore" as const,
  stderr: "pipe" as const,
  env: {
    LEPTOS_SITE_ADDR: `127.0.0.1:${port}`,
    LEPTOS_OUTPUT_NAME: "udd",
    LEPTOS_SITE_ROOT: site,
    LEPTOS_SITE_PKG_DIR: "pkg",
    LEPTOS_ENV: "PROD",
    UDD_DYNAMODB_ENDPOINT: endpoint,
    UDD_ENGINE_KEY: engineKey,
    // As behind a proxy: each test's contexts send their own X-Forwarded-For (fixtures/test.ts).
    UDD_TRUSTED_PROXIES: "127.0.0.1",
    // UDD_E2E_LOG=app=debug shows every DynamoDB call and refusal in the test output.
    RUST_LOG: process.env.UDD_E2E_LOG ?? "warn",
  },
});

const engine = {
  command: `rm -rf "${root}/${engineData}" && exec "${server}" engine --listen 127.0.0.1:${enginePort}`,
  cwd: root,
  port: enginePort,
  reuseExistingServer: false,
  timeout: 60_000,
  stdout: "ignore" as const,
  stderr: "pipe" as const,
  env: { UDD_DATA_DIR: engineData, UDD_ENGINE_KEY: engineKey, RUST_LOG: "warn" },
};

export default defineConfig({
  testDir: "./tests",
  timeout: 30_000,
  expect: { timeout: 5_000 },
  fullyParallel: true,
  // Two at a time on 2 cores; `./udd test`, which records no traces, runs three
  // (UDD_E2E_WORKERS): without traces the specs leave about 40 % of the cores idle, waiting on
  // the game's clock.
  workers: Number(process.env.UDD_E2E_WORKERS ?? 2),
  retries: 0,
  forbidOnly: !!process.env.CI,
  reporter: [["list"]],
  use: {
    baseURL: `http://127.0.0.1:${FIRST_PORT}`,
    // A trace of every test, kept when it fails (`npx playwright show-trace`). `./udd test` turns
    // it off (UDD_E2E_TRACE=off): recording costs CPU on every action of every test, and a CI
    // machine's traces are never read; run the failing spec again to get one.
    trace: (process.env.UDD_E2E_TRACE as "off" | "on" | "retain-on-failure" | undefined) ?? "retain-on-failure",
    launchOptions: {
      executablePath: process.env.UDD_CHROMIUM ?? "/usr/bin/chromium",
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1",
      ],
    },
  },
  projects: [
    { name: "js", use: { javaScriptEnabled: true }, testIgnore: /reveal_spread|time_to_tap|instance_killed|cross_instance|audience|seat_follows|room_second_look/ },
    {
      name: "no-js",
      use: { javaScriptEnabled: false },
      // Specs about what hydration adds cannot apply without JavaScript.
      testIgnore: /hydrat.*\.spec\.ts/,
    },
    {
      // An instance killed mid-match: it starts two more servers and three browsers of its own,
      // so it runs after the others rather than slowing their matches down on two cores.
      name: "faults",
      use: { javaScriptEnabled: true },
      testMatch: /instance_killed/,
      dependencies: ["js", "no-js"],
    },
    {
      // A timing measurement: it runs alone, after the others, so that the browsers of other
      // specs do not share the machine's two cores with it.
      name: "timing",
      use: { javaScriptEnabled: true },
      testMatch: /reveal_spread|time_to_tap/,
      dependencies: ["js", "no-js", "faults"],
    },
    {
      // Another timing measurement, alone after the first.
      name: "timing-cross",
      use: { javaScriptEnabled: true },
      testMatch: /cross_instance/,
      dependencies: ["timing"],
    },
    {
      // The big screen with an audience asserts the screen's spread behind the phones: alone,
      // after the other timings.
      name: "timing-audience",
      use: { javaScriptEnabled: true },
      testMatch: /audience/,
      dependencies: ["timing-cross"],
    },
    {
      // Four contexts, one of them offline for 10 s, two instances: alone at the end, so that
      // its browsers do not crowd the timed specs on two cores.
      name: "seat",
      use: { javaScriptEnabled: true },
      testMatch: /seat_follows/,
      dependencies: ["timing-audience"],
    },
    {
      // Sixteen pages at once (twelve players, two big screens, an audience member) and a
      // visitor who must join inside a 4.5 s countdown: beside other specs' browsers on two cores,
      // a page drew a round's thing after its window had closed. Alone at the end, one test at a
      // time.
      name: "second-look",
      use: { javaScriptEnabled: true },
      testMatch: /room_second_look/,
      fullyParallel: false,
      dependencies: ["seat"],
    },
  ],
  // Started in order: the engine, then the instances (the first creates the table and seeds it).
  webServer: [
    ...(process.env.UDD_E2E_DYNAMODB_ENDPOINT ? [] : [engine]),
    instance(FIRST_PORT),
    instance(SECOND_PORT),
  ],
});
