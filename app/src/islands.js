((pkg, js, wasm) => {
	// Moments in the player's own time zone and language (the server writes them in UTC).
	const local = new Intl.DateTimeFormat(document.documentElement.lang || undefined, { dateStyle: "medium", timeStyle: "short" });
	for (const t of document.querySelectorAll("time[data-local]")) {
		const at = new Date(t.dateTime);
		if (!isNaN(at)) { t.title = t.textContent; t.textContent = local.format(at); }
	}
	const app = document.querySelector(".app");
	const ready = () => app && app.setAttribute("data-hydrated", "true");
	const islands = [...document.querySelectorAll("leptos-island")]
		.filter((el) => !el.parentElement.closest("leptos-island"));
	if (islands.length === 0) return ready();
	const bytes = fetch(`${pkg}/${wasm}`);
	import(`${pkg}/${js}`)
		.then((mod) => mod.default({ module_or_path: bytes }).then(async () => {
			mod.hydrate();
			for (const el of islands) {
				const wake = mod[el.dataset.component];
				if (wake) await wake(el);
			}
			ready();
		}));
});
