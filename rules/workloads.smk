# Stage 2: SWF traces -> Batsim workloads (config: traces.<name>.swf / .conversion).


rule workload:
    input:
        swf=lambda wildcards: str(EXP.traces[wildcards.trace].swf),
    output:
        f"{RESULTS}/workloads/{{trace}}.json",
    params:
        conversion=lambda wildcards: dict(EXP.traces[wildcards.trace].conversion),
    log:
        f"{RESULTS}/logs/workload/{{trace}}.log",
    threads: 1
    resources:
        mem_mb=1000,
        runtime=10,
    script:
        "scripts/make_workload.py"
