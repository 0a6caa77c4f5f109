"""A raw Batsim-protocol decision process (no pybatsim) that logs every message it
receives and answers scripted events when triggered, for protocol-timing tests.

usage: triggeredSched.py ENDPOINT SCRIPT.json LOG.json

SCRIPT.json is a list of rules ``{"on": {"type": T, <data key>: value, ...}, "send": [events]}``.
Each rule fires once, on the first event received after it became armed whose type is T
and whose data has every other given key with that value; rules are tried in list order
and one event fires at most one rule, so two identical rules fire on two such events.
Sent events get the round's ``now`` as timestamp unless they carry one; the reply's
``now`` echoes the request's, as pybatsim does. LOG.json receives, after every message,
the list of messages received so far (each ``{"now", "events"}``), exactly as sent.
"""

import json
import sys

import zmq


def matches(rule: dict, event: dict) -> bool:
    want = rule["on"]
    if event["type"] != want["type"]:
        return False
    return all(event["data"].get(key) == value for key, value in want.items() if key != "type")


def main() -> None:
    endpoint, script_path, log_path = sys.argv[1:4]
    with open(script_path) as f:
        rules = json.load(f)
    fired = [False] * len(rules)
    received = []
    socket = zmq.Context().socket(zmq.REP)
    socket.bind(endpoint)
    while True:
        message = json.loads(socket.recv_string())
        received.append(message)
        with open(log_path, "w") as f:
            json.dump(received, f, indent=1)
        now = message["now"]
        reply = []
        for event in message["events"]:
            for i, rule in enumerate(rules):
                if not fired[i] and matches(rule, event):
                    fired[i] = True
                    for sent in rule["send"]:
                        reply.append({"timestamp": now, **sent})
                    break
        socket.send_string(json.dumps({"now": now, "events": reply}))
        if any(e["type"] == "SIMULATION_ENDS" for e in message["events"]):
            return


if __name__ == "__main__":
    main()
