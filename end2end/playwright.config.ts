// Browser tests: Debian's Chromium (never a downloaded browser), two projects — with JavaScript
// (hydrated app) and without it (server rendering and plain links/forms alone).
import { defineConfig } from "@playwright/test";
import * as path from "node:path";

const port = Number(process.env.UDD_E2E_PORT ?? 3100);
const root = path.resolve(__dirname, "..");
const server = process.env.UDD_SERVER ?? path.join(root, "target/release/udd-server");

export default defineConfig({
  testDir: "./tests",
  timeout: 30_000,
  expect: { timeout: 5_000 },
  fullyParallel: true,
  workers: 2,
  retries: 0,
  forbidOnly: !!process.env.CI,
  reporter: [["list"]],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    trace: "retain-on-failure",
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
    { name: "js", use: { javaScriptEnabled: true } },
    {
      name: "no-js",
      use: { javaScriptEnabled: false },
      // Specs about what hydration adds cannot apply without JavaScript.
      testIgnore: /hydrat.*\.spec\.ts/,
    },
  ],
  webServer: {
    command: `rm -rf "${root}/target/e2e-data" && exec "${server}"`,
    cwd: root,
    url: `http://127.0.0.1:${port}/healthz`,
    reuseExistingServer: false,
    timeout: 60_000,
    stdout: "ignore",
    stderr: "pipe",
    env: {
      LEPTOS_SITE_ADDR: `127.0.0.1:${port}`,
      LEPTOS_OUTPUT_NAME: "udd",
      LEPTOS_SITE_ROOT: "target/site",
      LEPTOS_SITE_PKG_DIR: "pkg",
      LEPTOS_ENV: "PROD",
      UDD_DATA_DIR: "target/e2e-data",
      RUST_LOG: "warn",
      // Set by `./udd test` to run the pages against Amazon DynamoDB Local as well.
      ...(process.env.UDD_E2E_DYNAMODB_ENDPOINT
        ? { UDD_DYNAMODB_ENDPOINT: process.env.UDD_E2E_DYNAMODB_ENDPOINT }
        : {}),
    },
  },
});
