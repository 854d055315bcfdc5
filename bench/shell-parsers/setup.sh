#!/bin/sh
# Installs the parser candidates for bench/shell-parsers/run.mjs into bench/.candidates
# (git-ignored; never the project's dependencies): web-tree-sitter + tree-sitter-bash from npm,
# and mvdan.cc/sh/v3 built for GOOS=js GOARCH=wasm from Debian's source package
# (apt-get install -y golang-go golang-mvdan-sh-dev).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out="$here/../.candidates"
mkdir -p "$out/go-wasm"
cd "$out"
[ -f package.json ] || echo '{"name":"shell-parser-candidates","private":true}' > package.json
npm install --ignore-scripts --no-audit --no-fund web-tree-sitter@0.27.2 tree-sitter-bash@0.25.1
cd "$here/go-wasm"
GO111MODULE=off GOPATH="$out/gopath:/usr/share/gocode" GOOS=js GOARCH=wasm \
  go build -trimpath -ldflags=-s -o "$out/go-wasm/sh.wasm" .
cp "$(go env GOROOT)/misc/wasm/wasm_exec.js" "$out/go-wasm/"
