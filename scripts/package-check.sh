#!/usr/bin/env bash
# Tests what users install (#21.8): packs every published package, installs the tarballs
# into a fresh project outside the repository (with each peer at the lowest version its
# range allows), then checks, per package:
#   - arethetypeswrong and publint: zero problems;
#   - import (ESM) and require (CommonJS) of every entry, the testkit's main one without vitest;
#   - tsc under node16 (ESM and CJS files), nodenext and bundler, skipLibCheck off;
#   - the client alone: a light install, no Node types, runs without Buffer;
#   - two examples (Express at the floor of its range, Fastify) started from the installed
#     packages, answering HTTP requests.
# Assumes `npm run build` has run. Prints a summary; exits non-zero on any problem.
# KEEP=1 keeps the temporary directory for a look.
set -uo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
FIXTURES="$ROOT/scripts/package-check"
BIN="$ROOT/node_modules/.bin"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/leadroute-package-check.XXXXXX")"
LOGS="$WORK/logs"
mkdir -p "$LOGS" "$WORK/tarballs" "$WORK/project" "$WORK/client-only"

PIDS=()
cleanup() {
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null; done
  if [[ "${KEEP:-0}" == 1 ]]; then echo "kept $WORK"; else rm -rf "$WORK"; fi
}
trap cleanup EXIT

PACKAGES=(packages/core packages/client packages/testkit adapters/memory adapters/express adapters/fastify
  adapters/postgres adapters/mongo adapters/s3 adapters/azure-blob adapters/smtp)

PASSED=()
FAILED=()
# step NAME COMMAND...: runs a check with its output in a log; on failure shows the log's end.
step() {
  local name="$1"
  shift
  local log="$LOGS/$(echo "$name" | tr -c 'A-Za-z0-9_.-' '_').log"
  if "$@" >"$log" 2>&1; then
    PASSED+=("$name")
    echo "ok   $name"
  else
    FAILED+=("$name")
    echo "FAIL $name"
    tail -n 60 "$log" | sed 's/^/     | /'
  fi
}

