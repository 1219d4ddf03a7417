"""What the calibration scripts share: reading their CSV tables, and the bytes a lane of a probed instruction moves."""
import csv
import io


def read_table(path):
    """(the first '#' comment without its '#', the column names, the rows as dicts) of a calibration CSV."""
    with open(path, newline="") as f:
        lines = f.read().splitlines()
    comment = next((ln[1:].strip() for ln in lines if ln.startswith("#")), "")
    reader = csv.DictReader(io.StringIO("\n".join(ln for ln in lines if ln and not ln.startswith("#"))))
    rows = list(reader)
    return comment, reader.fieldnames, rows


def lane_bytes(op):
    """Bytes each lane's address covers: 16 for a matrix row (ldsm/stsm), else the instruction's width."""
    if op.startswith(("ldsm", "stsm")):
        return 16
    return int(op.split(".")[-1]) // (1 if op.startswith("cp.async") else 8)
