#!/usr/bin/python3
"""1Pipe Fig. 10: failure recovery time of reliable 1Pipe by failed component (host, host
link, ToR, aggregation switch, core link, core switch) on the testbed, with the controller's
steps behind it.

usage: /usr/bin/python3 protocols/onepipe/analysis/fig10_recovery.py --db results.sqlite --out DIR
Reads the "onepipe-fig10" sweep (scenarios/onepipe/fig10-recovery.json) and each run's
onepipe_deliveries and onepipe_controller traces; writes DIR/onepipe-fig10.png and .pdf and
prints the plotted numbers and the paper's claims about Fig. 10 beside ours.

Recovery time (the paper's "average time of barrier timestamp stall for correct processes"):
for each process the controller did not declare failed, the time from the fault to its first
delivery on a barrier above the fault's time (the paper's recovery = detection + 6 network
diameters + processing counts from the failure too). Not the longest gap between deliveries:
senders' recalls let the barrier creep forward before Resume (still below the failure
timestamp), which splits the stall. Bars are the mean over the
correct processes of every repetition, error bars their 5th and 95th percentiles (as the
paper's).
The controller's steps, from its trace and measured from the fault: detection (the first
report), Determine, the processes' Discard, Recall and Callback up to the Resume decision,
and the commit barrier's way to the receivers after it (until the mean first delivery on a
barrier past the fault).
"""

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "analysis"))

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from incsim_analysis import style  # noqa: E402
from incsim_analysis.figure import load_sweep, save  # noqa: E402
from incsim_analysis.rundir import RunDir  # noqa: E402

COMPONENTS = ["host", "host link", "ToR switch", "aggregation switch", "core link",
              "core switch"]
PHASES = ["detection", "determine", "discard, recall, callback", "barrier to receivers"]
US = 1000.0


def node_kind(name):
    """The testbed's and the fat-tree's node names: h*, tor*/e*, spine*/a*, core*/c*."""
    for prefix, kind in (("tor", "ToR"), ("spine", "aggregation"), ("core", "core"),
                         ("h", "host"), ("e", "ToR"), ("a", "aggregation"), ("c", "core")):
        if name.startswith(prefix) and name[len(prefix):].replace("_", "").isdigit():
            return kind
    sys.exit(f"fig10: cannot tell what kind of node \"{name}\" is")


def component(fault):
    """The failed component of one /faults entry, named as on Fig. 10's x axis."""
    if fault["action"] == "node_crash":
        kind = node_kind(fault["node"])
        return "host" if kind == "host" else f"{kind} switch"
    if fault["action"] == "link_down":
        kinds = {node_kind(name) for name in fault["link"]}
        if "host" in kinds:
            return "host link"
        if kinds == {"aggregation", "core"}:
            return "core link"
        return "ToR link"
    sys.exit(f"fig10: fault action \"{fault['action']}\" is not a failure")


def recovery(run_dir, fault_ns):
    """(stall of each correct process in us, controller phase ends in us after the fault)."""
    run = RunDir(run_dir)
    controller = run.trace("onepipe_controller")
    deliveries = run.trace("onepipe_deliveries")
    failed = set(controller.loc[controller["event"] == "failed", "process"])
    stalls, ends = [], []
    for process, rows in deliveries.groupby("dst"):
        if process in failed:
            continue
        before = rows[rows["deliver_ns"] <= fault_ns]
        passed = rows.loc[rows["barrier"] > fault_ns, "deliver_ns"]
        if before.empty or passed.empty:
            sys.exit(f"{run_dir}: process {process} delivered nothing before the fault at "
                     f"{fault_ns / US:g} us, or nothing on a barrier past it: the run must span "
                     f"the recovery")
        stalls.append((passed.min() - fault_ns) / US)
        ends.append(passed.min())
    if controller.empty:
        sys.exit(f"{run_dir}: the controller took no step: no failure was detected")
    first = controller.groupby("event")["time_ns"].min()
    report = first["report"]
    determine = first.get("broadcast", first["resume"])
    resume = controller.loc[controller["event"] == "resume", "time_ns"].max()
    phases = [report, determine, resume, float(np.mean(ends))]
    return stalls, [(end - fault_ns) / US for end in phases]


