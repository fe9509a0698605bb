#!/bin/sh
# The dist dialect owns its vocabulary: attribute names (dist.role,
# dist.phase, ...) are spelled by DistDialect's declarations (DistDialect.td:
# discardableAttrs and the k<Name>AttrName constants, DistDialect.h's typed
# accessors) and op names by <Op>::getOperationName(). This check fails when a
# C++ string literal starting with "dist. appears anywhere else.
#
# Checked: every .cpp/.h under include/, lib/, tools/ and test/lib/
# (libraries, tools and test passes) outside the dialect's own files,
# include/distir/Dialect/Dist/IR/ and lib/Dialect/Dist/IR/.
# Not checked, on purpose: lit tests and their inputs (test/**/*.mlir, .test),
# unittests/ (they embed IR text and check printed names), docs/, and
# generated files in the build tree; all of them may spell the IR.
#
# Usage: scripts/check-dist-literals.sh [source root] (default: the repository)
set -eu
root=${1:-$(dirname "$0")/..}
cd "$root"
hits=$(find include lib tools test/lib \
         \( -path include/distir/Dialect/Dist/IR -o -path lib/Dialect/Dist/IR \) \
         -prune -o \( -name '*.cpp' -o -name '*.h' \) -print |
       sort | xargs grep -n '"dist\.' || true)
if [ -n "$hits" ]; then
  echo "\"dist. literals outside the dist dialect's files (use DistDialect's"
  echo "attribute names and accessors, or <Op>::getOperationName()):"
  echo "$hits"
  exit 1
fi
