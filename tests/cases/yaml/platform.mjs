// The platform's reading of YAML configuration: helix-shared-config's BaseConfig parses a
// query.yaml or sitemap.yaml with `YAML.parseDocument(text, { merge: true, schema: 'core' })`
// and takes `toJSON()` (after refusing tabs). This runs exactly that, with the `yaml` package
// helix-shared-config itself resolves, over each file given, and prints one JSON object:
// { "<file>": { "value": … } | { "error": "…" } }.
//
// node platform.mjs NODE_MODULES FILE...   (NODE_MODULES holds @adobe/helix-shared-config)
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const [modules, ...files] = process.argv.slice(2);
const require = createRequire(resolve(modules, '@adobe/helix-shared-config/package.json'));
const YAML = require('yaml');

const out = {};
for (const file of files) {
  const text = readFileSync(file, 'utf8');
  try {
    if (text.indexOf('\t') >= 0) {
      throw Error('Tabs not allowed in YAML');
    }
    const document = YAML.parseDocument(text, { merge: true, schema: 'core' });
    if (document.errors.length > 0) {
      throw document.errors[0];
    }
    out[file] = { value: document.toJSON() ?? {} };
  } catch (e) {
    out[file] = { error: String(e.message ?? e) };
  }
}
process.stdout.write(JSON.stringify(out));
