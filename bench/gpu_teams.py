#!/usr/bin/env python3
"""GPU team collectives: ptensor's all-reduce, gather and rows moved
between GPU blocks through NCCL and through host buffers, beside torch.distributed (NCCL) in
the same run (docs/Teams.md, "GPU teams").

    gpu_teams.py [--processes 2] [--rows 8192] [--cols 4096] [--repeat 20]

Run where ptensor-runner and libptensor_team are on PATH and
LD_LIBRARY_PATH (scripts/gpu-runner-pack.sh gpu-teams-bench), on a machine
with a GPU per process. Each process of an `mpirun -np P` job sees only
its own GPU (CUDA_VISIBLE_DEVICES by Open MPI's local rank).

Cases, a ROWS x COLS float32 team tensor split by rows:
  colsum    sum over the split dim: each process's f64 column sums
            all-reduced (COLS x 8 bytes)
  gathered  a copy out of the team: every block gathered on every process
            (ROWS x COLS x 4 bytes)
  rolled    roll by ROWS/2 along the split dim (team_slice_rows of two
            slices of step 1): each process's rows go to the process
            P/2 ahead (ROWS x COLS x 4 / P bytes sent by each)
  flipped   flip along the split dim (team_slice_rows of step -1: each
            process packs its rows reversed with one copy kernel, then
            they go to the mirror process P-1-rank)
  transposed  a.T (team_resplit: each process sends each other that one's
            columns of its rows, NCCL lands them packed, a strided copy
            places them)
ptensor-runner --repeat times whole calls (kernels, the collective, the
result's allocation), median of REPEAT after the first; PTENSOR_TEAM_NCCL
picks the transport (1: NCCL, 0: host buffers). torch's rows time
torch.distributed.all_reduce of the COLS f64 sums and
all_gather_into_tensor of the blocks and all_to_all_single of each block
to the process P/2 ahead alone, and torch.flip of each block and its
all_to_all_single to the mirror process, and a transpose as torch users
write it (the columns for each process made contiguous, all_to_all_single,
the received parts joined: two copies and the exchange) (CUDA events,
median), on the same
processes and GPUs. Prints one JSON line.
"""

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

import numpy as np

T = '!ptensor.ptensor<?x?xf32, device = "cuda", team = 1>'
MODULE_TEMPLATE = """
func.func @colsum(%a: {T}) -> !ptensor.ptensor<?xf32, device = "cuda", team = 1> {{
  %0 = ptensor.reduce sum %a axes [0] : {T} -> !ptensor.ptensor<?xf32, device = "cuda", team = 1>
  return %0 : !ptensor.ptensor<?xf32, device = "cuda", team = 1>
}}
func.func @gathered(%a: {T}) -> !ptensor.ptensor<?x?xf32, device = "cuda"> {{
  %0 = ptensor.copy %a : {T} -> !ptensor.ptensor<?x?xf32, device = "cuda">
  return %0 : !ptensor.ptensor<?x?xf32, device = "cuda">
}}
func.func @rolled(%a: {T}) -> {T} {{
  %0 = ptensor.roll %a shifts [{shift}] axes [0] : {T} -> {T}
  return %0 : {T}
}}
func.func @flipped(%a: {T}) -> {T} {{
  %0 = ptensor.flip %a [0] : {T} -> {T}
  return %0 : {T}
}}
func.func @transposed(%a: {T}) -> {T} {{
  %0 = ptensor.permute_dims %a [1, 0] : {T} -> {T}
  return %0 : {T}
}}
"""

# Each process its own GPU (Open MPI's local rank).
OWN_GPU = ["sh", "-c",
           'CUDA_VISIBLE_DEVICES="$OMPI_COMM_WORLD_LOCAL_RANK" exec "$@"', "sh"]


def ptensor_case(tmp, args, entry, nccl):
    command = ["mpirun", "-np", str(args.processes), *OWN_GPU, "ptensor-runner",
               os.path.join(tmp, "teams.mlir"), "-e", entry,
               "--input", os.path.join(tmp, "a.npy"),
               "--repeat", str(args.repeat), "--report-latency"]
    env = dict(os.environ, PTENSOR_TEAM_NCCL="1" if nccl else "0")
    done = subprocess.run(command, capture_output=True, text=True, env=env,
                          timeout=300)
    if done.returncode != 0:
        sys.exit(f"{' '.join(command)} failed:\n{done.stdout}{done.stderr}")
    wanted = "nccl" if nccl else "host"
    said = set(re.findall(r"GPU data through (\w+)", done.stderr))
    if said != {wanted}:
        sys.exit(f"{entry}: expected every process's GPU data through "
                 f"{wanted}, but the runner said {sorted(said)}")
    times = [float(t) for t in
             re.findall(r"median of \d+ calls: ([0-9.]+) ms", done.stderr)]
    return max(times)  # the slowest process's median


