#!/bin/bash
# Usage: test/bench/sandbox-upload.sh [repo root] [label]: starts that tree's sandbox and uploads 1 GiB
# (a sparse file of zeros) three times with curl -F (v2 create) and three times with curl -T (v1 pre-signed PUT).
set -euo pipefail
root=${1:-$(cd "$(dirname "$0")/../.." && pwd)}; label=${2:-now}
f=${TMPDIR:-/tmp}/dubdesk-bench-1g.bin; [ -f $f ] || truncate -s 1G $f
port=18$((RANDOM % 900 + 100))
node $root/electron/cli/dubdesk.mjs sandbox --port $port --pipeline-seconds 100000 > /dev/null 2>&1 &
pid=$!
trap "kill $pid" EXIT
for i in $(seq 50); do curl -s -o /dev/null http://127.0.0.1:$port/api/langs && break; sleep 0.2; done
for i in 1 2 3; do
  curl -sS -o /dev/null -w "$label curl -F  v2 create: %{http_code} %{speed_upload} B/s %{time_total}s\n" -H 'apikey: sandbox-key' -F dest_lang=es -F "file=@$f;type=video/mp4" http://127.0.0.1:$port/api/v2/dubs
done
for i in 1 2 3; do
  url=$(curl -sS -H 'apikey: sandbox-key' -H 'Content-Type: application/json' -d '{"fileType":"video/mp4","name":"big.mp4","source_lang":"auto","dest_lang":"fr"}' http://127.0.0.1:$port/api/v1/init-dub | node -pe 'JSON.parse(require("fs").readFileSync(0)).uploadUrl')
  curl -sS -o /dev/null -w "$label curl -T  v1 PUT:    %{http_code} %{speed_upload} B/s %{time_total}s\n" -T $f -H 'content-type: video/mp4' "$url"
done
