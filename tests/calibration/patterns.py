#!/usr/bin/env python3
"""Writes tests/calibration/patterns.csv: the single-warp memory instructions we measure on the GPU.

One row per pattern:  name,op,mask,lanes,shared_lanes,variant
  op            gemmlab::sim op name: lds.32/64/128, sts.*, ldg.*, stg.*, ldsm.x1/x2/x4[.trans],
                stsm.x1/x2/x4[.trans], cp.async.4/8/16
  mask          active-lane mask, hex (ldmatrix and stmatrix are .sync.aligned: always 0xffffffff)
  lanes         32 byte offsets separated by spaces. lds/sts/ldsm/stsm: offsets into the block's shared window (the probe's
                shared array starts 1024-byte aligned); ldg/stg: offsets from a 4096-byte-aligned global buffer;
                cp.async: the GLOBAL source offsets. Inactive lanes still carry an (unused) offset.
  shared_lanes  cp.async only: the SHARED destination offsets; empty otherwise
  variant       cp.async only: "ca" or "cg" (the PTX cache operator; .cg exists only for 16 bytes); empty otherwise

Deterministic (fixed seed): rerunning gives the same file. Run: python3 tests/calibration/patterns.py
"""
import os
import random

from calibration_common import lane_bytes

FULL = 0xFFFFFFFF
SMEM_LIMIT = 32 * 1024        # the probe's static shared array
GMEM_LIMIT = 4 * 1024 * 1024  # the probe's global buffer

rows = []


def add(name, op, lanes, mask=FULL, shared_lanes=None, variant=""):
    lanes = [int(x) for x in lanes]
    assert len(lanes) == 32, name
    if shared_lanes is not None:
        shared_lanes = [int(x) for x in shared_lanes]
        assert len(shared_lanes) == 32, name
    rows.append((name, op, mask, lanes, shared_lanes, variant))


L = range(32)

