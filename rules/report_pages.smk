# Stage 6: report.html beside every artifact's report.md (analysis/report_html.py; docs/outputs.md).
# One cheap step after all artifacts (seconds): the pages also show the artifacts' scoreboard
# rows, read from paper-artifacts/claims/. plotly.min.js is written once from the plotly wheel
# into a git-ignored folder the pages load it from; a page without it shows the committed PNG.

import glob


localrules:
    plotly_js,
    report_pages,


PLOTLY_JS = "paper-artifacts/.plotly/plotly.min.js"


rule plotly_js:
    output:
        PLOTLY_JS,
    log:
        f"{RESULTS}/logs/report_pages/plotly_js.log",
    script:
        "scripts/plotly_js.py"


rule report_pages:
    input:
        sources=report_pages_inputs(),
        claims=sorted(glob.glob("paper-artifacts/claims/seed*.yaml")),
        plotly=PLOTLY_JS,
    output:
        report_pages_outputs(),
    log:
        f"{RESULTS}/logs/report_pages/report_pages.log",
    script:
        "scripts/report_pages.py"
