# Stage 6: report.html beside every artifact's report.md (analysis/report_html.py; docs/outputs.md).
# One cheap step after all artifacts (a few seconds): the pages also show the artifacts' scoreboard
# rows, read from paper-artifacts/claims/. plotly.min.js is written once from the plotly wheel
# into a git-ignored folder the pages load it from; a page without it shows the committed PNG.

import glob
from pathlib import Path


localrules:
    plotly_js,
    report_pages,


PLOTLY_JS = "paper-artifacts/.plotly/plotly.min.js"


def report_pages_inputs():
    """Every report.md of this variant's artifacts, and the files its page is built from."""
    outputs = [
        *policies_on_traces_outputs(),
        *seed000_fig6_outputs(),
        *seed000_fig8_outputs(),
        *seed000_fig9_outputs(),
        *placement_gap_outputs(),
        *seed002_twins_outputs(),
        *seed003_qos_outputs(),
        *seed004_interference_outputs(),
        *seed001_workflows_outputs(),
        *seed001_wfcommons_outputs(),
        *seed001_pagecache_outputs(),
        *seed000_fig7_outputs(),
        *seed000_fig10_outputs(),
        *seed000_abstract_outputs(),
    ]
    return sorted({o for o in outputs if o.endswith(".md") or o.endswith("_plotted.csv")})


def report_pages_outputs():
    return sorted({os.path.join(os.path.dirname(o), "report.html") for o in report_pages_inputs() if o.endswith(".md")})


rule plotly_js:
    output:
        PLOTLY_JS,
    run:
        from datasched.analysis.report_html import write_plotly

        write_plotly(Path(output[0]).parent)


rule report_pages:
    input:
        sources=report_pages_inputs(),
        claims=sorted(glob.glob("paper-artifacts/claims/seed*.yaml")),
        plotly=PLOTLY_JS,
    output:
        report_pages_outputs(),
    run:
        from datasched.analysis.report_html import write

        for page in output:
            write(Path(page).parent, Path(input.plotly))
