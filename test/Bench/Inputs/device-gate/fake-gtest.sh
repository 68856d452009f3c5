#!/bin/sh
# A stand-in for a gtest binary run as one shard: each shard runs 3 tests;
# MODE=fail fails one test in shard 1, MODE=crash ends shard 2 before gtest's
# summary line, with exit status 0.
shard=${GTEST_SHARD_INDEX:-none}
echo "shard $shard of ${GTEST_TOTAL_SHARDS:-none}"
if [ "${MODE:-}" = crash ] && [ "$shard" = 2 ]; then exit 0; fi
echo "[==========] 3 tests from 1 test suite ran. (1 ms total)"
if [ "${MODE:-}" = fail ] && [ "$shard" = 1 ]; then
  echo "[  FAILED  ] Jit.Broken"
  exit 1
fi
exit 0
