"""schemathesis hooks of the platform runs of `cargo xtask api-check`
(tests/api/schemathesis-platform.toml): the platform's own OpenAPI documents, read as the
platform routes them, and the refusals docs/src/fidelity.md writes down ("The platform's
OpenAPI documents") let through, each by the message the service answers it with. Any
other failure fails the run.
"""

import re

import schemathesis


@schemathesis.hook
def before_load_schema(context, raw_schema):
    """The older family's document (admin.hlx.page 12.144.7) writes some paths with a
    template literal's `$` left in (`/config/{org}/users/${id}.json`): the platform's
    routes are `/config/{org}/users/{id}.json`, and so are siteops's. The `$` is dropped,
    so that the `id` parameter fills the segment the route takes."""
    paths = raw_schema.get("paths", {})
    for path in [path for path in paths if "${" in path]:
        paths[path.replace("${", "{")] = paths.pop(path)
    # Its `apiKeyContent` lists `"format": "date-time"` among its properties (a keyword
    # slipped one level down): no schema, which schemathesis cannot read. It is dropped.
    schemas = raw_schema.get("components", {}).get("schemas", {})
    properties = schemas.get("apiKeyContent", {}).get("properties", {})
    if isinstance(properties.get("format"), str):
        del properties["format"]


# The refusals of bodies and parameters that the platform's documents allow, one pattern
# per `x-error` problem the service answers (several are joined by "; "): each is written in
# docs/src/fidelity.md, "The platform's OpenAPI documents", with the platform's answer and
# why siteops answers otherwise.
DOCUMENTED = [
    # `version` other than 1: the configuration format siteops reads is version 1.
    r"/version: `version` cannot be -?\d+(\.\d+)?(e[+-]?\d+)?",
    # Names that cannot be an org's, site's or profile's (written as 400).
    r"invalid (org|site|profile) name .*",
    # A version name with a control character, or longer than 200 characters.
    r"versionName holds a control character",
    r"versionName is longer than \d+ characters",
    # Keys the platform's schemas leave open where siteops's are closed: `code`'s own
    # members, keys of `features` and `limits` outside their pattern.
    r"/code/.*: unknown key `.*` in code",
    r"/(features|limits)/.*: unknown key `.*` in (features|limits)",
    # A markup overlay's `suffix`, and a markup source's suffix that is no file extension.
    r"/content/overlay/suffix: unknown key `suffix` in content.overlay",
    r"/content/source/suffix: suffix `.*` must start with `\.` and be a file extension",
    # A write of a whole document without a body (the platform's documents do not require
    # one): siteops needs the document.
    r"invalid JSON: EOF while parsing a value at line 1 column 0",
    # `robots.txt` sent empty: the platform answers the same 400 `missing body` (its
    # document does not say the text must not be empty).
    r"missing body",
    # Minting an API key: siteops makes the token itself (no `jwt` is taken) for the roles
    # the body names (required).
    r"unknown field `.*`, expected `description` or `roles`",
    r"missing field `roles`",
    r"/roles: one role or more, each matching .*",
    # Making a site's secret: the body may name its id; the platform's `description` is
    # not kept.
    r"a secret to make: unknown field `[^`]*`, expected `id` at line \d+ column \d+",
]
DOCUMENTED = [re.compile(pattern) for pattern in DOCUMENTED]

# Answers whose shape is siteops's where the platform's documents say otherwise (checked by
# `response_schema_conformance`, ST108), by what the failure says: each is written in
# docs/src/fidelity.md, "The configuration API's answers".
DOCUMENTED_ANSWERS = [
    # The older family answers the interface's `byogit` code source as stored ("`byogit`
    # in the newer family").
    r'^"github" was expected\b(?s:.*)Schema at /components/schemas/code/properties/source/properties/type',
    # The older family's listings keep each document's `path`, and with `details` its
    # dates ("Listings").
    r"^Additional properties are not allowed \(('(path|created|lastModified|title|description)'(, )?)+ (was|were) unexpected\)(?s:.*)Schema at /properties/(sites|profiles)",
    # Secrets are answered with a `hash`, never a value, and listed (`secrets.json`) by
    # id and dates ("Secrets in a document").
    r"^\{.* is not valid under any of the schemas listed in the 'oneOf' keyword(?s:.*)\"hash\"",
    # The older family takes a site without `code` or `content` ("A site needs `code` and
    # `content` in the newer family").
    r'^"(code|content)" is a required property(?s:.*)Schema at /components/schemas/site:',
    # The older family answers a profile's `apiKeys` records as stored ("`apiKeys` of a
    # profile").
    r"^Additional properties are not allowed \('apiKeys' was unexpected\)",
]
DOCUMENTED_ANSWERS = [re.compile(pattern) for pattern in DOCUMENTED_ANSWERS]

MIGRATION = re.compile(r"Invalid component: parameter `(migrate|validate)` in query")


def _header(response, name):
    value = response.headers.get(name)
    if isinstance(value, list):
        return value[0] if value else None
    return value


@schemathesis.hook
def filter_failure(context, failure, case, response):
    """Keeps every failure but a 400 to a schema-valid request (ST202) whose every
    problem is a documented one, and a documented answer shape (ST108)."""
    if failure.code == "ST108":
        message = str(failure.message)
        return not any(pattern.search(message) for pattern in DOCUMENTED_ANSWERS)
    if failure.code == "ST201":
        # The older family's `?migrate=` and `?validate=` of a site read (a migration from
        # git-era files) are not served: ignored, whatever their value ("Migration
        # parameters").
        return not MIGRATION.search(str(failure.message))
    if failure.code != "ST202" or response.status_code != 400:
        return True
    message = _header(response, "x-error")
    if not message:
        return True
    problems = message.split("; ")
    documented = all(
        any(pattern.fullmatch(problem) for pattern in DOCUMENTED) for problem in problems
    )
    return not documented
