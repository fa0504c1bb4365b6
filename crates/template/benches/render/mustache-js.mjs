// Times mustache.js 4.2 (the hosted worker's engine) on the inputs `cargo bench --bench
// render` writes, the same way: the template parsed once, then JSON.parse + render per run.
// Checks that the output equals ours byte for byte.
//
// usage: node crates/template/benches/render/mustache-js.mjs target/bench-render
// (mustache must be installed there: npm i --prefix target/bench-render mustache@4.2.0)
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';

const dir = resolve(process.argv[2] ?? 'target/bench-render');
const Mustache = createRequire(join(dir, 'package.json'))('mustache');
const cases = [['product', 400], ['listing', 15]];

const ms = (ns) => Number(ns) / 1e6;
const summary = (times) => {
  times.sort((a, b) => (a < b ? -1 : 1));
  return `${ms(times[times.length >> 1]).toFixed(3).padStart(9)}ms/${ms(times[0]).toFixed(3).padStart(8)}ms`;
};

console.log(`mustache.js ${Mustache.version}, node ${process.version}`);
console.log(`${'case'.padEnd(8)} ${'parse med/best'.padStart(21)}  ${'render med/best'.padStart(21)}  ${'total med/best'.padStart(21)}  same output`);
for (const [name, runs] of cases) {
  const template = readFileSync(join(dir, `${name}.mustache`), 'utf8');
  const json = readFileSync(join(dir, `${name}.json`), 'utf8');
  const ours = readFileSync(join(dir, `${name}.out.html`), 'utf8');
  Mustache.parse(template);
  const parse = [], render = [], total = [];
  let html = '';
  for (let i = 0; i < runs; i++) {
    const start = process.hrtime.bigint();
    const data = JSON.parse(json);
    const parsed = process.hrtime.bigint();
    html = Mustache.render(template, data);
    const done = process.hrtime.bigint();
    parse.push(parsed - start); render.push(done - parsed); total.push(done - start);
  }
  console.log(`${name.padEnd(8)} ${summary(parse)}  ${summary(render)}  ${summary(total)}  ${html === ours}`);
}
