"""Workload inputs for datasched: SWF trace conversion, the seed-000 Markov-chain
application generator, and the shared phase-profile schema.

Every output is a Batsim 4 workload JSON file (``nb_res``, ``jobs``, ``profiles``) written
byte-deterministically by :func:`datasched.workloads.jsonio.write_json`.
"""
