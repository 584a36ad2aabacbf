#!/usr/bin/env bash
# Creates .venv with the pinned real tools the suite drives (test/python/requirements*.txt).
# Re-creates it only when a requirements file changed (a stamp holds their hash). pip reads the
# machine's own configuration; when that names local indexes (extra-index-url), the first becomes
# the index so that pip never waits on an index it cannot reach.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=.venv
stamp="$venv/.requirements.sha256"
want=$(cat test/python/requirements.txt test/python/requirements-nodeps.txt | sha256sum | cut -d' ' -f1)
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ] && [ -x "$venv/bin/python" ]; then
  exit 0
fi
rm -rf "$venv"
python3 -m venv "$venv"
index_args=()
extra=$(python3 -m pip config get global.extra-index-url 2>/dev/null || true)
if [ -n "$extra" ]; then
  read -r -a urls <<<"$extra"
  index_args+=(--index-url "${urls[0]}")
  for url in "${urls[@]:1}"; do index_args+=(--extra-index-url "$url"); done
fi
"$venv/bin/pip" install -qq --disable-pip-version-check "${index_args[@]}" -r test/python/requirements.txt
"$venv/bin/pip" install -qq --disable-pip-version-check --no-deps "${index_args[@]}" -r test/python/requirements-nodeps.txt
echo "$want" >"$stamp"
