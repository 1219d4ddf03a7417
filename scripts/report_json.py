"""Reading the recorded reports the generated tables quote: JSON, or gzipped JSON (`.json.gz`, the older sweep runs,
kept small because the device tool carries the whole tree), and what both table scripts read off a trace's summary."""
import gzip
import json


def read_json(path):
    data = path.read_bytes()
    return json.loads(gzip.decompress(data) if path.suffix == ".gz" else data)


# The roles whose k-steps multiply: the consumers of a warp-specialised rung, the warpgroups of one that is not.
MULTIPLYING_ROLES = ("consumer", "warpgroup")


def multiplying_role(summary):
    """A `gemmlab-cli trace --json` summary's role whose k-steps multiply."""
    return next(r for r in summary["roles"] if r["role"] in MULTIPLYING_ROLES)

