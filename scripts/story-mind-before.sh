#!/usr/bin/env bash
# The story mind before and after (BENCHMARKS.md, "The story mind"): the same thirty scripted
# scenes on the engine before the story-mind work (commit cd4f394, the parent of 817bad8) and
# on the current one, each book audited by the current `novel audit --json`.
#
#   scripts/story-mind-before.sh [OUT]      # OUT defaults to /tmp/story-mind
#
# The old engine is built in a worktree with its own target directory (a full build, ~15 min
# on two cores); the current one uses the checkout's target/.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-/tmp/story-mind}
before_rev=cd4f394
worktree=${BEFORE_WORKTREE:-$out/worktree}
rm -rf "$out/before" "$out/after"
mkdir -p "$out"

if [ ! -d "$worktree" ]; then
  git -C "$repo" worktree add --detach "$worktree" "$before_rev"
fi
# cd4f394 declares store::order, whose file came only with the next commit (69247e4; nothing
# at cd4f394 uses it): the declaration goes, or that commit does not build.
sed -i '/^mod order;$/d; /^pub use order::\*;$/d' "$worktree/crates/novel-core/src/store/mod.rs"
cp "$repo/scripts/story-mind-before/tests_story_mind_before.rs" \
  "$worktree/crates/novel-core/src/tick/"
grep -q tests_story_mind_before "$worktree/crates/novel-core/src/tick/mod.rs" ||
  printf '#[cfg(test)]\nmod tests_story_mind_before;\n' >> "$worktree/crates/novel-core/src/tick/mod.rs"
(cd "$worktree" && STORY_MIND_OUT="$out/before" CARGO_TARGET_DIR="$worktree/target" \
  nice -n 10 cargo test -p novel-core --lib tests_story_mind_before -- --nocapture)

(cd "$repo" && STORY_MIND_OUT="$out/after" \
  cargo test -p novel-core --lib a_planner_that_takes_what_the_engine_offers -- --nocapture)
(cd "$repo" && cargo build -p novel-cli)
for book in before after; do
  "$repo/target/debug/novel" audit -C "$out/$book" --json > "$out/$book.json"
done
python3 - "$out" <<'PY'
import json, sys
out = sys.argv[1]
for book in ("before", "after"):
    r = json.load(open(f"{out}/{book}.json"))
    opened = [l for l in r["loops"] if l["opened"] > 0]
    closed = [l for l in opened if l["status"] != "open"]
    abandoned = [l for l in opened if l["status"] == "abandoned"]
    important = [l["longest_silence"] for l in r["loops"] if l["importance"] in ("high", "critical")]
    plans = {}
    for s in r["scene_rows"]:
        plans[s["plan"]] = plans.get(s["plan"], 0) + 1
    beats = [f for c in r["criteria"] for f in c["failures"] if f["kind"] == "beat_unrealized"]
    print(f"{book}: loops opened {len(opened)}, closed {len(closed)} "
          f"({100 * len(closed) / max(1, len(opened)):.0f}%; {len(abandoned)} abandoned with a reason), "
          f"longest silence of a high or critical loop {max(important, default=0)} scenes, "
          f"plans {plans}, beats done without realization {len(beats)}")
PY