def torch_peer(args):
    """One process of the torch.distributed peer (under mpirun)."""
    import torch
    import torch.distributed as dist

    rank = int(os.environ["OMPI_COMM_WORLD_RANK"])
    size = int(os.environ["OMPI_COMM_WORLD_SIZE"])
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    os.environ.setdefault("MASTER_PORT", "29533")
    torch.cuda.set_device(0)  # this process's only visible GPU
    dist.init_process_group("nccl", rank=rank, world_size=size)
    rows = args.rows // size  # even blocks (NCCL's all-gather wants them)
    block = torch.rand(rows, args.cols, device="cuda")
    whole = torch.empty(rows * size, args.cols, device="cuda")
    sums = torch.rand(args.cols, device="cuda", dtype=torch.float64)

    def median_ms(step):
        for _ in range(3):
            step()
        times = []
        for _ in range(args.repeat):
            start = torch.cuda.Event(enable_timing=True)
            end = torch.cuda.Event(enable_timing=True)
            start.record()
            step()
            end.record()
            end.synchronize()
            times.append(start.elapsed_time(end))
        return sorted(times)[len(times) // 2]

    reduce_ms = median_ms(lambda: dist.all_reduce(sums))
    gather_ms = median_ms(lambda: dist.all_gather_into_tensor(whole, block))
    # The roll by ROWS/2 of even blocks: each block whole to rank + P/2.
    target, source = (rank + size // 2) % size, (rank - size // 2) % size
    sent = [rows if p == target else 0 for p in range(size)]
    received = [rows if p == source else 0 for p in range(size)]
    moved = torch.empty_like(block)
    roll_ms = median_ms(lambda: dist.all_to_all_single(
        moved, block, output_split_sizes=received, input_split_sizes=sent))
    # The flip of even blocks: each block reversed, whole to the mirror.
    mirror = size - 1 - rank
    mirrored = [rows if p == mirror else 0 for p in range(size)]
    flip_ms = median_ms(lambda: dist.all_to_all_single(
        moved, torch.flip(block, [0]), output_split_sizes=mirrored,
        input_split_sizes=mirrored))
    # The transpose: this process's columns for each other made contiguous
    # ([P][COLS/P][rows]), exchanged, and joined into its block of a.T.
    received_t = torch.empty(size, args.cols // size, rows, device="cuda")

    def transpose():
        parts = block.view(rows, size, args.cols // size).permute(1, 2, 0)
        dist.all_to_all_single(received_t, parts.contiguous())
        return received_t.permute(1, 0, 2).reshape(args.cols // size,
                                                   size * rows)

    transpose_ms = median_ms(transpose)
    mine = torch.tensor([reduce_ms, gather_ms, roll_ms, flip_ms,
                         transpose_ms], device="cuda")
    dist.all_reduce(mine, op=dist.ReduceOp.MAX)
    if rank == 0:
        print(json.dumps({"allreduce_ms": mine[0].item(),
                          "allgather_ms": mine[1].item(),
                          "alltoall_ms": mine[2].item(),
                          "flip_alltoall_ms": mine[3].item(),
                          "transpose_ms": mine[4].item()}))
    dist.destroy_process_group()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--rows", type=int, default=8192)
    parser.add_argument("--cols", type=int, default=4096)
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--torch-peer", action="store_true",
                        help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.torch_peer:
        return torch_peer(args)
    result = {"processes": args.processes, "rows": args.rows,
              "cols": args.cols, "gathered_bytes": args.rows * args.cols * 4}
    with tempfile.TemporaryDirectory() as tmp:
        with open(os.path.join(tmp, "teams.mlir"), "w") as f:
            f.write(MODULE_TEMPLATE.format(T=T, shift=args.rows // 2))
        a = np.random.default_rng(0).random((args.rows, args.cols),
                                            dtype=np.float32)
        np.save(os.path.join(tmp, "a.npy"), a)
        for entry in ("colsum", "gathered", "rolled", "flipped",
                      "transposed"):
            for nccl in (True, False):
                key = f"ptensor_{entry}_{'nccl' if nccl else 'host'}_ms"
                result[key] = ptensor_case(tmp, args, entry, nccl)
    peer = subprocess.run(
        ["mpirun", "-np", str(args.processes), *OWN_GPU, sys.executable,
         os.path.abspath(__file__), "--torch-peer", "--rows", str(args.rows),
         "--cols", str(args.cols), "--repeat", str(args.repeat)],
        capture_output=True, text=True, timeout=300)
    if peer.returncode == 0 and peer.stdout.strip():
        torch_result = json.loads(peer.stdout.strip().splitlines()[-1])
        result["torch_allreduce_ms"] = torch_result["allreduce_ms"]
        result["torch_allgather_ms"] = torch_result["allgather_ms"]
        result["torch_alltoall_ms"] = torch_result["alltoall_ms"]
        result["torch_flip_alltoall_ms"] = torch_result["flip_alltoall_ms"]
        result["torch_transpose_ms"] = torch_result["transpose_ms"]
    else:
        result["torch_error"] = (peer.stdout + peer.stderr)[-2000:]
    print(json.dumps(result))


if __name__ == "__main__":
    main()
