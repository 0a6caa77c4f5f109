"""`datasched explore` without a browser: what it reads from a run's files (each series checked
against a hand-computed value), the page being deterministic and self-contained, and bad
folders refused in one line. The browser test is tests/integration/explore."""

from __future__ import annotations

import csv
from pathlib import Path

from datasched.analysis.explore import explore
from datasched.analysis.explore_data import (
    load_run,
    queue_length,
    read_energy,
    read_links,
    read_storage,
    resource_intervals,
)
from datasched.analysis.explore_page import format_number, plotly_js
from datasched.cli import main

JOBS_HEADER = (
    "job_id,workload_name,profile,submission_time,requested_number_of_resources,requested_time,success,final_state,"
    "starting_time,execution_time,finish_time,waiting_time,turnaround_time,stretch,allocated_resources,"
    "consumed_energy,metadata"
)


def _write_run(folder: Path) -> Path:
    """Three jobs: 0 on 0-1 over [0, 10]; 1 submitted at 2, started at 10 on 0-1 3 (two ranges);
    2 rejected."""
    folder.mkdir()
    (folder / "out_jobs.csv").write_text(
        JOBS_HEADER
        + "\n0,w,p0,0,2,-1,1,COMPLETED_SUCCESSFULLY,0,10,10,0,10,1,0-1,-1,\"\"\n"
        + "1,w,p1,2,3,-1,1,COMPLETED_SUCCESSFULLY,10,5,15,8,13,2.6,0-1 3,-1,\"\"\n"
        + "2,w,p2,4,9,-1,0,REJECTED,-1,-1,-1,-1,-1,-1,,-1,\"\"\n"
    )
    (folder / "out_schedule.csv").write_text(
        "consumed_joules,makespan,max_slowdown,max_waiting_time,mean_slowdown,mean_waiting_time\n0,15,2.6,8,1.2,2.66\n"
    )
    (folder / "out_utilisation.csv").write_text("makespan,utilisation\n15,0.5\n")
    (folder / "out_machine_states.csv").write_text(
        "time,nb_sleeping,nb_switching_on,nb_switching_off,nb_idle,nb_computing\n0,0,0,0,2,2\n10,0,0,0,1,3\n"
    )
    return folder


def test_resource_intervals():
    assert resource_intervals("0-3 8 10-11") == [(0, 3), (8, 8), (10, 11)]


def test_queue_length_counts_jobs_between_submission_and_start():
    """Job 1 waits over [2, 10): the queue is 0, then 1 from t = 2, then 0 from t = 10."""
    jobs = {"submit": [0.0, 2.0, 4.0], "start": [0.0, 10.0, -1.0]}
    assert queue_length(jobs) == {"t": [0.0, 2.0, 10.0], "n": [0.0, 1.0, 0.0]}


def test_power_is_the_energy_increment_over_time(tmp_path):
    """P = ΔE / Δt per interval: 100 J over [0, 2] is 50 W, then 30 J over [2, 5] is 10 W."""
    path = tmp_path / "out_consumed_energy.csv"
    path.write_text("time,energy,event_type,wattmin,epower\n0,0,s,0,0\n2,100,e,0,0\n5,130,e,0,0\n")
    energy = read_energy(path)
    assert energy is not None
    assert energy["power_t"] == [0.0, 2.0] and energy["power"] == [50.0, 10.0]


