"""The busiest-links table (analysis/link_load.py, ``datasched links``, the explorer's table) on a
hand-built ``out_links.csv``, and its errors on a damaged one."""

from __future__ import annotations

import pytest

from datasched.analysis.explore import explore
from datasched.analysis.link_load import busiest_links, format_table
from datasched.cli import main
from tests.unit.analysis.test_explore import _write_run

HEADER = "window_start,window_end,link,bytes,busy_seconds,utilisation\n"

# Windows of 10 s over a 30 s run (3 windows). Link A (1 GB/s: 10 GB per window) carries 5 GB
# in [0, 10) busy 5 s (utilisation 0.5) and 10 GB in [10, 20) busy 10 s (1.0), nothing after.
# Link B (2 GB/s: 20 GB per window) carries 4 GB in [0, 10) busy 10 s (0.2) and 2 GB in
# [20, 30) busy 1 s (0.1). By hand:
#   A: bytes 5 + 10 = 15 GB, busy 5 + 10 = 15 s, mean utilisation (0.5 + 1.0 + 0) / 3 = 0.5,
#      peak 1.0 in the window at 10 s;
#   B: bytes 4 + 2 = 6 GB, busy 10 + 1 = 11 s, mean (0.2 + 0 + 0.1) / 3 = 0.1, peak 0.2 at 0 s.
#   Busiest first: A, then B.
FILE = HEADER + "0,10,A,5e9,5,0.5\n0,10,B,4e9,10,0.2\n10,20,A,10e9,10,1\n20,30,B,2e9,1,0.1\n"


def test_busiest_links_sum_bytes_and_busy_time_and_average_utilisation_over_the_run(tmp_path):
    path = tmp_path / "out_links.csv"
    path.write_text(FILE)
    a, b = busiest_links(path)
    assert (a.link, a.bytes, a.busy_seconds) == ("A", 15e9, 15.0)
    assert a.mean_utilisation == pytest.approx(0.5) and (a.peak_utilisation, a.peak_window_start) == (1.0, 10.0)
    assert (b.link, b.bytes, b.busy_seconds) == ("B", 6e9, 11.0)
    assert b.mean_utilisation == pytest.approx(0.1) and (b.peak_utilisation, b.peak_window_start) == (0.2, 0.0)
    assert [s.link for s in busiest_links(path, top=1)] == ["A"]
    # by peak utilisation: A (1.0) before B (0.2); by mean: A (0.5) before B (0.1); a third link C,
    # 1 GB in [0, 10) at 100 GB/s (utilisation 0.001) but busy all along, ranks last either way
    path.write_text(FILE + "0,10,C,1e9,10,0.001\n")
    assert [s.link for s in busiest_links(path, by="peak")] == ["A", "B", "C"]
    path.write_text(HEADER + "0,10,A,5e9,5,0.5\n0,10,B,40e9,10,0.2\n")  # B: more bytes, less loaded
    assert [s.link for s in busiest_links(path)] == ["B", "A"]
    assert [s.link for s in busiest_links(path, by="mean")] == ["A", "B"]


def test_datasched_links_prints_the_table(tmp_path, capsys):
    (tmp_path / "out_links.csv").write_text(FILE)
    assert main(["links", str(tmp_path), "--top", "1"]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert lines[1].split() == [
        "link",
        "GB",
        "busy",
        "s",
        "mean",
        "util",
        "%",
        "peak",
        "util",
        "%",
        "peak",
        "window",
        "at",
        "s",
    ]
    assert lines[2].split() == ["A", "15.000", "15.000", "50.00", "100.00", "10"]
    assert len(lines) == 3  # --top 1
    assert out.endswith(format_table(busiest_links(tmp_path / "out_links.csv", 1)))


def test_the_explorer_shows_the_same_table(tmp_path):
    folder = _write_run(tmp_path / "r")
    (folder / "out_io.csv").write_text(
        "job_id,allocation,access,devices,network_bytes,dram_bytes,local_nvm_bytes,remote_nvm_bytes,san_bytes,"
        "stage_in_bytes,stage_out_bytes\n0,internal,local,7,0,0,1e9,0,0,0,0\n"
    )
    (folder / "out_links.csv").write_text(FILE)
    page = explore([str(folder)], tmp_path / "p.html").read_text()
    table = page[page.index('<table class="links"') :]
    table = table[: table.index("</table>")]
    assert "<td>A</td><td class=\"num\">15.000</td><td class=\"num\">15.000</td><td class=\"num\">50.00</td>" in table
    assert table.index("<td>A</td>") < table.index("<td>B</td>")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        # no bytes column: the header (line 1) names what is missing
        (
            HEADER.replace("bytes,", "") + "0,10,A,5,0.5\n",
            ":1: column 'bytes' is missing (the header has window_start,window_end,link,busy_seconds,utilisation)",
        ),
        # line 3 (the second row) has a word where busy_seconds should be a number
        (HEADER + "0,10,A,5e9,5,0.5\n10,20,A,10e9,ten,1\n", ":3: column 'busy_seconds': 'ten' is not a finite number"),
        # a short row: its utilisation cell is absent
        (HEADER + "0,10,A,5e9,5\n", ":2: column 'utilisation': no cell (the row is short)"),
        (HEADER + "0,10,A,nan,5,0.5\n", ":2: column 'bytes': 'nan' is not a finite number"),
    ],
)
def test_a_damaged_file_is_one_line_naming_file_line_and_column_and_exit_1(tmp_path, capsys, text, message):
    path = tmp_path / "out_links.csv"
    path.write_text(text)
    assert main(["links", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert err == f"datasched: error: {path}{message}\n"


def test_a_run_without_the_file_says_how_to_get_it(tmp_path, capsys):
    assert main(["links", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert "out_links.csv: no such file" in err and "--link-load-window" in err and len(err.splitlines()) == 1
