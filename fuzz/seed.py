#!/usr/bin/env python3
"""Writes the seed corpora of the fuzz targets, `fuzz/corpus/<target>/`, from the fixtures
and examples of the repository and the shared conformance data (`../shared/conformance`).

Run from the repository root: `python3 fuzz/seed.py`. Seeds are named by the SHA-1 of
their content, as libFuzzer names the inputs it adds, so running it again adds nothing
twice. The input formats (sections split by NUL bytes) are described in each target's
`fuzzing` module."""

import glob
import hashlib
import json
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHARED = os.path.join(os.path.dirname(ROOT), "shared", "conformance")
# Larger seeds slow every execution down; the fuzzer grows inputs itself.
MAX_SEED = 64 * 1024


def write(target, data):
    if isinstance(data, str):
        data = data.encode()
    if len(data) > MAX_SEED:
        return
    directory = os.path.join(ROOT, "fuzz", "corpus", target)
    os.makedirs(directory, exist_ok=True)
    name = hashlib.sha1(data).hexdigest()
    with open(os.path.join(directory, name), "wb") as f:
        f.write(data)


def read(path):
    with open(path, "rb") as f:
        return f.read()


def files(*patterns):
    out = []
    for pattern in patterns:
        out.extend(sorted(glob.glob(os.path.join(ROOT, pattern), recursive=True)))
    return out


def html_ingest():
    paths = files(
        "tests/fixtures/**/*.html",
        "crates/ingest/tests/fixtures/**/*.html",
        "sites/*/*/mocks/__files/**/*.html",
    )
    paths += sorted(glob.glob(os.path.join(SHARED, "html2md/fixtures/*.html")))
    paths += sorted(glob.glob(os.path.join(SHARED, "html2md/roundtrip/*.input.html")))
    for path in paths:
        write("html_ingest", read(path))


def mocks_json_bodies():
    bodies = {}
    for path in files("sites/*/*/mocks/mappings/*.json"):
        try:
            stub = json.loads(read(path))
        except ValueError:
            continue
        body = stub.get("response", {}).get("jsonBody") if isinstance(stub, dict) else None
        if body is not None:
            bodies[os.path.basename(path)] = json.dumps(body, ensure_ascii=False)
    return bodies


def mustache():
    # The Mustache specification: template, data, partials.
    for path in sorted(glob.glob(os.path.join(SHARED, "mustache-spec/*.json"))):
        for test in json.loads(read(path)).get("tests", []):
            parts = [test["template"], json.dumps(test.get("data"), ensure_ascii=False)]
            for name, partial in sorted(test.get("partials", {}).items()):
                parts += [name, partial]
            write("mustache", "\0".join(parts))
    # The example sites' templates with their mocked data, paired by name.
    bodies = mocks_json_bodies()
    for path in files("sites/*/*/templates/*.html"):
        stem = os.path.splitext(os.path.basename(path))[0]
        data = [body for name, body in sorted(bodies.items()) if name.startswith(stem)]
        template = read(path).decode()
        write("mustache", template + "\0" + (data[0] if data else "{}"))


def json_reader():
    for body in mocks_json_bodies().values():
        write("json_reader", body)
    for path in sorted(glob.glob(os.path.join(SHARED, "mustache-spec/*.json"))):
        for test in json.loads(read(path)).get("tests", []):
            write("json_reader", json.dumps(test.get("data"), ensure_ascii=False))
    for text in ['{"a":1,"a":2}', "[1e400, -0, 18446744073709551616, 0.1]", '"\\ud83d\\ude00"',
                 "[[[[[[[[[[]]]]]]]]]]", '{"":null}', "1.7976931348623157e308"]:
        write("json_reader", text)


REGEX_TEST = re.compile(r'\(\s*r?#?"(/(?:[^"\\]|\\.)*/[a-z]*)"#?,\s*r?#?"((?:[^"\\]|\\.)*)"')


def jsregex():
    text = read(os.path.join(ROOT, "crates/jsregex/src/tests.rs")).decode()
    for literal, haystack in REGEX_TEST.findall(text):
        write("jsregex", literal + "\0" + haystack)
    for path in files("sites/**/transform/*.toml", "tests/cases/validate/*.case"):
        for literal in re.findall(r"^regex = '([^']*)'", read(path).decode(), re.M):
            write("jsregex", literal + "\0/products/shoes/98765")


def endpoint_template():
    sources = files("sites/**/transform/*.toml", "tests/cases/validate/*.case")
    for path in sources:
        for endpoint in re.findall(r'^endpoint = "([^"]*)"', read(path).decode(), re.M):
            write("endpoint_template", endpoint + "\0" + "2024/05/17/launch-day\0x-market: ch\ntenant: acme")
    text = read(os.path.join(ROOT, "crates/config/src/endpoint.rs")).decode()
    for endpoint in re.findall(r'parse\("((?:[^"\\]|\\.)*)"\)', text):
        write("endpoint_template", endpoint.encode().decode("unicode_escape") + "\0" + "1234")


def wiremock_stubs():
    for path in files("sites/*/*/mocks/mappings/*.json"):
        stub = read(path)
        try:
            parsed = json.loads(stub)
        except ValueError:
            continue
        request = parsed.get("request", {}) if isinstance(parsed, dict) else {}
        url = request.get("url") or request.get("urlPath") or "/"
        host = (request.get("host") or {}).get("equalTo", "example.com")
        method = request.get("method", "GET")
        if method == "ANY":
            method = "GET"
        parts = [stub, f"{method} https://{host}{url}\naccept: */*"]
        body = parsed.get("response", {}).get("bodyFileName")
        if body:
            site = os.path.dirname(os.path.dirname(path))
            body_path = os.path.join(site, "__files", body)
            if os.path.exists(body_path) and os.path.getsize(body_path) < 8192:
                parts.append(f"{body}\n".encode() + read(body_path))
        write("wiremock_stubs", b"\0".join(p.encode() if isinstance(p, str) else p for p in parts))


def site_files():
    # The validation cases are in this format already: `== path` lines, then the file.
    for path in files("tests/cases/validate/*.case"):
        text = read(path).decode()
        write("site_files", text.split("\n== expect", 1)[0])
    # Each example site on its own, with siteops.toml.
    settings = read(os.path.join(ROOT, "siteops.toml")).decode()
    for site in files("sites/*/*/"):
        parts = ["== siteops.toml\n" + settings]
        for path in sorted(glob.glob(os.path.join(site, "**/*"), recursive=True)):
            relative = os.path.relpath(path, ROOT)
            if os.path.isdir(path) or "/mocks/" in path:
                continue
            content = read(path).decode() if re.search(r"\.(toml|ya?ml)$", path) else ""
            parts.append(f"== {relative}\n{content}")
        write("site_files", "".join(p if p.endswith("\n") else p + "\n" for p in parts))


def main():
    for target in sys.argv[1:] or [
        "html_ingest", "mustache", "json_reader", "jsregex",
        "endpoint_template", "wiremock_stubs", "site_files",
    ]:
        globals()[target]()


if __name__ == "__main__":
    main()
