((pkg, name, wasm) => {
	const app = document.querySelector(".app");
	const ready = () => app && app.setAttribute("data-hydrated", "true");
	const islands = [...document.querySelectorAll("leptos-island")]
		.filter((el) => !el.parentElement.closest("leptos-island"));
	if (islands.length === 0) return ready();
	const bytes = fetch(`${pkg}/${wasm}.wasm`);
	import(`${pkg}/${name}.js`)
		.then((mod) => mod.default({ module_or_path: bytes }).then(async () => {
			mod.hydrate();
			for (const el of islands) {
				const wake = mod[el.dataset.component];
				if (wake) await wake(el);
			}
			ready();
		}));
});
