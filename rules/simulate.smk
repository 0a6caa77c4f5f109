# Stage 3: one simulation per (trace, policy, allocation, seed).
#
# threads=1: the engine and the decision process take turns (ZeroMQ request/reply),
# so a run keeps about one core busy. Outputs are written atomically (see
# datasched.analysis.pipeline.simulate): an interrupted sweep resumes with the runs
# whose out_jobs.csv is missing.


rule simulate:
    input:
        platform=f"{RESULTS}/platforms/{{trace}}.xml",
        workload=f"{RESULTS}/workloads/{{trace}}.json",
    output:
        jobs=f"{RESULTS}/sims/trace={{trace}}/policy={{policy}}/allocation={{allocation}}/seed={{seed}}/out_jobs.csv",
        schedule=f"{RESULTS}/sims/trace={{trace}}/policy={{policy}}/allocation={{allocation}}/seed={{seed}}/out_schedule.csv",
    params:
        scheduler_options=lambda wildcards: scheduler_options(wildcards.allocation, wildcards.seed),
        decision_timeout=EXP.decision_timeout,
        traffic_policy=EXP.traffic_policy,
        label=lambda wildcards: f"{wildcards.trace} {wildcards.policy}/{wildcards.allocation} seed={wildcards.seed}",
    log:
        f"{RESULTS}/logs/simulate/{{trace}}_{{policy}}_{{allocation}}_{{seed}}.log",
    threads: 1
    resources:
        mem_mb=EXP.sim_mem_mb,
        runtime=EXP.sim_runtime_min,
    script:
        "scripts/simulate.py"
