"""A raw decision process (no pybatsim: it does not know our extension events) for the
data-mover tests.

usage: stageSched.py ENDPOINT SCRIPT.json
SCRIPT.json: {"alloc": {"<job number>": "<resource ids>"}, "stages": {"<job number>":
[DATASCHED_STAGE data, ...]}, "log": "events.json"}. Each job starts at its submission on
its alloc; the stages listed under a job number are requested at that job's submission;
every event received is logged (the log is written at SIMULATION_ENDS); with "raw_log",
every message received is also written there verbatim, one per line (the byte stream).
"""

import json
import sys

import zmq


def main() -> None:
    endpoint, script_path = sys.argv[1], sys.argv[2]
    with open(script_path) as f:
        script = json.load(f)
    socket = zmq.Context().socket(zmq.REP)
    socket.bind(endpoint)
    log = []
    raw = []
    while True:
        text = socket.recv_string()
        raw.append(text)
        message = json.loads(text)
        now = message["now"]
        replies = []
        for event in message["events"]:
            log.append(event)
            if event["type"] == "JOB_SUBMITTED":
                job_id = event["data"]["job_id"]
                number = job_id.split("!")[1]
                for stage in script.get("stages", {}).get(number, []):
                    replies.append({"timestamp": now, "type": "DATASCHED_STAGE", "data": stage})
                replies.append(
                    {
                        "timestamp": now,
                        "type": "EXECUTE_JOB",
                        "data": {"job_id": job_id, "alloc": script["alloc"][number]},
                    }
                )
        socket.send_string(json.dumps({"now": now, "events": replies}))
        if any(e["type"] == "SIMULATION_ENDS" for e in message["events"]):
            with open(script["log"], "w") as f:
                json.dump(log, f)
            if "raw_log" in script:
                with open(script["raw_log"], "w") as f:
                    f.write("\n".join(raw) + "\n")
            return


if __name__ == "__main__":
    main()
