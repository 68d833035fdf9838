// The home page in Hindi: a browser that prefers Hindi (Accept-Language hi-IN) gets the page in
// Hindi, with or without JavaScript, and can open a room in Hindi; the top bar's toggle switches
// to English, which is remembered across pages and reloads, and back.
import { expect, test } from "./fixtures/test";
import { strings, text } from "./fixtures/strings";
import { HomePage } from "./fixtures/home_page";

test.use({ locale: "hi-IN" });

const hiCommon = strings("hi", "common");
const enCommon = strings("en", "common");
const hiRooms = strings("hi", "rooms");
const enRooms = strings("en", "rooms");

test("the home page is in Hindi for a Hindi browser, and the toggle's English is remembered", async ({ page }) => {
  await page.goto("/");
  await expect(page.locator("html")).toHaveAttribute("lang", "hi");
  const nav = page.getByRole("navigation", { name: text(hiCommon, "nav_label") });
  await expect(nav.getByRole("link", { name: text(hiCommon, "nav_boards") })).toBeVisible();
  await expect(nav.getByRole("link", { name: text(hiCommon, "nav_matches") })).toBeVisible();
  const create = page.getByTestId("create-room");
  await expect(create.getByRole("heading", { name: text(hiRooms, "home.open_heading") })).toBeVisible();
  await expect(create.getByLabel(text(hiRooms, "home.your_name"))).toBeVisible();
  await expect(create.getByRole("button", { name: text(hiRooms, "home.create") })).toBeVisible();
  await expect(page.getByText("Open a room", { exact: true })).toHaveCount(0);

  // The toggle offers English, named in English, and comes back to this page in English.
  const toggle = page.getByTestId("lang-toggle");
  await expect(toggle).toHaveText(text(hiCommon, "switch_to"));
  await toggle.click();
  await expect(page.locator("html")).toHaveAttribute("lang", "en");
  expect(new URL(page.url()).pathname).toBe("/");
  await expect(create.getByRole("heading", { name: text(enRooms, "home.open_heading") })).toBeVisible();
  await expect(page.getByTestId("lang-toggle")).toHaveText(text(enCommon, "switch_to"));

  // Remembered: a reload and another page stay English though the browser prefers Hindi.
  await page.reload();
  await expect(page.locator("html")).toHaveAttribute("lang", "en");
  await page.goto("/things");
  await expect(page.locator("html")).toHaveAttribute("lang", "en");
  await expect(page.getByRole("link", { name: text(enCommon, "nav_boards") })).toBeVisible();

  // And back to Hindi, on the page where the toggle was pressed.
  await page.getByTestId("lang-toggle").click();
  await expect(page.locator("html")).toHaveAttribute("lang", "hi");
  expect(new URL(page.url()).pathname).toBe("/things");
  await page.goto("/");
  await expect(page.locator("html")).toHaveAttribute("lang", "hi");
});

test("a room opened from the Hindi home page is in Hindi (its island hydrates in Hindi)", async ({ page, browser }, info) => {
  const errors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  await page.goto("/");
  const create = page.getByTestId("create-room");
  await create.getByLabel(text(hiRooms, "home.your_name")).fill("आशा");
  await create.getByRole("button", { name: text(hiRooms, "home.create") }).click();
  await page.waitForURL(/\/r\/[A-Z0-9]{5}$/);
  await expect(page.locator("html")).toHaveAttribute("lang", "hi");
  if (info.project.use.javaScriptEnabled !== false) {
    // The island read its language from <html lang> and drew the same Hindi the server did.
    await expect(page.locator(".app")).toHaveAttribute("data-hydrated", "true");
  }
  const lobby = page.getByTestId("lobby");
  await expect(lobby.getByText(text(hiRooms, "room.room_code"), { exact: true })).toBeVisible();
  await expect(lobby.getByText("आशा")).toBeVisible();
  await expect(lobby.getByText(text(enRooms, "room.room_code"), { exact: true })).toHaveCount(0);
  if (info.project.use.javaScriptEnabled === false) return;

  // A friend with an English browser joins: the island redraws the player list itself, in
  // Hindi, while the friend's page is in English.
  const friendContext = await browser.newContext({
    baseURL: info.project.use.baseURL,
    locale: "en-US",
    extraHTTPHeaders: { "X-Forwarded-For": "10.250.1.2" },
  });
  const friend = await friendContext.newPage();
  const code = new URL(page.url()).pathname.split("/").pop()!;
  const home = new HomePage(friend);
  await home.goto();
  await home.joinRoom(code, "Ravi");
  await expect(friend.locator("html")).toHaveAttribute("lang", "en");
  await expect(lobby.getByText("Ravi")).toBeVisible();
  const heading = text(hiRooms, "lobby.players_heading", { count: 2, max: "MAX" });
  const pattern = heading.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace("MAX", "\\d+");
  await expect(page.getByTestId("player-count")).toHaveText(new RegExp(`^${pattern}$`));
  expect(errors.filter((e) => /hydrat/i.test(e)), errors.join("\n")).toEqual([]);
  await friendContext.close();
});
