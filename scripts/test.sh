#!/usr/bin/env bash
# The README's test command: set up, build, and run every test (lit, unit,
# and GPU tests, which say that they skipped and why when there is no GPU).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/setup.sh"
"$root/scripts/build.sh"
"$root/scripts/build.sh" check-blk
"$root/scripts/test-install.sh"
