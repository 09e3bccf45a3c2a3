#!/usr/bin/env bash
# Self-test of slurm-fixture.sh: starts a single-node cluster, runs a 4-task job array whose
# tasks write their SLURM_ARRAY_TASK_ID and start/end times, checks every task ran and that
# at least two ran at the same time, then stops the cluster. Needs root, slurm-wlm and munge.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
fixture="$here/slurm-fixture.sh"
work="$(mktemp -d)"
started=0
cleanup() {
  [ "$started" -eq 0 ] || "$fixture" stop "$work/state" || true
  rm -rf "$work"
}
trap cleanup EXIT
fail() {
  echo "check-slurm-fixture: $*" >&2
  for f in "$work"/out/slurm-*.out; do
    [ -s "$f" ] && { echo "---- $f" >&2; cat "$f" >&2; }
  done
  echo "---- squeue -t all" >&2
  squeue -t all >&2 2>&1 || true
  tail -n 20 "$work/state/slurmctld.log" "$work/state/slurmd.log" >&2 2>/dev/null || true
  exit 1
}

t0=$SECONDS
started=1
env_line="$("$fixture" start "$work/state")" || { echo "check-slurm-fixture: fixture start failed" >&2; exit 1; }
[ "$env_line" = "export SLURM_CONF=$work/state/slurm.conf" ] \
  || fail "start printed '$env_line', expected the export line only"
eval "$env_line"
"$fixture" status "$work/state" || fail "status says the cluster does not answer"
# Starting again must only re-check.
[ "$("$fixture" start "$work/state")" = "$env_line" ] || fail "second start did not re-check cleanly"
t_up=$SECONDS

mkdir -p "$work/out"
cat > "$work/task.sh" <<'EOF'
#!/usr/bin/env bash
set -eu
out="$1"
s=$(date +%s.%N)
sleep 3
e=$(date +%s.%N)
echo "$s $e" > "$out/times.$SLURM_ARRAY_TASK_ID"
echo "$SLURM_ARRAY_TASK_ID" > "$out/task.$SLURM_ARRAY_TASK_ID"
EOF
chmod +x "$work/task.sh"

# Poll squeue like a sweep backend would (sbatch --wait backs off to 10 s polls).
job="$(cd "$work/out" && sbatch --parsable --array=0-3 --ntasks=1 --cpus-per-task=1 --time=5 \
    --job-name=fixture-check --output="$work/out/slurm-%A_%a.out" \
    "$work/task.sh" "$work/out")" || fail "sbatch --array=0-3 failed"
deadline=$((SECONDS + 120))
while :; do
  # Without -t, squeue lists only pending/running/completing tasks; a failing squeue (controller
  # busy) is retried rather than taken for "done".
  if active="$(squeue -h -j "$job" -o '%i' 2>&1)"; then
    [ -n "$active" ] || break
  fi
  [ $SECONDS -lt $deadline ] || fail "array job $job not finished after 120 s: $active"
  sleep 0.2
done
# Finished tasks stay listed with -t all (for MinJobAge = 300 s).
states="$(squeue -h -t all -j "$job" -o '%K %T' | sort -n | tr '\n' ' ')"
[ "$states" = "0 COMPLETED 1 COMPLETED 2 COMPLETED 3 COMPLETED " ] \
  || fail "unexpected final task states: $states"
t_done=$SECONDS

for i in 0 1 2 3; do
  [ -f "$work/out/task.$i" ] || fail "array task $i wrote no output file"
  [ "$(cat "$work/out/task.$i")" = "$i" ] || fail "task.$i holds '$(cat "$work/out/task.$i")'"
done

# Two tasks overlap if one started before the other ended and vice versa.
overlap="$(cat "$work"/out/times.* | awk '
  { s[NR] = $1; e[NR] = $2 }
  END { n = 0
        for (i = 1; i <= NR; i++) for (j = i + 1; j <= NR; j++)
          if (s[i] < e[j] && s[j] < e[i]) n++
        print n }')"
[ "$overlap" -ge 1 ] || fail "no two array tasks ran concurrently: $(cat "$work"/out/times.*)"

"$fixture" stop "$work/state"
started=0
! "$fixture" status "$work/state" 2>/dev/null || fail "status still succeeds after stop"
echo "slurm fixture ok (cluster up in $((t_up - t0)) s, 4x3 s array in $((t_done - t_up)) s," \
     "$overlap overlapping task pairs)"
