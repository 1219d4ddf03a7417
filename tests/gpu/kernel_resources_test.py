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


# A k-loop as ptxas unrolls naive-coalesced's: two loads a k-step, the FFMA chain using them a few loads later.
UNROLLED = """
arch = sm_90
        Function : _Z8unrolledv
        /*0000*/                   MOV R1, c[0x0][0x28] ;
        /*0010*/               @P1 LDG.E R21, desc[UR8][R14.64] ;
        /*0020*/               @P1 LDG.E R10, desc[UR8][R16.64+-0x8] ;
        /*0030*/                   LDG.E.64 R24, desc[UR8][R8.64] ;
        /*0040*/                   IADD3 R14, P2, R14, UR5, RZ ;
        /*0050*/                   FFMA R20, R21, R10, R20 ;
        /*0060*/                   LDG.E R11, desc[UR8][R16.64] ;
        /*0070*/                   FFMA R20, R24, R25, R20 ;
        /*0080*/                   FFMA R20, R11, R11, R20 ;
        /*0090*/                   STG.E desc[UR8][R16.64], R20 ;
        /*00a0*/                   LDG.E R30, desc[UR8][R16.64+0x40] ;
        /*00b0*/               @P2 BRA 0x10 ;
        /*00c0*/                   FADD R2, R30, R30 ;
        /*00d0*/                   EXIT ;
"""


def check_load_waits():
    instructions = k.sass_functions(UNROLLED)[("_Z8unrolledv", "sm_90")]
    ldg = instructions[3]
    check(ldg.opcode == "LDG" and ldg.modifiers == ".E.64" and ldg.operands == "R24, desc[UR8][R8.64]",
          "an instruction's modifiers and operands: %s" % (ldg,))
    check(k.written_and_read(ldg) == ([24, 25], [8, 9]), "a 64-bit load writes a pair: %s" % (k.written_and_read(ldg),))
    check(k.written_and_read(instructions[9]) == ([], [16, 17, 20]), "a store writes no register")
    regions = k.sass_regions(instructions)
    # The first FFMA waits for the three loads before it; the second FFMA's pair came with them; the third waits for
    # the load issued after the first wait. The load at the end of the pass is used after the loop: not in the pass.
    check(regions[1][3] == 2, "two waits a pass: %s" % (regions[1],))
    check(regions[0][3] == 0, "region 0 has no passes")
    # A load used in the next pass: its wait counts once a pass.
    carried = [(0, "LDG", None, ".E", "R4, desc[UR4][R2.64]"), (16, "FFMA", None, "", "R6, R4, R4, R6"),
               (32, "LDG", None, ".E", "R4, desc[UR4][R2.64+0x4]"), (48, "BRA", 16)]
    check(k.sass_regions(carried)[1][3] == 1, "a loop-carried load: %s" % (k.sass_regions(carried),))


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
    check(regions[1][:2] == (0, 3) and regions[1][2][ffma] == 1 and regions[1][2][lds] == 1 and regions[1][3] == 0,
          "the k-loop: %s" % (regions[1],))
    check(regions[2][:2] == (0, 2), "the spin loop: %s" % (regions[2],))
    # Nested loops: the inner one's parent is the outer one, which comes first.
    nested = [(0, "MOV", None), (16, "FFMA", None), (32, "BRA", 16), (48, "LDS", None), (64, "BRA", 0), (80, "EXIT", None)]
    check([r[:2] for r in k.sass_regions(nested)] == [(-1, 1), (0, 3), (1, 2)], "nested: %s" % k.sass_regions(nested))
    check_load_waits()
    print("kernel_resources.py reads SASS as expected")


if __name__ == "__main__":
    main()
