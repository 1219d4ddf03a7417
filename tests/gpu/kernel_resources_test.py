#!/usr/bin/env python3
"""scripts/kernel_resources.py's SASS reading, on made-up SASS: the loops a function's backward branches close, nested
and side by side, and a rarely taken path placed after the function's end that jumps back into a loop (ptxas does that
for an mbarrier wait's retry), which is not a loop of its own. Run by ctest (gpu.kernel_resources_reads_sass)."""
import pathlib
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "scripts"))
import kernel_resources as k  # noqa: E402

SASS = """
arch = sm_90
        Function : _Z6kernelv
        /*0000*/                   MOV R1, c[0x0][0x28] ;
        /*0010*/                   FFMA R2, R3, R4, R2 ;
        /*0020*/                   LDS.128 R4, [R5] ;
        /*0030*/              @P0 BRA 0x10 ;
        /*0040*/                   STG.E.64 desc[UR4][R6.64], R2 ;
        /*0050*/                   EXIT ;
        /*0060*/                   SYNCS.PHASECHK.TRANS64.TRYWAIT P0, [UR4], R0 ;
        /*0070*/              @!P0 BRA 0x60 ;
        /*0080*/                   BRA 0x20 ;
        /*0090*/                   BRA 0x90;
        /*00a0*/                   NOP;
"""


def check(condition, what):
    if not condition:
        print("FAILED: " + what, file=sys.stderr)
        sys.exit(1)


def main():
    functions = k.sass_functions(SASS)
    check(list(functions) == [("_Z6kernelv", "sm_90")], "one function, of its architecture: %s" % list(functions))
    regions = k.sass_regions(functions[("_Z6kernelv", "sm_90")])
    ffma, lds, stg = (k.ANCHORS.index(a) for a in ("FFMA", "LDS", "STG"))
    # Region 0: MOV, STG, EXIT, the retry's branch back into the loop (not a loop: it crosses the loop's end); the
    # closing branch to itself and the NOP are not work. Region 1: the k-loop, FFMA, LDS and its branch. Region 2: the
    # retry's own spin loop, beside the k-loop.
    check(len(regions) == 3, "three regions: %s" % regions)
    check(regions[0][0] == -1 and regions[0][1] == 4 and regions[0][2][stg] == 1, "region 0: %s" % (regions[0],))
    check(regions[1] == (0, 3, regions[1][2]) and regions[1][2][ffma] == 1 and regions[1][2][lds] == 1,
          "the k-loop: %s" % (regions[1],))
    check(regions[2][:2] == (0, 2), "the spin loop: %s" % (regions[2],))
    # Nested loops: the inner one's parent is the outer one, which comes first.
    nested = [(0, "MOV", None), (16, "FFMA", None), (32, "BRA", 16), (48, "LDS", None), (64, "BRA", 0), (80, "EXIT", None)]
    check([r[:2] for r in k.sass_regions(nested)] == [(-1, 1), (0, 3), (1, 2)], "nested: %s" % k.sass_regions(nested))
    print("kernel_resources.py reads SASS as expected")


if __name__ == "__main__":
    main()
