// Times the reference converter (npm @adobe/helix-html2md) on the inputs that
// `cargo bench --bench ingest` writes, group by group, for comparison with siteops.
// Not part of CI. Usage:
//   mkdir -p /tmp/h2m && cd /tmp/h2m && npm i @adobe/helix-html2md
//   HTML2MD_MODULE=/tmp/h2m/node_modules/@adobe/helix-html2md/src/index.js \
//     node benches/html2md-reference.mjs target/ingest-bench
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const modulePath = process.env.HTML2MD_MODULE;
if (!modulePath) {
  console.error('set HTML2MD_MODULE to the path of @adobe/helix-html2md/src/index.js');
  process.exit(1);
}
const { html2md } = await import(pathToFileURL(modulePath).href);
const root = process.argv[2] ?? 'target/ingest-bench';
const log = { info() {}, debug() {}, warn() {}, error() {} };
const MIN_MS = 2000;

console.log(`${'group'.padEnd(16)} ${'pages'.padStart(6)} ${'KiB'.padStart(9)}  reference html2md`);
for (const group of readdirSync(root).sort()) {
  const dir = join(root, group);
  if (!statSync(dir).isDirectory()) continue;
  const pages = readdirSync(dir).filter((f) => f.endsWith('.html')).sort()
    .map((f) => readFileSync(join(dir, f), 'utf8'));
  const bytes = pages.reduce((n, p) => n + Buffer.byteLength(p), 0);
  const opts = { log, url: 'https://api.aem.live/org/sites/site/source/document.html', maxMetadataSize: 256000 };
  for (const page of pages) await html2md(page, opts); // warm up
  let passes = 0;
  const start = performance.now();
  while (performance.now() - start < MIN_MS || passes === 0) {
    for (const page of pages) await html2md(page, opts);
    passes += 1;
  }
  const secs = (performance.now() - start) / 1000 / passes;
  console.log(`${group.padEnd(16)} ${String(pages.length).padStart(6)} ${(bytes / 1024).toFixed(1).padStart(9)}  ${(pages.length / secs).toFixed(0).padStart(8)} p/s ${(bytes / secs / 1e6).toFixed(2).padStart(7)} MB/s`);
}
