"""A raw Batsim-protocol decision process (no pybatsim) for bad-decision tests.

usage: rawSched.py ENDPOINT REPLIES.json
REPLIES.json is a list; the i-th element is the list of events sent back in round i
(their timestamps are set to the round's "now"); later rounds get no events.
"""

import json
import sys

import zmq


def main() -> None:
    endpoint, replies_path = sys.argv[1], sys.argv[2]
    with open(replies_path) as f:
        replies = json.load(f)
    socket = zmq.Context().socket(zmq.REP)
    socket.bind(endpoint)
    round_index = 0
    while True:
        message = json.loads(socket.recv_string())
        now = message["now"]
        events = replies[round_index] if round_index < len(replies) else []
        for e in events:
            e.setdefault("timestamp", now)
        socket.send_string(json.dumps({"now": now, "events": events}))
        round_index += 1
        if any(e["type"] == "SIMULATION_ENDS" for e in message["events"]):
            return


if __name__ == "__main__":
    main()
