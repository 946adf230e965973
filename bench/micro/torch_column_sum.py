"""torch.sum(x, 0) and a device copy of an 8192 x 8192 f32 matrix, timed
with CUDA events (median of 25 after warm-up): the peer of column_sum.cu."""
import torch

x = torch.rand(8192, 8192, device="cuda")
y = torch.empty_like(x)


def median(fn, reps=25):
    for _ in range(5):
        fn()
    start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    times = []
    for _ in range(reps):
        start.record()
        fn()
        stop.record()
        stop.synchronize()
        times.append(start.elapsed_time(stop) * 1000)
    return sorted(times)[reps // 2]


copy = median(lambda: y.copy_(x))
copy_bw = 2 * x.nbytes / copy / 1e3
for name, fn in [("torch sum(0)", lambda: x.sum(0)),
                 ("torch sum(1)", lambda: x.sum(1))]:
    us = median(fn)
    print(f"{name}: {us:.1f} us, {x.nbytes / us / 1e3 / copy_bw:.3f} of copy "
          f"(copy {copy:.1f} us, {copy_bw:.0f} GB/s)")
