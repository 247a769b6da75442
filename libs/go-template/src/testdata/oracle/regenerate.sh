#!/usr/bin/env bash
# Regenerates ../golden.json from ../cases.json with real Go (the oracle for our template engine).
# Needs Debian's Go and golang.org/x/text (for `title`), installable offline here:
#   apt-get install -y golang-go golang-golang-x-text-dev
# GOPATH mode picks x/text up from /usr/share/gocode; no module download is involved.
set -euo pipefail
cd "$(dirname "$0")"
export GO111MODULE=off GOPATH=/usr/share/gocode GOCACHE="${GOCACHE:-/tmp/go-build-cache}"
go run main.go ../cases.json > ../golden.json.tmp
mv ../golden.json.tmp ../golden.json
echo "wrote $(cd .. && pwd)/golden.json"
