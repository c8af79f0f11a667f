#!/usr/bin/env python3
"""A simulation in Python handing its truth to reckon, which decides when to send Entity State PDUs.

    python3 examples/truth-from-python.py | reckon publish --truth -
    python3 examples/truth-from-python.py --udp 127.0.0.1:4000   # to `reckon publish --truth udp://127.0.0.1:4000`

Standard library only. Every tick it writes one JSON object per entity and line (NDJSON, schemas/truth.schema.json):
its id, the simulation time, latitude, longitude and height, velocity east-north-up, heading and type. At the end
each entity leaves. reckon dead-reckons them: it sends a PDU only when the receivers' extrapolation would drift
past the threshold, and heartbeats between (docs/feeds.md).
"""

import argparse
import json
import math
import socket
import sys
import time

EARTH_RADIUS_M = 6_371_000.0


def offset(lat_deg, lon_deg, east_m, north_m):
    """A point east_m and north_m from (lat, lon): enough for a few kilometres."""
    lat = lat_deg + math.degrees(north_m / EARTH_RADIUS_M)
    lon = lon_deg + math.degrees(east_m / (EARTH_RADIUS_M * math.cos(math.radians(lat_deg))))
    return lat, lon


def tank(t, origin):
    """A tank driving a 400 m circle at 8 m/s."""
    radius, speed = 400.0, 8.0
    angle = speed * t / radius
    east, north = radius * math.sin(angle), radius * (1 - math.cos(angle))
    lat, lon = offset(*origin, east, north)
    ve, vn = speed * math.cos(angle), speed * math.sin(angle)
    return {"id": "tank-7", "lat": lat, "lon": lon, "alt": 20.0, "velocity": {"enu": [ve, vn, 0.0]},
            "heading": math.degrees(math.atan2(ve, vn)) % 360, "type": "M1A2", "marking": "TANK 7"}


def ship(t, origin):
    """A ship on a straight course at 6 m/s, to the north-east."""
    speed, course = 6.0, math.radians(45)
    lat, lon = offset(*origin, 2000 + speed * t * math.sin(course), -1500 + speed * t * math.cos(course))
    return {"id": "ship-2", "lat": lat, "lon": lon, "alt": 0.0,
            "velocity": {"enu": [speed * math.sin(course), speed * math.cos(course), 0.0]},
            "heading": 45.0, "type": "1:3:0:81:3:0:0", "marking": "FREIGHTER", "force": "neutral"}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--duration", type=float, default=30.0, help="seconds to run (default 30)")
    parser.add_argument("--rate", type=float, default=10.0, help="truth records per second per entity (default 10)")
    parser.add_argument("--origin", default="36.597,-121.873", help="LAT,LON of the exercise (default Monterey Bay)")
    parser.add_argument("--udp", metavar="HOST:PORT", help="send each record as a UDP datagram instead of printing it")
    args = parser.parse_args()
    origin = tuple(float(x) for x in args.origin.split(","))

    if args.udp:
        host, port = args.udp.rsplit(":", 1)
        sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET, socket.SOCK_DGRAM)

        def emit(record):
            sock.sendto((json.dumps(record) + "\n").encode(), (host.strip("[]"), int(port)))
    else:
        def emit(record):
            sys.stdout.write(json.dumps(record) + "\n")
            sys.stdout.flush()

    start = time.monotonic()
    step = 1.0 / args.rate
    t = 0.0
    try:
        while t <= args.duration:
            for make in (tank, ship):
                record = make(t, origin)
                record["time"] = round(t, 3)
                emit(record)
            t += step
            time.sleep(max(0.0, start + t - time.monotonic()))
        for entity in ("tank-7", "ship-2"):
            emit({"id": entity, "leave": True})
    except (BrokenPipeError, KeyboardInterrupt):
        pass


if __name__ == "__main__":
    main()
