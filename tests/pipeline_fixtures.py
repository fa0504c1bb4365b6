#!/usr/bin/env python3
"""Every case of the shared pipeline check (conformance/pipeline/check.py) rendered as the
pipeline's own test renders it: through `siteops ingest`'s delivery, with the test's
configuration for the case (tests/fixtures/pipeline-configs/), the fixtures' content bus and
the tests' nonce, compared by check.py's own comparator.

  python3 tests/pipeline_fixtures.py SITEOPS PIPELINE_DIR [--only NAME,...]

One line per case; exit 1 listing the failures. The code-bus cases (no markdown: static HTML
and 404.html served from the code) are reference-answer cases (tests/fixtures/delivery/).
"""
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
CONFIGS = os.path.join(HERE, 'fixtures', 'pipeline-configs')
NONCE = 'ckE0bmQwbW1tckE0bmQwbW1t'

# The per-test configurations of test/rendering.test.js (DEFAULT_CONFIG or
# DEFAULT_CONFIG_EMPTY otherwise, by the case's `cfg`).
CONFIG_OF = {
    'page-metadata-jsonld-multi': 'empty-jsonld-global',
    'page-metadata-jsonld-global': 'empty-jsonld-global',
    'page-metadata-canonical-suffix': 'empty-canonical-suffix',
    'page-metadata-canonical-suffix-keep': 'empty-canonical-suffix',
    'page-metadata-canonical-suffix-folder': 'empty-canonical-extension',
    'no-head-html': 'default-no-head',
    'head-with-script': 'default-head-with-script',
    'head-with-empty-csp': 'default-head-with-empty-csp',
    'page-with-section-metadata': 'default-rendering-v2',
}
for _n in ('nonce-meta', 'nonce-headers', 'nonce-meta-move-as-header', 'nonce-headers-meta',
           'nonce-script-only', 'nonce-meta-different', 'nonce-headers-different',
           'nonce-style-only'):
    CONFIG_OF[_n] = _n
# Cases whose metadata comes from a sourced sheet (config.metadata.source) rather than rows.
SHEET_OF = {
    'page-metadata-json': 'metadata-sheet.json',
    'page-metadata-block-html': 'metadata-sheet.json',
}


# Cases whose expected page was rendered at another path than check.py's (the orphan
# nonce-style-only's canonical link is /nonce-meta's).
PATH_OF = {
    'nonce-style-only': '/nonce-meta',
}


def resource_of(path):
    """The content bus path a page path reads (utils/path.js, for the paths used here)."""
    if path.endswith('/'):
        return path + 'index.md'
    return path + '.md'


def command(check, binary, c):
    """The `siteops ingest` command line that renders case `c`."""
    config = CONFIG_OF.get(c['name'], 'default' if c['cfg'] == 'default' else 'empty')
    host = c['host'] or check.HOSTS[c['cfg']]
    path = PATH_OF.get(c['name'], c['path'])
    content = os.path.join(check.FIX, 'content')
    cmd = [binary, 'ingest', '--format', 'plain' if c['kind'] == 'plain' else 'html',
           '--url', 'https://%s%s' % (host, path),
           '--config', os.path.join(CONFIGS, config + '.json'),
           '--content', content, '--nonce', NONCE]
    if c['name'] in SHEET_OF:
        cmd += ['--metadata', os.path.join(CONFIGS, SHEET_OF[c['name']])]
    # The markdown as FILE only where it is not where the URL's path reads it.
    if resource_of(path) != '/' + c['md']:
        cmd.append(os.path.join(content, c['md']))
    return cmd


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    binary, pipeline = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    only = None
    if len(sys.argv) > 4 and sys.argv[3] == '--only':
        only = set(sys.argv[4].split(','))
    sys.path.insert(0, pipeline)
    import check  # noqa: E402  (the shared check, in place)

    failures, passed, elsewhere = [], 0, 0
    for c in check.CASES:
        if only and c['name'] not in only:
            continue
        label = '%s%s (%s)' % (c['name'], '.plain' if c['kind'] == 'plain' else '', c['sel'])
        if c['md'] == '-':
            elsewhere += 1
            print('elsewhere %s: served from the code bus, a reference-answer case' % label)
            continue
        r = subprocess.run(command(check, binary, c), capture_output=True, text=True,
                           timeout=120)
        with open(os.path.join(check.FIX, 'content', c['exp']), encoding='utf-8') as f:
            exp = check.reduce_html(f.read(), c['sel'])
        got = None if r.returncode else check.reduce_html(r.stdout, c['sel'])
        if got is None:
            why = 'siteops failed: %s' % ((r.stderr.strip().splitlines() or ['exit %d' % r.returncode])[-1]) \
                if r.returncode else 'no <%s> in the output' % c['sel']
        else:
            why = '' if exp == got else check.first_difference(exp, got)
        if why:
            failures.append(label)
            print('FAIL %s: %s' % (label, why))
        else:
            passed += 1
            print('pass %s' % label)
    print('pipeline fixtures through the delivery: %d of %d equal (%d elsewhere)' % (
        passed, passed + len(failures), elsewhere))
    if failures:
        print('failed: ' + ', '.join(failures))
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main())
