#!/usr/bin/env bash
# npm run check:lighthouse [-- BASE_URL [RESULTS_PATH]]: Lighthouse's performance score and Core Web
# Vitals of the home page and a results page, desktop and mobile, in Debian's Chromium. Serve a
# production build first (with `npm start` running for the API):
#   VITE_SUPABASE_URL=http://127.0.0.1:54321 VITE_SUPABASE_ANON_KEY=<anon key> npx vite build --outDir /tmp/lhdist
#   npx vite preview --outDir /tmp/lhdist --port 4173
# RUNS=3 (default) measures each page and form that many times and prints every run with the machine's
# load average (Lighthouse's simulated throttling scales with the CPU it gets, so a busy machine scores
# low) and then the median run by score. PAGES="home results" and FORMS="desktop mobile" (the defaults)
# pick what to measure, so the four measurements can be split over several quiet windows.
set -euo pipefail
cd "$(dirname "$0")/../.."
base="${1:-http://localhost:4173}"
results="${2:-/search/09175550142}"
runs="${RUNS:-3}"
out="$(mktemp -d)"
export CHROME_PATH="${CHROME_PATH:-/usr/bin/chromium}"
for page in "home|$base/" "results|$base$results"; do
  name=${page%%|*}; url=${page#*|}
  [[ " ${PAGES:-home results} " == *" $name "* ]] || continue
  for form in ${FORMS:-desktop mobile}; do
    preset=(); [ "$form" = desktop ] && preset=(--preset=desktop)
    for run in $(seq 1 "$runs"); do
      load=$(cut -d' ' -f1 /proc/loadavg)
      npx lighthouse "$url" "${preset[@]}" --only-categories=performance --output=json \
        --output-path="$out/$name-$form-$run.json" --chrome-flags="--headless=new --no-sandbox" --quiet
      node -e "const r=require(process.argv[1]);r.loadAverage=process.argv[2];require('fs').writeFileSync(process.argv[1],JSON.stringify(r))" "$out/$name-$form-$run.json" "$load"
    done
    node -e "
      const fs=require('fs');const [dir,name,form,runs]=process.argv.slice(1);
      const all=[];for(let i=1;i<=Number(runs);i++)all.push(JSON.parse(fs.readFileSync(dir+'/'+name+'-'+form+'-'+i+'.json','utf8')));
      const line=(r,tag)=>{const a=r.audits,v=(k)=>a[k].displayValue;return [(name+' '+form).padEnd(16),tag.padEnd(7),String(Math.round(r.categories.performance.score*100)).padStart(3),'FCP',v('first-contentful-paint'),'LCP',v('largest-contentful-paint'),'TBT',v('total-blocking-time'),'CLS',v('cumulative-layout-shift'),'SI',v('speed-index'),'load',r.loadAverage,'benchmarkIndex',r.environment.benchmarkIndex].join(' ')};
      all.forEach((r,i)=>console.log(line(r,'run '+(i+1))));
      const sorted=[...all].sort((x,y)=>x.categories.performance.score-y.categories.performance.score);
      console.log(line(sorted[Math.floor((sorted.length-1)/2)],'median'));
    " "$out" "$name" "$form" "$runs"
  done
done
echo "Reports: $out"
