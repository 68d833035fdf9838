((pkg, js, wasm, link, chunks) => {
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
	// The split bundle: its link module and the chunks of this page's lazy islands, fetched
	// beside the wasm instead of after it (the link module fetches the same addresses later).
	if (link) import(`${pkg}/${link}`).catch(() => {});
	const wanted = new Set(islands.flatMap((el) => chunks[el.dataset.component.replace(/_\d+$/, "")] || []));
	for (const file of wanted) {
		const preload = Object.assign(document.createElement("link"), { rel: "preload", as: "fetch", crossOrigin: "anonymous", href: `${pkg}/${file}` });
		document.head.append(preload);
	}
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
