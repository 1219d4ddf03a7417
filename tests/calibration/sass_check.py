#!/usr/bin/env python3
"""Checks the SASS of the calibration probe: every probe kernel issues exactly ONE instance of the probed memory
instruction and no other instruction of the same counter class.

Usage: cuobjdump -sass probe | python3 sass_check.py      (exit 1 on a violation)

Allowed besides the probed instruction:
  - one STG (the result of a load probe goes to global memory) in lds/ldsm/ldg probes (stsm probes, stores, have
    none) (for ldg probes the store is
    counted under op_st, which is not read for them);
  - '@!PT LDS RZ, [RZ]' in cp.async probes: ptxas puts three of these never-executed (guard predicate !PT = false)
    instructions before LDGSTS; they issue no shared request (the measured op_ld counters of the cp.async rows
    confirm 0).
"""
import re
import sys

MEM = re.compile(r"^\s*/\*[0-9a-f]+\*/\s+(@!?U?P[T0-9]+\s+)?([A-Z0-9_]+)(\.[A-Z0-9_.]+)?\s+(.*?);")

# kernel (mangled-name pattern) -> (probed opcode+suffix, allowed extra opcodes {opcode: max count})
EXPECT = [
    (r"probe_ldsILi4E", "LDS", {"STG.E": 1}),
    (r"probe_ldsILi8E", "LDS.64", {"STG.E": 1}),
    (r"probe_ldsILi16E", "LDS.128", {"STG.E": 1}),
    (r"probe_stsILi4E", "STS", {}),
    (r"probe_stsILi8E", "STS.64", {}),
    (r"probe_stsILi16E", "STS.128", {}),
    (r"probe_ldgILi4E", "LDG.E", {"STG.E": 1}),
    (r"probe_ldgILi8E", "LDG.E.64", {"STG.E": 1}),
    (r"probe_ldgILi16E", "LDG.E.128", {"STG.E": 1}),
    (r"probe_stgILi4E", "STG.E", {}),
    (r"probe_stgILi8E", "STG.E.64", {}),
    (r"probe_stgILi16E", "STG.E.128", {}),
    (r"probe_ldsmILi1ELb0E", "LDSM.16.M88", {"STG.E": 1}),
    (r"probe_ldsmILi1ELb1E", "LDSM.16.MT88", {"STG.E": 1}),
    (r"probe_ldsmILi2ELb0E", "LDSM.16.M88.2", {"STG.E": 1}),
    (r"probe_ldsmILi2ELb1E", "LDSM.16.MT88.2", {"STG.E": 1}),
    (r"probe_ldsmILi4ELb0E", "LDSM.16.M88.4", {"STG.E": 1}),
    (r"probe_ldsmILi4ELb1E", "LDSM.16.MT88.4", {"STG.E": 1}),
    (r"probe_stsmILi1ELb0E", "STSM.16.M88", {}),
    (r"probe_stsmILi1ELb1E", "STSM.16.MT88", {}),
    (r"probe_stsmILi2ELb0E", "STSM.16.M88.2", {}),
    (r"probe_stsmILi2ELb1E", "STSM.16.MT88.2", {}),
    (r"probe_stsmILi4ELb0E", "STSM.16.M88.4", {}),
    (r"probe_stsmILi4ELb1E", "STSM.16.MT88.4", {}),
    (r"probe_cpasyncILi4ELb0E", "LDGSTS.E", {}),
    (r"probe_cpasyncILi8ELb0E", "LDGSTS.E.64", {}),
    (r"probe_cpasyncILi16ELb0E", "LDGSTS.E.128", {}),
    (r"probe_cpasyncILi16ELb1E", "LDGSTS.E.BYPASS.128", {}),
]

# opcodes that touch shared or global memory (LDC/ULDC read the constant bank: not counted here)
MEM_OPS = {"LDS", "STS", "LDSM", "STSM", "LDG", "STG", "LDGSTS", "LD", "ST", "LDL", "STL", "ATOM", "ATOMS", "ATOMG",
           "RED", "REDG", "UBLKCP", "UTMALDG", "UTMASTG", "LDGDEPBAR"}


def main():
    text = sys.stdin.read()
    funcs = {}
    cur = None
    for line in text.splitlines():
        m = re.match(r"\s*Function : (\S+)", line)
        if m:
            cur = m.group(1)
            funcs[cur] = []
            continue
        if cur is None:
            continue
        m = MEM.match(line)
        if not m:
            continue
        pred, opc, suf, operands = m.group(1) or "", m.group(2), m.group(3) or "", m.group(4)
        if opc in MEM_OPS:
            funcs[cur].append((pred.strip(), opc + suf, operands))
    bad = 0
    seen = 0
    for pat, probed, extra in EXPECT:
        names = [f for f in funcs if re.search(pat, f)]
        if len(names) != 1:
            print(f"FAIL {pat}: found {len(names)} kernels")
            bad += 1
            continue
        seen += 1
        ins = funcs[names[0]]
        counts = {}
        problems = []
        for pred, op, operands in ins:
            if op == "LDGDEPBAR":
                continue
            if pred == "@!PT" and op == "LDS" and operands.startswith("RZ, [RZ]"):
                continue  # never executed
            counts[op] = counts.get(op, 0) + 1
        if counts.get(probed, 0) != 1:
            problems.append(f"{counts.get(probed, 0)} x {probed}")
        for op, n in counts.items():
            if op == probed:
                continue
            if n > extra.get(op, 0):
                problems.append(f"unexpected {n} x {op}")
        status = "ok  " if not problems else "FAIL"
        bad += bool(problems)
        print(f"{status} {names[0]:<34} {probed:<20} all memory ops: {sorted(counts.items())}"
              + ("" if not problems else "  <- " + "; ".join(problems)))
    print(f"sass_check: {seen} kernels checked, {bad} failing")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
