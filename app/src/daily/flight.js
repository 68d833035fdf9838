// The daily flight in the browser, inlined on /daily only (with the page's nonce): no wasm, so
// no island page's bundle pays for it. A countdown, each thing when its time comes (asked of the
// server, which sends nothing before its reveal: `daily/thing` answers `emoji|name|call`) with
// its call ("Kauwa udd!") and the window's timer bar, as a room shows it, the Udd! button
// (Space or Enter too; greyed but while a thing is shown, pressed once tapped) and the tap's
// counted reaction; the page is loaded again once the
// flight is over. The result's share button copies the text its text box shows.
const air = document.getElementById("daily-air");
const post = async (path, fields) => {
  const r = await fetch(path, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Accept: "application/json" },
    body: new URLSearchParams(fields),
  });
  const body = await r.json().catch(() => null);
  if (!r.ok) throw new Error(body && typeof body === "object" ? Object.values(body)[0] : String(body));
  return body;
};
if (air) {
  const d = air.dataset;
  const [started, window_, lead, slot, rounds] = [d.started, d.window, d.lead, d.slot, d.rounds].map(Number);
  const offset = Number(d.server) - Date.now();
  // Three pings, each sending back the server's last answer: the server times this page's round
  // trip itself, and believes a tap's reaction only that far under its own measure (capped).
  (async () => {
    let echo = null;
    for (let i = 0; i < 3; i++) echo = await post("/api/time", echo === null ? {} : { echo }).catch(() => null);
  })();
  const reveal = (i) => started + lead + i * slot;
  const over = reveal(rounds - 1) + window_ + 600;
  const $ = (id) => document.getElementById(id);
  const [label, shownEl, big, call, name, note, udd, timerEl] = ["label", "shown", "big", "call", "name", "note", "udd", "timer"].map((id) => $("daily-" + id));
  let asked = 0, shown = null, shownAt = 0, tapped = -1;
  const tick = () => {
    const t = Date.now() + offset;
    if (asked < rounds && t >= reveal(asked)) {
      const i = asked++;
      // A page back late skips the rounds whose windows are over.
      if (t <= reveal(i) + window_) {
        post("/api/daily/thing", { started_ms: started, round: i }).then((thing) => {
          const [emoji, nm, said] = String(thing).split("|");
          shown = { i, at: reveal(i), emoji, nm, said };
          shownAt = performance.now();
          note.textContent = "";
        }, (e) => (note.textContent = e.message));
      }
    }
    if (asked >= rounds && t >= over) {
      clearInterval(timer);
      location.reload();
      return;
    }
    const open = shown && t <= shown.at + window_;
    let next = over;
    for (let i = rounds - 1; i >= 0; i--) if (reveal(i) > t) next = reveal(i);
    label.textContent = open ? d.round.replace("{n}", shown.i + 1) : d.next;
    big.textContent = open ? shown.emoji : Math.ceil(Math.max(0, next - t) / 1000);
    name.textContent = open ? shown.nm : "";
    call.textContent = open ? shown.said || "" : "";
    shownEl.dataset.testid = open ? "flight-thing" : "flight-countdown";
    shownEl.className = open ? "shown-thing" : "count-num";
    timerEl.hidden = !open;
    if (open) timerEl.firstChild.style.width = `${(100 * Math.max(0, shown.at + window_ - t)) / window_}%`;
    udd.disabled = !open;
    udd.classList.toggle("pressed", Boolean(open && tapped === shown.i));
  };
  const tap = () => {
    if (!shown || Date.now() + offset > shown.at + window_ || tapped === shown.i) return;
    tapped = shown.i;
    const reaction = Math.max(0, Math.round(performance.now() - shownAt));
    navigator.vibrate?.(30);
    post("/api/daily/tap", { started_ms: started, reveal_ms: shown.at, reaction_ms: reaction }).then(
      (ms) => (note.textContent = `Udd! ${ms} ms`),
      (e) => (note.textContent = e.message),
    );
  };
  udd.hidden = false;
  $("daily-stage").hidden = false;
  udd.addEventListener("click", tap);
  addEventListener("keydown", (e) => {
    if ((e.key === " " || e.key === "Enter") && !e.target.closest?.("a,input,textarea,select,summary,button:not(.udd)")) {
      e.preventDefault();
      tap();
    }
  });
  const timer = setInterval(tick, 100);
  tick();
}
for (const button of document.querySelectorAll("[data-share]")) {
  button.hidden = false;
  button.addEventListener("click", async () => {
    await navigator.clipboard.writeText(button.dataset.share);
    button.nextElementSibling.textContent = button.dataset.copied;
  });
}
