#!/usr/bin/env bash
# Installs siteops for the GitHub Action (action.yml): the release binary of the action's
# own version, checked against the release's .sha256, or, when no release matches the ref
# (a branch, a commit, a tag without a release), a build from the action's source.
#
#   install.sh [auto|release|build]
#     release  download, verify and install the release binary; when there is none, say
#              why and write `build=true` to $GITHUB_OUTPUT (action.yml then sets up Rust
#              and runs `install.sh build`)
#     build    cargo install from $SITEOPS_ACTION_PATH
#     auto     release, then build when there is no release (the default)
#
# Environment:
#   SITEOPS_ACTION_REPOSITORY  owner/name of the action (github.action_repository)
#   SITEOPS_ACTION_REF         the ref the workflow names (github.action_ref), e.g. v0.2.0
#   SITEOPS_ACTION_PATH        the action's source (github.action_path)
#   SITEOPS_INSTALL_ROOT       siteops goes to its bin/ (default: $RUNNER_TEMP/siteops)
#   SITEOPS_RELEASE_BASE_URL   where releases are downloaded from, <base>/<tag>/<file>
#                              (default: https://github.com/<repository>/releases/download)
#   SITEOPS_TARGET             the archive's target triple (default: this machine's)
#   GITHUB_OUTPUT, GITHUB_PATH the runner's files, when set
#
# A release that is there but does not verify (a checksum mismatch, a missing .sha256, a
# failed download) is an error: it never falls back to a build, which would hide it.
set -euo pipefail

mode="${1:-auto}"
repository="${SITEOPS_ACTION_REPOSITORY:-}"
ref="${SITEOPS_ACTION_REF:-}"
action_path="${SITEOPS_ACTION_PATH:-}"
root="${SITEOPS_INSTALL_ROOT:-${RUNNER_TEMP:-${TMPDIR:-/tmp}}/siteops}"

say() { printf 'siteops install: %s\n' "$*"; }
fail() {
  if [ "${GITHUB_ACTIONS:-}" = true ]; then
    printf '::error title=siteops install::%s\n' "$*" >&2
  else
    printf 'siteops install: error: %s\n' "$*" >&2
  fi
  exit 1
}
output() { if [ -n "${GITHUB_OUTPUT:-}" ]; then printf '%s\n' "$1" >>"$GITHUB_OUTPUT"; fi; }

# A composite action's github.action_ref can be empty; the runner checks an action out at
# _actions/<owner>/<name>/<ref>, so its path tells the same.
if [ -z "$repository" ] || [ -z "$ref" ]; then
  case "$action_path" in
    */_actions/*/*/*)
      rest="${action_path#*/_actions/}"
      owner="${rest%%/*}"
      rest="${rest#*/}"
      repository="$owner/${rest%%/*}"
      ref="${rest#*/}"
      ref="${ref%%/*}"
      ;;
  esac
fi

# The release's target triple for this machine (dist's archive names).
host_target() {
  local os arch
  case "$(uname -s)" in
    Linux) os=unknown-linux-musl ;;
    Darwin) os=apple-darwin ;;
    MINGW* | MSYS* | CYGWIN* | Windows_NT) os=pc-windows-msvc ;;
    *) return 1 ;;
  esac
  case "$(uname -m)" in
    x86_64 | amd64) arch=x86_64 ;;
    aarch64 | arm64) arch=aarch64 ;;
    *) return 1 ;;
  esac
  if [ "$os" = pc-windows-msvc ] && [ "$arch" != x86_64 ]; then return 1; fi
  printf '%s-%s\n' "$arch" "$os"
}

sha256_of() {
  if command -v sha256sum >/dev/null 2>&1; then
    sha256sum "$1" | cut -d' ' -f1
  elif command -v shasum >/dev/null 2>&1; then
    shasum -a 256 "$1" | cut -d' ' -f1
  else
    fail "neither sha256sum nor shasum is installed: cannot verify $(basename "$1")"
  fi
}

# GET $1 into $2; sets $status to the HTTP status. No answer at all is an error.
download() {
  local code=0
  status="$(curl --silent --show-error --location --retry 3 --retry-delay 2 \
    --connect-timeout 20 --max-time 600 --output "$2" --write-out '%{http_code}' "$1")" || code=$?
  if [ "$code" != 0 ]; then fail "cannot download $1 (curl exit $code)"; fi
}

