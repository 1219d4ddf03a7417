"""Rank statistics the generated tables share, computed as the C++ side computes them (sim::spearman): ties take
their average rank, and Spearman is Pearson's correlation of the ranks."""
import math


def average_ranks(values):
    """Ranks from 1, ties at the average of the ranks they span."""
    order = sorted(range(len(values)), key=lambda i: values[i])
    ranks = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            ranks[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return ranks


def spearman(xs, ys):
    """Spearman's rank correlation of two equally long lists; 0 where either has no spread or fewer than 2 items."""
    if len(xs) != len(ys) or len(xs) < 2:
        return 0.0
    rx, ry = average_ranks(xs), average_ranks(ys)
    mean = (len(xs) + 1) / 2
    cov = sum((a - mean) * (b - mean) for a, b in zip(rx, ry))
    vx, vy = sum((a - mean) ** 2 for a in rx), sum((b - mean) ** 2 for b in ry)
    return cov / math.sqrt(vx * vy) if vx and vy else 0.0
