#!/usr/bin/env bash
# npm run check:lighthouse [-- BASE_URL [RESULTS_PATH]]: Lighthouse's performance score and Core Web
# Vitals of the home page and a results page, desktop and mobile, in Debian's Chromium. Serve a
# production build first (with `npm start` running for the API):
#   VITE_SUPABASE_URL=http://127.0.0.1:54321 VITE_SUPABASE_ANON_KEY=<anon key> npx vite build --outDir /tmp/lhdist
#   npx vite preview --outDir /tmp/lhdist --port 4173
set -euo pipefail
cd "$(dirname "$0")/../.."
base="${1:-http://localhost:4173}"
results="${2:-/search/09175550142}"
out="$(mktemp -d)"
export CHROME_PATH="${CHROME_PATH:-/usr/bin/chromium}"
for page in "home|$base/" "results|$base$results"; do
  name=${page%%|*}; url=${page#*|}
  for form in desktop mobile; do
    preset=(); [ "$form" = desktop ] && preset=(--preset=desktop)
    npx lighthouse "$url" "${preset[@]}" --only-categories=performance --output=json --output-path="$out/$name-$form.json" \
      --chrome-flags="--headless=new --no-sandbox" --quiet
    node -e "const r=require(process.argv[1]);const a=r.audits;const v=(k)=>a[k].displayValue;console.log(process.argv[2].padEnd(16), String(Math.round(r.categories.performance.score*100)).padStart(3), 'FCP', v('first-contentful-paint'), 'LCP', v('largest-contentful-paint'), 'TBT', v('total-blocking-time'), 'CLS', v('cumulative-layout-shift'), 'SI', v('speed-index'))" "$out/$name-$form.json" "$name $form"
  done
done
echo "Reports: $out"
