"""Reading recorded ncu reports (`ncu --csv --page raw`, plain or gzipped): the launches it profiled, one dict each,
and a metric of one as a number. What the profiled program printed before ncu's header, and ncu's units row, are
skipped."""
import csv
import gzip


def ncu_kernels(path):
    """The kernels of a recorded ncu report, one dict a launch, in order."""
    data = path.read_bytes()
    lines = (gzip.decompress(data) if path.suffix == ".gz" else data).decode(errors="replace").splitlines()
    first = next(i for i, line in enumerate(lines) if line.startswith(('"ID"', "ID,")))
    return [row for row in csv.DictReader(lines[first:]) if row.get("ID", "").isdigit()]


def ncu_number(row, metric):
    """A metric of one launch of ncu_kernels, as a number (ncu writes thousands with commas)."""
    return float(row[metric].replace(",", ""))
