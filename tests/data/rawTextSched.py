"""A decision process that answers the engine's first request with raw text (tests of
hostile replies: invalid JSON, out-of-range numbers), then `{"now": <now>, "events": []}`.

usage: rawTextSched.py ENDPOINT REPLY.txt
"""

import json
import sys

import zmq


def main() -> None:
    endpoint, reply_path = sys.argv[1], sys.argv[2]
    with open(reply_path, encoding="utf-8") as f:
        first = f.read()
    socket = zmq.Context().socket(zmq.REP)
    socket.bind(endpoint)
    message = json.loads(socket.recv_string())
    socket.send_string(first)
    while True:
        message = json.loads(socket.recv_string())
        socket.send_string(json.dumps({"now": message["now"], "events": []}))


if __name__ == "__main__":
    main()
