#!/usr/bin/env bash
# tests/calibration/ncu_global_loads.sh OUTDIR: ON THE GPU MACHINE, ncu's L1 counters of timing.cu's global-load probes
# (requests, sectors, data-pipe wavefronts, cycles): that each request costs one wavefront per line. Writes
# OUTDIR/ncu-probe.csv (kept: tests/calibration/ncu_global_loads.csv, 2026-11-24T13:17Z; ncu_global_loads_constant_mask.csv
# is the same run of the first version, whose constant address mask let ptxas drop the repeated loads).
set -u
out=${1:?usage: ncu_global_loads.sh OUTDIR}
source "$(dirname "$0")/ncu_common.sh"
nvcc -arch=sm_90 -O3 -std=c++17 -o /tmp/timing tests/calibration/timing.cu || exit 1
m=l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__data_pipe_lsu_wavefronts.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,l1tex__t_sector_hit_rate.pct,sm__cycles_elapsed.avg,smsp__inst_executed_op_global_ld.sum,l1tex__lsuin_requests.sum,l1tex__data_pipe_lsu_wavefronts.avg.pct_of_peak_sustained_elapsed
profile_run probe 300 $m --kernel-name regex:global_loads --launch-count 8 /tmp/timing
NCU_OUT=$out python3 - <<'PY'
import csv,os
rows=list(csv.reader(open(os.environ['NCU_OUT']+'/ncu-probe.csv')))
h=[i for i,r in enumerate(rows) if r and r[0]=='ID'][0]
hdr=rows[h]
for r in rows[h+1:]:
    d=dict(zip(hdr,r))
    print(d.get('Kernel Name','')[:60], d.get('Metric Name'), d.get('Metric Value'))
PY