# Puts bin/siteops on the job's PATH and says which siteops it is.
announce() {
  local bin="$1" how="$2" version
  version="$("$bin" --version)" || fail "the installed $bin does not run"
  if [ -n "${GITHUB_PATH:-}" ]; then printf '%s\n' "$(dirname "$bin")" >>"$GITHUB_PATH"; fi
  say "installed $version ($how) at $bin"
}

# Sets $no_release (after saying why) when no release matches, so the caller builds.
install_release() {
  if [ -z "$repository" ] || [ -z "$ref" ]; then
    say "the action's repository and ref are unknown (a local 'uses: ./' action?): no release to download, building from source"
    no_release=1
    return
  fi
  local target
  if [ -n "${SITEOPS_TARGET:-}" ]; then
    target="$SITEOPS_TARGET"
  elif ! target="$(host_target)"; then
    say "no release binary is built for $(uname -s) $(uname -m): building from source"
    no_release=1
    return
  fi
  command -v curl >/dev/null 2>&1 || fail "curl is not installed: cannot download the release"
  local archive bin_name
  case "$target" in
    *windows*) archive="siteops-$target.zip" bin_name=siteops.exe ;;
    *) archive="siteops-$target.tar.gz" bin_name=siteops ;;
  esac
  local base="${SITEOPS_RELEASE_BASE_URL:-https://github.com/$repository/releases/download}"
  local url="${base%/}/$ref/$archive"
  local work
  work="$(mktemp -d)"
  # shellcheck disable=SC2064 # expand now: $work is local
  trap "rm -rf '$work'" EXIT

  download "$url" "$work/$archive"
  case "$status" in
    200) ;;
    404)
      say "no release $ref of $repository has $archive (404 from $url): building from source"
      no_release=1
      return
      ;;
    *) fail "downloading $url answered HTTP $status" ;;
  esac
  download "$url.sha256" "$work/$archive.sha256"
  [ "$status" = 200 ] ||
    fail "release $ref has $archive but its checksum $archive.sha256 answered HTTP $status: not installing an unverified binary"

  local expected actual
  expected="$(cut -d' ' -f1 <"$work/$archive.sha256" | head -n1 | tr 'A-F' 'a-f')"
  actual="$(sha256_of "$work/$archive")"
  [ "$expected" = "$actual" ] ||
    fail "checksum mismatch for $archive from $url: the release's $archive.sha256 says ${expected:-nothing}, the download is $actual"

  mkdir -p "$work/unpacked"
  case "$archive" in
    *.zip) unzip -q "$work/$archive" -d "$work/unpacked" || fail "cannot unpack $archive" ;;
    *) tar -xzf "$work/$archive" -C "$work/unpacked" || fail "cannot unpack $archive" ;;
  esac
  local found
  found="$(find "$work/unpacked" -type f -name "$bin_name" | head -n1)"
  [ -n "$found" ] || fail "$archive has no $bin_name"
  mkdir -p "$root/bin"
  cp "$found" "$root/bin/$bin_name"
  chmod 755 "$root/bin/$bin_name"
  announce "$root/bin/$bin_name" "release $ref of $repository, $archive, sha256 verified"
  output "build=false"
}

build_from_source() {
  [ -n "$action_path" ] || fail "SITEOPS_ACTION_PATH is not set: no source to build siteops from"
  command -v cargo >/dev/null 2>&1 || fail "cargo is not installed: cannot build siteops from $action_path"
  say "building siteops from $action_path with cargo install (several minutes)"
  cargo install --locked --quiet --path "$action_path" --root "$root"
  local bin="$root/bin/siteops"
  if [ -f "$bin.exe" ]; then bin="$bin.exe"; fi
  announce "$bin" "built from source"
}

no_release=0
status=""
case "$mode" in
  release)
    install_release
    if [ "$no_release" = 1 ]; then output "build=true"; fi
    ;;
  build) build_from_source ;;
  auto)
    install_release
    if [ "$no_release" = 1 ]; then build_from_source; fi
    ;;
  *) fail "unknown mode '$mode' (auto, release or build)" ;;
esac