def test_device_load_spreads_a_jobs_device_bytes_over_its_devices_and_run(tmp_path):
    """A job on [0, 10] with 40 GB on local NVM and 20 GB on remote NVM over devices 7 and 9:
    each device carries (40 + 20) / 2 / 10 = 3 GB/s during the run, 0 after."""
    path = tmp_path / "out_io.csv"
    columns = ["job_id", "allocation", "access", "devices"] + [
        f"{t}_bytes" for t in ("network", "dram", "local_nvm", "remote_nvm", "san", "stage_in", "stage_out")
    ]
    with open(path, "w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(columns)
        writer.writerow(["0", "internal", "local", "7 9", 5e9, 1e9, 40e9, 20e9, 0, 0, 0])
    storage = read_storage(path, {"id": ["0"], "start": [0.0], "finish": [10.0]})
    assert storage is not None
    assert storage["device_load"]["7"] == {"t": [0.0, 0.0, 10.0], "rate": [0.0, 3e9, 0.0]}
    assert list(storage["device_load"]) == ["7", "9"]


LINKS_HEADER = "window_start,window_end,link,bytes,busy_seconds,utilisation\n"


def test_link_load_is_bytes_per_window_over_the_window(tmp_path):
    """out_links.csv, windows of 10 s: l1 carries 20 GB in [0, 10] and 5 GB in [20, 30] (idle
    in [10, 20]): 2 GB/s, 0, 0.5 GB/s, 0 after; l2 (1 GB) is second busiest."""
    path = tmp_path / "out_links.csv"
    path.write_text(LINKS_HEADER + "0,10,l1,20e9,10,1\n0,10,l2,1e9,1,0.1\n20,30,l1,5e9,5,0.25\n")
    links = read_links(path)
    assert links is not None
    assert links["series"]["l1"] == {"t": [0.0, 0.0, 10.0, 20.0, 30.0], "rate": [0.0, 2e9, 0.0, 0.5e9, 0.0]}
    assert list(links["totals"]) == ["l1", "l2"] and links["totals"]["l1"] == 25e9


def test_the_load_panel_is_measured_with_out_links_csv_and_estimated_without(tmp_path):
    folder = _write_run(tmp_path / "r")
    (folder / "out_io.csv").write_text(
        "job_id,allocation,access,devices,network_bytes,dram_bytes,local_nvm_bytes,remote_nvm_bytes,san_bytes,"
        "stage_in_bytes,stage_out_bytes\n0,internal,local,7,0,0,1e9,0,0,0,0\n"
    )
    estimated = explore([str(folder)], tmp_path / "a.html").read_text()
    assert "Per-device load (estimated)" in estimated and "Per-link load" not in estimated
    (folder / "out_links.csv").write_text(LINKS_HEADER + "0,10,l1,20e9,10,1\n")
    measured = explore([str(folder)], tmp_path / "b.html").read_text()
    assert "Per-link load (measured" in measured and "(estimated)" not in measured


def test_summary_and_bars_come_from_the_files(tmp_path):
    run = load_run(_write_run(tmp_path / "r"))
    assert run.summary["makespan"] == 15 and run.summary["mean_wait"] == 2.66 and run.summary["utilisation"] == 0.5
    assert run.summary["energy_joules"] is None  # no energy file: no -E
    # job 0: one bar; job 1 on "0-1 3": two bars; the rejected job none
    assert run.bars["job"] == [0, 1, 1] and run.bars["low"] == [0, 0, 3] and run.bars["duration"] == [10, 5, 5]
    assert format_number(2.666666666, "s") == "2.66667 s" and format_number(None) == "—"


def test_page_is_deterministic_and_self_contained(tmp_path):
    folder = _write_run(tmp_path / "r")
    first = explore([str(folder)], tmp_path / "a.html").read_bytes()
    second = explore([str(folder)], tmp_path / "b.html").read_bytes()
    assert first == second
    text = first.decode()
    library = plotly_js()
    assert library in text  # the library is inlined ...
    ours = text.replace(library, "")
    assert " src=" not in ours and "http" not in ours  # ... and the page itself fetches nothing


def test_bad_folders_are_one_line_errors(tmp_path, capsys):
    assert main(["explore", str(tmp_path / "missing")]) == 2
    empty = tmp_path / "empty"
    empty.mkdir()
    assert main(["explore", str(empty)]) == 2
    (empty / "out_jobs.csv").write_text(JOBS_HEADER + "\n0,w,p,x,1,-1,1,C,0,1,1,0,1,1,0,-1,\n")
    assert main(["explore", str(empty)]) == 2
    errors = capsys.readouterr().err.strip().splitlines()
    assert len(errors) == 3 and "not a folder" in errors[0] and "no out_jobs.csv" in errors[1]
    assert "out_jobs.csv:2: column 'submission_time'" in errors[2]
