#!/usr/bin/env node
// The reference implementations over a batch of pages in one process, for `cargo xtask
// diff-fuzz`: each IN/NAME.html through helix-html2md (as shared/anchors/html2md.mjs runs it),
// then its markdown through helix-html-pipeline for https://www.example.com/NAME, the page
// and its .plain.html (as shared/anchors/md2html.mjs runs it). A page that fails writes
// NAME.error instead; the batch goes on.
//
//   node reference.mjs ANCHORS_DIR IN_DIR OUT_DIR NAME...
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const [anchors, inDir, outDir, ...names] = process.argv.slice(2);
const load = (p) => import(pathToFileURL(join(anchors, 'node_modules', p)).href);
const { html2md } = await load('@adobe/helix-html2md/src/index.js');
const { htmlPipe, PipelineRequest, PipelineState } = await load('@adobe/helix-html-pipeline/src/index.js');

const noop = () => {};
const log = { debug: noop, info: noop, warn: noop, error: noop, log: noop, trace: noop };
const HOST = 'www.example.com';
const ID = 'contentbus-id';

async function render(md, path, plain) {
  const state = new PipelineState({
    log,
    org: 'org',
    site: 'site',
    ref: 'main',
    partition: 'live',
    path: plain ? `${path === '/' ? '/index' : path}.plain.html` : path,
    config: { contentBusId: ID, owner: 'owner', repo: 'repo' },
    timer: { update: noop },
    s3Loader: null,
  });
  const key = `${ID}/live${state.info.resourcePath}`;
  state.s3Loader = {
    async getObject(bucket, k) {
      if (bucket === 'helix-content-bus' && k === key) return { status: 200, body: md, headers: new Map() };
      return { status: 404, body: '', headers: new Map() };
    },
    async headObject(bucket, k) { return this.getObject(bucket, k); },
  };
  const req = new PipelineRequest(new URL(`https://${HOST}${path}`), { headers: new Map([['host', HOST]]) });
  const res = await htmlPipe(state, req);
  if (res.status !== 200) throw new Error(`pipeline status ${res.status}`);
  return res.body;
}

mkdirSync(outDir, { recursive: true });
for (const name of names) {
  const out = (suffix, text) => writeFileSync(join(outDir, name + suffix), text);
  let md;
  try {
    md = await html2md(readFileSync(join(inDir, `${name}.html`), 'utf8'), {
      log, url: `https://${HOST}/${name}`, mediaHandler: null, unspreadLists: false,
    });
  } catch (e) {
    out('.error', `${e.name}: ${e.message}\n`);
    continue;
  }
  out('.md', md);
  for (const [suffix, plain] of [['.plain.html', true], ['.html', false]]) {
    try {
      out(suffix, await render(md, `/${name}`, plain));
    } catch (e) {
      out(`${suffix}.error`, `${e.message}\n`);
    }
  }
}