def main():
    args, runs = load_sweep(__doc__, "onepipe-fig10",
                            ["onepipe.processes", "onepipe.controller_failed_processes"])
    if "faults" not in runs.columns:
        sys.exit(f"{args.db}: the onepipe-fig10 sweep must vary /faults (one failure per run)")
    stalls, phases = {}, {}
    for _, run in runs.iterrows():
        faults = json.loads(run["faults"])
        if len(faults) != 1:
            sys.exit(f"{run['run_dir']}: Fig. 10 fails one component per run, not {len(faults)}")
        name = component(faults[0])
        fault_ns = pd.Timedelta(faults[0]["at"]).value
        run_stalls, run_phases = recovery(run["run_dir"], fault_ns)
        stalls.setdefault(name, []).extend(run_stalls)
        phases.setdefault(name, []).append(run_phases + [run["onepipe.controller_failed_processes"]])
    names = [name for name in COMPONENTS if name in stalls]
    names += sorted(set(stalls) - set(names))

    table = pd.DataFrame([{
        "component": name,
        "processes failed": int(np.mean([p[4] for p in phases[name]])),
        "runs": len(phases[name]),
        "stall mean us": np.mean(stalls[name]),
        "p5": np.percentile(stalls[name], 5),
        "p95": np.percentile(stalls[name], 95),
        **{f"{phase} ends": np.mean([p[i] for p in phases[name]])
           for i, phase in enumerate(PHASES)},
    } for name in names])
    style.print_table("recovery time (us): barrier stall of correct processes; controller steps "
                      "(mean us after the fault)", table.round(1))
    print_claims(table)

    fig, (bars, steps) = plt.subplots(1, 2, figsize=(6.8, 2.6))
    x = np.arange(len(names))
    bars.bar(x, table["stall mean us"], color="tab:blue",
             yerr=[table["stall mean us"] - table["p5"], table["p95"] - table["stall mean us"]],
             capsize=3)
    bars.set_ylabel("recovery time (µs)")
    bars.set_title("barrier stall of correct processes")
    left = np.zeros(len(names))
    for i, phase in enumerate(PHASES):
        end = table[f"{phase} ends"].to_numpy()
        steps.barh(x, end - left, left=left, label=phase)
        left = end
    steps.set_yticks(x, names)
    steps.invert_yaxis()
    steps.set_xlabel("time after the fault (µs)")
    steps.set_title("controller steps")
    steps.legend(loc="upper center", bbox_to_anchor=(0.4, -0.32), ncol=2, fontsize=7)
    bars.set_xticks(x, names, rotation=30, ha="right")
    save(fig, args, "onepipe-fig10")


def print_claims(table):
    """The paper's claims about Fig. 10 (spec claims R11-R15) beside our numbers."""
    by = table.set_index("component")["stall mean us"]
    detection = table["detection ends"]
    cut_off = table[table["processes failed"] > 0]
    network = table[table["processes failed"] == 0]
    rows = [
        ("R11 detection = 10 beacon intervals", "30 us",
         f"{detection.min():.1f}-{detection.max():.1f} us to the first report"),
        ("R13 core link/switch shortest (controller only)", "qualitative",
         f"max {network['stall mean us'].max():.1f} us without failed processes, "
         f"min {cut_off['stall mean us'].min():.1f} us with"
         if len(cut_off) and len(network) else "n/a"),
        ("R14 ToR a significant jump over host", "qualitative",
         f"ToR {by.get('ToR switch', float('nan')):.1f} us, host "
         f"{by.get('host', float('nan')):.1f} us"),
        ("R15 overall range", "50-500 us",
         f"{table['stall mean us'].min():.1f}-{table['stall mean us'].max():.1f} us"),
    ]
    style.print_table("paper claims about Fig. 10 beside ours",
                      pd.DataFrame(rows, columns=["claim", "paper", "incsim"]))


if __name__ == "__main__":
    main()
