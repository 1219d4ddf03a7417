"""Reading the recorded reports the generated tables quote: JSON, or gzipped JSON (`.json.gz`, the older sweep runs,
kept small because the device tool carries the whole tree)."""
import gzip
import json


def read_json(path):
    data = path.read_bytes()
    return json.loads(gzip.decompress(data) if path.suffix == ".gz" else data)