summary() {
  echo
  echo "package-check: ${#PASSED[@]} checks passed, ${#FAILED[@]} failed"
  for name in "${FAILED[@]}"; do echo "  failed: $name"; done
  [[ ${#FAILED[@]} -eq 0 ]]
}

name_of() { node -p "require('$ROOT/$1/package.json').name"; }

# 0. The build is there.
for dir in "${PACKAGES[@]}"; do
  if [[ ! -f "$ROOT/$dir/dist/index.js" || ! -f "$ROOT/$dir/dist/index.d.cts" ]]; then
    echo "FAIL $dir has no dist: run \`npm run build\` first"
    exit 1
  fi
done

# 1. Pack every package as npm would publish it.
pack() {
  local args=()
  for dir in "${PACKAGES[@]}"; do args+=(-w "$dir"); done
  (cd "$ROOT" && npm pack --pack-destination "$WORK/tarballs" "${args[@]}" --json) >"$WORK/pack.json"
}
step "npm pack (11 packages)" pack
TARBALLS=("$WORK"/tarballs/*.tgz)
if [[ ${#TARBALLS[@]} -ne ${#PACKAGES[@]} ]]; then
  echo "FAIL expected ${#PACKAGES[@]} tarballs, got ${#TARBALLS[@]}"
  exit 1
fi

# 2. What is in each tarball: no sources named, LICENSE and README present.
contents() {
  node -e '
    const packs = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
    let bad = 0;
    for (const p of packs) {
      const files = p.files.map((f) => f.path);
      const pkg = JSON.parse(require("child_process").execFileSync("tar", ["-xOzf", process.argv[2] + "/" + p.filename, "package/package.json"], { encoding: "utf8" }));
      const problems = [];
      if (!files.includes("LICENSE")) problems.push("no LICENSE");
      if (!files.includes("README.md")) problems.push("no README.md");
      if (JSON.stringify(pkg.exports ?? {}).includes("src/")) problems.push("exports name sources");
      if (!pkg.engines?.node) problems.push("no engines.node");
      if (files.some((f) => f.startsWith("src/"))) problems.push("ships src/");
      console.log(`${problems.length ? "FAIL" : "ok  "} ${p.name}: ${files.length} files, ${p.size} bytes${problems.length ? ": " + problems.join(", ") : ""}`);
      bad += problems.length;
    }
    process.exit(bad ? 1 : 0);
  ' "$WORK/pack.json" "$WORK/tarballs"
}
step "tarball contents (LICENSE, README, engines, no sources)" contents

# 3. arethetypeswrong and publint on each tarball. attw's default (strict) profile covers
#    node10 too; node10 cannot see subpath exports, so the testkit's ./suites entry is
#    checked under the node16 profile (node16 from ESM and CJS, and bundler) instead.
for tgz in "${TARBALLS[@]}"; do
  base="$(basename "$tgz" .tgz)"
  if [[ "$base" == leadroute-testkit-* ]]; then
    step "attw $base (./suites: node16 profile)" "$BIN/attw" "$tgz" --profile node16 --format ascii
    step "attw $base (main entry: all resolutions)" "$BIN/attw" "$tgz" --exclude-entrypoints ./suites --format ascii
  else
    step "attw $base" "$BIN/attw" "$tgz" --format ascii
  fi
  # publint exits 0 on warnings and suggestions; "zero problems" means it says "All good!".
  publint_clean() { "$BIN/publint" run "$1" --strict --level suggestion && "$BIN/publint" run "$1" --level suggestion | grep -q 'All good!'; }
  step "publint $base" publint_clean "$tgz"
done

# 4. A fresh project outside the repository: the tarballs, and each peer at the lowest
#    version its range allows (so the floors we declare are the versions we test).
install_project() {
  node -e '
    const fs = require("fs");
    // semver comes with @arethetypeswrong/cli, a root devDependency.
    const semver = require(require.resolve("semver", { paths: [process.argv[1] + "/node_modules/@arethetypeswrong/cli"] }));
    const root = require(process.argv[1] + "/package.json");
    const peers = {};
    for (const dir of process.argv.slice(3)) {
      const pkg = require(process.argv[1] + "/" + dir + "/package.json");
      for (const [name, range] of Object.entries(pkg.peerDependencies ?? {})) {
        if (name.startsWith("@leadroute/")) continue;
        const floor = semver.minVersion(range).version;
        if (!peers[name] || semver.lt(floor, peers[name])) peers[name] = floor;
      }
    }
    // Node types for the Node packages: the version the repository develops with.
    peers["@types/node"] = root.devDependencies["@types/node"];
    fs.writeFileSync(process.argv[2] + "/package.json", JSON.stringify({ name: "leadroute-package-check", private: true, type: "module" }, null, 2));
    fs.writeFileSync(process.argv[2] + "/peers.txt", Object.entries(peers).map(([n, v]) => `${n}@${v}`).join("\n") + "\n");
  ' "$ROOT" "$WORK/project" "${PACKAGES[@]}"
  echo "peers at their floors: $(tr '\n' ' ' <"$WORK/project/peers.txt")"
  # shellcheck disable=SC2046
  (cd "$WORK/project" && npm install --no-audit --no-fund --save-exact "${TARBALLS[@]}" $(cat peers.txt))
}
step "npm install tarballs + peers at their floors (outside the repo)" install_project
cp "$FIXTURES"/* "$WORK/project/"

NAMES=()
for dir in "${PACKAGES[@]}"; do NAMES+=("$(name_of "$dir")"); done

# 5. Import from ESM (every entry, testkit/suites with vitest present) and require from CommonJS.
step "import (ESM) of 11 packages + @leadroute/testkit/suites" bash -c "cd '$WORK/project' && node imports.mjs ${NAMES[*]} @leadroute/testkit/suites"
step "require (CommonJS) of 11 packages, testkit without vitest" bash -c "cd '$WORK/project' && node requires.cjs ${NAMES[*]}"
# Core carries the date-fns functions it uses in its build (tsup.bundled.ts): on Node 22, loading them from the
# package took 1.0-1.1 s and about 200 MB of RSS per import. Nothing installs date-fns, so the imports above prove
# that core loads none of it.
step "date-fns is bundled in core, not installed" bash -c "cd '$WORK/project' && ! npm ls date-fns --all --parseable | grep -q ."

# 6. Types, skipLibCheck off, as users compile.
typecheck() {
  local label="$1" module="$2" resolution="$3" extra="${EXTRA_COMPILER_OPTIONS:-}"
  shift 3
  local files
  files="$(printf '"%s",' "$@")"
  cat >"$WORK/project/tsconfig.$label.json" <<EOF
{
  "compilerOptions": {
    "module": "$module", "moduleResolution": "$resolution", "target": "ES2022", "lib": ["ES2023"],
    "strict": true, "skipLibCheck": false, "noEmit": true, "types": ["node"]$extra
  },
  "files": [${files%,}]
}
EOF
  (cd "$WORK/project" && "$BIN/tsc" -p "tsconfig.$label.json" --listFilesOnly | wc -l | sed 's/$/ files checked/' && "$BIN/tsc" -p "tsconfig.$label.json")
}
cp "$WORK/project/types.ts" "$WORK/project/types-esm.mts"
cp "$WORK/project/types.ts" "$WORK/project/types-cjs.cts"
step "tsc --module node16 (ESM .mts and CommonJS .cts), skipLibCheck off" typecheck node16 node16 node16 types-esm.mts types-cjs.cts
step "tsc --module nodenext (ESM .mts and CommonJS .cts), skipLibCheck off" typecheck nodenext nodenext nodenext types-esm.mts types-cjs.cts
step "tsc --moduleResolution bundler, skipLibCheck off" typecheck bundler esnext bundler types.ts
# Hosts that compile with exactOptionalPropertyTypes read the same declarations (a check type of the library's own
# once went into them and failed there).
EXTRA_COMPILER_OPTIONS=', "exactOptionalPropertyTypes": true' \
  step "tsc --moduleResolution bundler with exactOptionalPropertyTypes, skipLibCheck off" typecheck exact esnext bundler types.ts

# 7. The client alone, as a browser or edge app installs it.
client_only() {
  cd "$WORK/client-only" || return 1
  echo '{ "name": "client-only", "private": true, "type": "module" }' >package.json
  npm install --no-audit --no-fund "$WORK"/tarballs/leadroute-client-*.tgz || return 1
  # Expected: the client, neverthrow, and what neverthrow itself lists as optional (a rollup binary), and
  # @sinclair/typebox, which the client's declarations name (its parameter and answer types are the
  # schemas' types) and its JavaScript never loads.
  local installed extra
  installed="$(npm ls --all --parseable | tail -n +2 | sed 's#.*/node_modules/##')"
  echo "installed: $(echo "$installed" | tr '\n' ' ')($(du -sk node_modules | cut -f1) KB)"
  extra="$(echo "$installed" | grep -vxE '@leadroute/client|neverthrow|@sinclair/typebox|@rollup/rollup-[a-z0-9-]+')"
  [[ -z "$extra" ]] || { echo "a client-only install pulls more: $extra"; return 1; }
  if grep -l 'Buffer\|@leadroute/core' node_modules/@leadroute/client/dist/*.{js,cjs,d.ts,d.cts}; then echo "client dist mentions Buffer or @leadroute/core"; return 1; fi
  if grep -l 'typebox' node_modules/@leadroute/client/dist/*.{js,cjs}; then echo "client JavaScript loads TypeBox"; return 1; fi
  cp "$FIXTURES/client-browser.ts" "$FIXTURES/client-browser.mjs" .
  cat >tsconfig.json <<'EOF'
{
  "compilerOptions": {
    "module": "esnext", "moduleResolution": "bundler", "target": "ES2022", "lib": ["ES2022", "DOM"],
    "strict": true, "skipLibCheck": false, "noEmit": true, "types": []
  },
  "files": ["client-browser.ts"]
}
EOF
  "$BIN/tsc" -p tsconfig.json && node client-browser.mjs
}
step "client alone: only neverthrow installed beside it, no Node types, no Buffer" client_only

# 8. Examples from the installed packages (no tsconfig paths, no sources): each must answer HTTP.
run_example() {
  local label="$1" source="$2" path="$3"
  local dir="$WORK/project/examples/$label"
  mkdir -p "$dir" && cp "$ROOT/$source" "$dir/main.ts"
  local out="$WORK/project/examples/$label.out"
  (cd "$WORK/project" && PORT=0 LEADROUTE_API_KEY=package-check-key-0123456789 exec node --import "file://$ROOT/node_modules/tsx/dist/loader.mjs" "$dir/main.ts") >"$out" 2>&1 &
  local pid=$!
  PIDS+=("$pid")
  local url=""
  for _ in $(seq 1 300); do
    url="$(grep -oE 'listening on http://[^ ]+' "$out" | head -1 | sed 's/listening on //')"
    [[ -n "$url" ]] && break
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  cat "$out"
  if [[ -z "$url" ]]; then kill "$pid" 2>/dev/null; return 1; fi
  local status
  status="$(curl -s -o "$WORK/project/examples/$label.body" -w '%{http_code}' -u API:package-check-key-0123456789 "$url$path")"
  echo "GET $url$path -> $status: $(head -c 200 "$WORK/project/examples/$label.body")"
  kill "$pid" 2>/dev/null
  [[ "$status" == 200 ]]
}
EXPRESS_FLOOR="$(grep '^express@' "$WORK/project/peers.txt" | cut -d@ -f2)"
step "example embedded-express on express@$EXPRESS_FLOOR from the tarballs answers GET /leadroute/entities" \
  run_example embedded-express examples/embedded-express/src/main.ts /leadroute/entities
step "example fastify-server from the tarballs answers GET /api/entities" run_example fastify-server examples/fastify-server/src/main.ts /api/entities

summary
