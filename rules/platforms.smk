# Stage 1: SimGrid platforms from the generator's parameters (config: traces.<name>.platform).


rule platform:
    output:
        f"{RESULTS}/platforms/{{trace}}.xml",
    params:
        platform=lambda wildcards: dict(EXP.traces[wildcards.trace].platform),
    log:
        f"{RESULTS}/logs/platform/{{trace}}.log",
    threads: 1
    resources:
        mem_mb=500,
        runtime=5,
    script:
        "scripts/make_platform.py"