# ----------------------------------------------------------------------------------------------------------------
# Shared loads and stores: lds/sts x 32/64/128
# ----------------------------------------------------------------------------------------------------------------
STRIDES = [4, 8, 12, 16, 32, 64, 128, 256]
for kind in ("lds", "sts"):
    for w in (4, 8, 16):
        op = f"{kind}.{w * 8}"
        # strides: those of the brief that are legal for this width (a multiple of it), plus odd multiples of the width
        extra = {4: [20, 132], 8: [24, 40, 136], 16: [48, 80, 144]}[w]
        for s in sorted(set([s for s in STRIDES if s % w == 0] + extra)):
            add(f"{kind}{w*8}_stride{s}", op, [i * s for i in L])
        # broadcasts
        add(f"{kind}{w*8}_bcast_all", op, [64 for i in L])
        add(f"{kind}{w*8}_bcast_pairs", op, [(i // 2) * w for i in L])          # T2n == T2n+1
        add(f"{kind}{w*8}_bcast_pairs_xor2", op, [((i >> 2) * 2 + (i & 1)) * w for i in L])  # Tn == Tn^2
        add(f"{kind}{w*8}_bcast_groups4", op, [(i // 4) * w for i in L])
        add(f"{kind}{w*8}_bcast_groups8", op, [(i // 8) * w for i in L])
        add(f"{kind}{w*8}_bcast_halfwarps", op, [(i // 16) * 256 for i in L])   # two addresses, same bank
        add(f"{kind}{w*8}_same_word_mod8", op, [(i % 8) * w for i in L])        # lane i and i+8 share
        add(f"{kind}{w*8}_halves_same", op, [(i % 16) * w for i in L])          # lane i and i+16 share
        # lanes share a bank-word but in different 128-byte rows (distinct words, same banks): 2-way
        add(f"{kind}{w*8}_2way_halves", op, [(i % 16) * w + (i // 16) * 2048 for i in L])
        # partial masks on the contiguous pattern
        for m in (0x0000FFFF, 0x00000001, 0x55555555, 0x11111111, 0x0F0F0F0F):
            add(f"{kind}{w*8}_contig_mask{m:08x}", op, [i * w for i in L], mask=m)
        # partial mask on a conflicting pattern
        add(f"{kind}{w*8}_stride128_mask0000ffff", op, [i * 128 for i in L], mask=0x0000FFFF)
        add(f"{kind}{w*8}_stride128_mask11111111", op, [i * 128 for i in L], mask=0x11111111)
        # a permutation inside one 512-byte region: contiguous words, lanes shuffled
        rnd = random.Random(1000 + w)
        perm = list(L)
        rnd.shuffle(perm)
        add(f"{kind}{w*8}_permuted", op, [perm[i] * w for i in L])
        # random addresses in 4 KiB (aligned to the width): catches model corner cases
        for k in range(2):
            rnd = random.Random(7 * w + k + (0 if kind == "lds" else 100))
            add(f"{kind}{w*8}_random{k}", op, [rnd.randrange(0, 4096 // w) * w for i in L])

    # padded rows: column read/write of a 32x33 float tile (conflict-free) and a 32x32 one (32-way)
    op = f"{kind}.32"
    add(f"{kind}32_col_tile32x33", op, [(i * 33 + 5) * 4 for i in L])
    add(f"{kind}32_col_tile32x32", op, [(i * 32 + 5) * 4 for i in L])
    # GEMM: A (128 x 8, row-major in global) stored transposed into As[8][128(+4)]: thread t has row t/2, cols
    # (t%2)*4 + j; it writes As[(t%2)*4 + j][t/2] (shown for j = 0)
    add(f"{kind}32_gemm_transpose_store_As8x128", op, [((i % 2) * 4) * 128 * 4 + (i // 2) * 4 for i in L])
    add(f"{kind}32_gemm_transpose_store_As8x132", op, [((i % 2) * 4) * 132 * 4 + (i // 2) * 4 for i in L])
    # 128-bit reads of an [8][128+4] tile as a 16x16-thread sgemm does: B fragment Bs[k][tx*4], A fragment As[k][ty*4]
    op = f"{kind}.128"
    for pad in (0, 4):
        ld = (128 + pad) * 4
        add(f"{kind}128_gemm_Bs_tx_row3_pad{pad}", op, [3 * ld + (i % 16) * 16 for i in L])
        add(f"{kind}128_gemm_As_ty_row3_pad{pad}", op, [3 * ld + (i // 16) * 16 for i in L])
        # a column of rows: lane i reads row i%8 at column block i//8 (transposed 128-bit read across rows)
        add(f"{kind}128_gemm_rows_pad{pad}", op, [(i % 8) * ld + (i // 8) * 16 for i in L])
    # XOR swizzle, 128-byte rows of 8 x 16-byte chunks: row r, chunk c stored at chunk c ^ (r % 8)
    add(f"{kind}128_col_noswizzle", op, [i * 128 + 0 for i in L])
    add(f"{kind}128_col_swizzle", op, [i * 128 + ((0 ^ (i % 8)) * 16) for i in L])
    add(f"{kind}128_col3_swizzle", op, [i * 128 + ((3 ^ (i % 8)) * 16) for i in L])
    add(f"{kind}128_row_swizzle", op, [(i // 8) * 128 + (((i % 8) ^ ((i // 8) % 8)) * 16) for i in L])
    add(f"{kind}128_col_swizzle_mod4", op, [i * 128 + ((0 ^ (i % 4)) * 16) for i in L])  # too few swizzle bits
    # per-quarter or whole warp? Two quarters of 2 active lanes each on disjoint banks (one 128-byte wavefront
    # would do), and four quarters of 4 lanes where quarters 0/1 and 2/3 use disjoint banks (two would do)
    add(f"{kind}128_two_quarters_disjoint_banks", op, [(i % 8) * 16 + (i // 8) * 64 for i in L], mask=0x00000303)
    add(f"{kind}128_mask0f0f0f0f_disjoint_banks", op,
        [((i // 8) % 2) * 64 + (i // 16) * 128 + (i % 8) * 16 for i in L], mask=0x0F0F0F0F)
    # 64-bit: two half-warps of 8 active lanes on disjoint banks
    add(f"{kind}64_two_halves_disjoint_banks", f"{kind}.64", [(i % 16) * 8 + (i // 16) * 64 for i in L],
        mask=0x00FF00FF)
    # 64-bit: the same swizzle with 8-byte chunks in 64-byte rows
    op = f"{kind}.64"
    add(f"{kind}64_col_noswizzle", op, [i * 64 for i in L])
    add(f"{kind}64_col_swizzle", op, [i * 64 + ((i % 8) * 8) for i in L])
    add(f"{kind}64_pairs_neighbour_rows", op, [(i // 2) * 256 + (i % 2) * 8 for i in L])

def matrix_rows(op, tag, used):
    """A function adding one pattern of an 8x8-matrix instruction (ldmatrix, stmatrix): lanes 0..used-1 give the row
    addresses fn(lane); the lanes past them repeat those (unused="repeat") or point far away at conflicting addresses
    (unused="far"), which the hardware ignores."""
    def row(name, fn, unused="repeat"):
        lanes = []
        for i in L:
            if i < used:
                lanes.append(fn(i))
            elif unused == "repeat":
                lanes.append(fn(i % used))
            else:
                lanes.append(8192 + i * 128)
        add(f"{tag}_{name}", op, lanes)
    return row


def matrix_families(row, count, extra=()):
    """The patterns every 8x8-matrix instruction is measured on, through `row` (matrix_rows'), with `extra` families
    after the broadcast."""
    # matrices one after another, rows contiguous (conflict-free)
    row("contig", lambda i: i * 16)
    # mma A-fragment addressing: row i%16, column block i//16, in a tile with row stride S bytes
    for s in (32, 64, 128, 144, 256):
        row(f"rowstride{s}", lambda i, s=s: (i % 16) * s + (i // 16) * 16)
    # the same in a 128-byte-row tile with the chunk XOR swizzle
    row("rowstride128_swizzle", lambda i: (i % 16) * 128 + (((i // 16) ^ (i % 8)) * 16))
    # all rows of a matrix one address (a broadcast on loads; several lanes storing the same 16 bytes)
    row("bcast_rows", lambda i: (i // 8) * 16)
    for name, fn in extra:
        row(name, fn)
    if count > 1:
        row("same_matrix", lambda i: (i % 8) * 16)  # every matrix the same 8 rows
    if count < 4:
        row("contig_unused_far", lambda i: i * 16, unused="far")


# ----------------------------------------------------------------------------------------------------------------
# ldmatrix: lanes 8m..8m+7 give the row addresses of matrix m (16 bytes each)
# ----------------------------------------------------------------------------------------------------------------
for count in (1, 2, 4):
    for trans in (False, True):
        op = f"ldsm.x{count}" + (".trans" if trans else "")
        tag = f"ldsm_x{count}" + ("_t" if trans else "")
        used = 8 * count

        matrix_families(matrix_rows(op, tag, used), count)

# ----------------------------------------------------------------------------------------------------------------
# Global loads and stores: ldg/stg x 32/64/128 (offsets from a 4 KiB-aligned buffer)
# ----------------------------------------------------------------------------------------------------------------
for kind in ("ldg", "stg"):
    for w in (4, 8, 16):
        op = f"{kind}.{w * 8}"
        extra = {4: [], 8: [24], 16: [48]}[w]
        for s in sorted(set([s for s in STRIDES if s % w == 0] + extra + [4096])):
            add(f"{kind}{w*8}_stride{s}", op, [i * s for i in L])
        add(f"{kind}{w*8}_contig_off{w}", op, [w + i * w for i in L])          # misaligned to the line
        add(f"{kind}{w*8}_bcast_all", op, [256 for i in L])
        add(f"{kind}{w*8}_bcast_pairs", op, [(i // 2) * w for i in L])
        add(f"{kind}{w*8}_reversed", op, [(31 - i) * w for i in L])
        add(f"{kind}{w*8}_contig_mask0000ffff", op, [i * w for i in L], mask=0x0000FFFF)
        add(f"{kind}{w*8}_contig_mask55555555", op, [i * w for i in L], mask=0x55555555)
        add(f"{kind}{w*8}_contig_mask00000001", op, [i * w for i in L], mask=0x00000001)
        rnd = random.Random(500 + w + (0 if kind == "ldg" else 50))
        add(f"{kind}{w*8}_random", op, [rnd.randrange(0, 8192 // w) * w for i in L])

# ----------------------------------------------------------------------------------------------------------------
# cp.async: global source (lanes) and shared destination (shared_lanes)
# ----------------------------------------------------------------------------------------------------------------
for w, variant in ((4, "ca"), (8, "ca"), (16, "ca"), (16, "cg")):
    op = f"cp.async.{w}"
    tag = f"cpasync{w}_{variant}"
    contig = [i * w for i in L]
    add(f"{tag}_contig", op, contig, shared_lanes=contig, variant=variant)
    add(f"{tag}_smem_stride128", op, contig, shared_lanes=[i * 128 for i in L], variant=variant)
    add(f"{tag}_gmem_stride128", op, [i * 128 for i in L], shared_lanes=contig, variant=variant)
    add(f"{tag}_gmem_bcast", op, [0 for i in L], shared_lanes=contig, variant=variant)
    add(f"{tag}_mask0000ffff", op, contig, shared_lanes=contig, mask=0x0000FFFF, variant=variant)
    if w == 16:
        # a GEMM tile load: global rows of 128 bytes (8 lanes per row), shared rows of 128 / 144 bytes / swizzled
        g = [(i // 8) * 4096 + (i % 8) * 16 for i in L]
        add(f"{tag}_tile_row128", op, g, shared_lanes=[(i // 8) * 128 + (i % 8) * 16 for i in L], variant=variant)
        add(f"{tag}_tile_col_pad0", op, g, shared_lanes=[(i % 8) * 512 + (i // 8) * 16 for i in L],
            variant=variant)
        add(f"{tag}_tile_col_pad16", op, g, shared_lanes=[(i % 8) * 528 + (i // 8) * 16 for i in L],
            variant=variant)
        add(f"{tag}_tile_col_swizzle", op, g,
            shared_lanes=[(i % 8) * 128 + (((i // 8) ^ (i % 8)) * 16) for i in L], variant=variant)
        add(f"{tag}_smem_stride32", op, contig, shared_lanes=[i * 32 for i in L], variant=variant)
    else:
        add(f"{tag}_smem_stride{2*w}", op, contig, shared_lanes=[i * 2 * w for i in L], variant=variant)
        add(f"{tag}_smem_bcast_pairs", op, contig, shared_lanes=[(i // 2) * w for i in L], variant=variant)

# ----------------------------------------------------------------------------------------------------------------
# Follow-ups after the first run (docs/memory-model.md): the load-side pair rule and the cp.async data path
# ----------------------------------------------------------------------------------------------------------------
# Pair rule: does a load merge groups when lanes n and n^1 (or n and n^2) share an address, for every active lane?
# half 0 paired by n^1, half 1 paired by n^2: neither rule holds for the whole warp
mixed = [((i // 2) * 16 if i < 16 else 256 + (((i - 16) >> 2) * 2 + (i & 1)) * 16) for i in L]
add("lds128_pairs_mixed_xor1_xor2", "lds.128", mixed)
add("lds64_pairs_mixed_xor1_xor2", "lds.64", [x // 2 for x in mixed])
# n^1 pairs everywhere but one lane breaks its pair
brk = [(i // 2) * 16 for i in L]
brk[5] = 1024
add("lds128_pairs_xor1_one_broken", "lds.128", brk)
add("lds64_pairs_xor1_one_broken", "lds.64", [x // 2 for x in brk])
# lanes n and n^4 share (not a pair the rule knows)
add("lds128_pairs_xor4", "lds.128", [(i & ~4) * 16 for i in L])
add("lds64_pairs_xor4", "lds.64", [(i & ~4) * 8 for i in L])
# n^1 pairs whose two quarters hit the same banks (distinct words): half-warp mode costs the same, but ncu's ideal
# (one per group) differs: 2 conflicts if merged, 0 if not
add("lds128_pairs_xor1_quarters_conflict", "lds.128", [((i // 2) % 4) * 16 + ((i // 8) % 2) * 128 + (i // 16) * 512
                                                       for i in L])
add("sts128_pairs_xor1_quarters_conflict", "sts.128", [((i // 2) % 4) * 16 + ((i // 8) % 2) * 128 + (i // 16) * 512
                                                       for i in L])
# n^2 partners inactive (vacuous n^2 rule), contiguous: merged -> 1 conflict (ideal 1), not merged -> 0
add("lds64_contig_mask33333333", "lds.64", [i * 8 for i in L], mask=0x33333333)
add("sts64_contig_mask33333333", "sts.64", [i * 8 for i in L], mask=0x33333333)
add("lds128_contig_mask33333333", "lds.128", [i * 16 for i in L], mask=0x33333333)
add("lds128_contig_mask00ffffff", "lds.128", [i * 16 for i in L], mask=0x00FFFFFF)
add("lds128_contig_mask0000000f", "lds.128", [i * 16 for i in L], mask=0x0000000F)
add("lds128_bcast_pairs_mask0000ffff", "lds.128", [(i // 2) * 16 for i in L], mask=0x0000FFFF)

# cp.async: which global/shared layouts keep one wavefront per 128 bytes, for .ca (L1-allocating) and .cg (bypass)
for w, variant in ((16, "ca"), (16, "cg")):
    op = f"cp.async.{w}"
    tag = f"cpasync{w}_{variant}"
    contig = [i * 16 for i in L]
    add(f"{tag}_smem_shift16", op, contig, shared_lanes=[16 + i * 16 for i in L], variant=variant)
    add(f"{tag}_smem_shift128", op, contig, shared_lanes=[128 + i * 16 for i in L], variant=variant)
    add(f"{tag}_smem_shift4096", op, contig, shared_lanes=[4096 + i * 16 for i in L], variant=variant)
    add(f"{tag}_gmem_shift16", op, [16 + i * 16 for i in L], shared_lanes=contig, variant=variant)
    add(f"{tag}_both_shift16", op, [16 + i * 16 for i in L], shared_lanes=[16 + i * 16 for i in L], variant=variant)
    add(f"{tag}_smem_swap_pairs", op, contig, shared_lanes=[(i ^ 1) * 16 for i in L], variant=variant)
    add(f"{tag}_smem_reversed", op, contig, shared_lanes=[(31 - i) * 16 for i in L], variant=variant)
    add(f"{tag}_smem_rows_reversed", op, contig, shared_lanes=[(3 - i // 8) * 128 + (i % 8) * 16 for i in L],
        variant=variant)
    add(f"{tag}_smem_rows_stride256", op, contig, shared_lanes=[(i // 8) * 256 + (i % 8) * 16 for i in L],
        variant=variant)
    add(f"{tag}_smem_rows_stride144", op, contig, shared_lanes=[(i // 8) * 144 + (i % 8) * 16 for i in L],
        variant=variant)
    add(f"{tag}_smem_halfrows_swapped", op, contig,
        shared_lanes=[(i // 8) * 128 + ((i % 8) ^ 4) * 16 for i in L], variant=variant)
    add(f"{tag}_gmem_swap_pairs", op, [(i ^ 1) * 16 for i in L], shared_lanes=contig, variant=variant)
    add(f"{tag}_gmem_stride32", op, [i * 32 for i in L], shared_lanes=contig, variant=variant)
    add(f"{tag}_gmem_stride64", op, [i * 64 for i in L], shared_lanes=contig, variant=variant)
    add(f"{tag}_gmem_bcast_pairs", op, [(i // 2) * 16 for i in L], shared_lanes=contig, variant=variant)
    add(f"{tag}_gmem_bcast_groups8", op, [(i // 8) * 128 for i in L], shared_lanes=contig, variant=variant)
    add(f"{tag}_gmem_rows_smem_swizzle", op, [(i // 8) * 4096 + (i % 8) * 16 for i in L],
        shared_lanes=[(i // 8) * 128 + (((i % 8) ^ (i // 8)) * 16) for i in L], variant=variant)
    add(f"{tag}_mask0f0f0f0f", op, contig, shared_lanes=contig, mask=0x0F0F0F0F, variant=variant)
for w in (4, 8):
    op = f"cp.async.{w}"
    tag = f"cpasync{w}_ca"
    contig = [i * w for i in L]
    add(f"{tag}_smem_reversed", op, contig, shared_lanes=[(31 - i) * w for i in L], variant="ca")
    add(f"{tag}_gmem_stride32", op, [i * 32 for i in L], shared_lanes=contig, variant="ca")
    add(f"{tag}_gmem_bcast_pairs", op, [(i // 2) * w for i in L], shared_lanes=contig, variant="ca")
    add(f"{tag}_smem_shift{w}", op, contig, shared_lanes=[w + i * w for i in L], variant="ca")

# The copies rung 8 (cp-async) issues, one warp of its tile loads, K = 1024 floats: A's tile rows are 32 bytes
# (bk = 8 floats), so a quarter-warp's 8 lanes copy 4 rows from 4 different lines, two lanes per 32-byte sector;
# shared rows are 32 bytes (a_pad 0) or 48 (a_pad 4). And the 4-byte path for a K that is not a multiple of 4.
a_rows = [(i // 2) * 4096 + (i % 2) * 16 for i in L]
for variant in ("ca", "cg"):
    add(f"cpasync16_{variant}_gemm_a_tile", "cp.async.16", a_rows, shared_lanes=[i * 16 for i in L], variant=variant)
    add(f"cpasync16_{variant}_gemm_a_tile_pad4", "cp.async.16", a_rows,
        shared_lanes=[(i // 2) * 48 + (i % 2) * 16 for i in L], variant=variant)
add("cpasync4_ca_gemm_a_tile_k1023", "cp.async.4", [((i // 8) * 1023 + i % 8) * 4 for i in L],
    shared_lanes=[i * 4 for i in L], variant="ca")

# ----------------------------------------------------------------------------------------------------------------
# stmatrix (sm_90, STSM): ldmatrix's store. Lanes 8m..8m+7 give the row addresses of matrix m (16 bytes each), the
# same addressing as ldmatrix; the same families, plus the C epilogue's fragment and a row written twice.
# ----------------------------------------------------------------------------------------------------------------
for count in (1, 2, 4):
    for trans in (False, True):
        op = f"stsm.x{count}" + (".trans" if trans else "")
        tag = f"stsm_x{count}" + ("_t" if trans else "")
        used = 8 * count

        # rows 0 and 4 of every matrix one address (rows 128 bytes apart otherwise): one row written twice
        matrix_families(matrix_rows(op, tag, used), count,
                        extra=[("same_row_twice", lambda i: (i // 8) * 16 + ((i % 8) % 4) * 128)])


def main():
    names = set()
    for name, op, mask, lanes, sl, variant in rows:
        assert name not in names, f"duplicate pattern name {name}"
        names.add(name)
        w = lane_bytes(op)
        shared = op.startswith(("lds", "sts", "ldsm", "stsm"))
        lim = SMEM_LIMIT if shared else GMEM_LIMIT
        for a in lanes:
            assert a % w == 0 and 0 <= a and a + w <= lim, (name, a)
        if sl is not None:
            for a in sl:
                assert a % w == 0 and 0 <= a and a + w <= SMEM_LIMIT, (name, a)
        if op.startswith(("ldsm", "stsm")):
            assert mask == FULL
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "patterns.csv")
    with open(out, "w") as f:
        f.write("name,op,mask,lanes,shared_lanes,variant\n")
        for name, op, mask, lanes, sl, variant in rows:
            f.write(f"{name},{op},0x{mask:08x},{' '.join(map(str, lanes))},"
                    f"{' '.join(map(str, sl)) if sl is not None else ''},{variant}\n")
    print(f"wrote {len(rows)} patterns to {out}")


if __name__ == "__main__":
    main()
