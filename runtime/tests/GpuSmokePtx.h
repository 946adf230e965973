//===- GpuSmokePtx.h - PTX kernel of ptensor-runtime-gpu-smoke -*- C++ -*-===//

#ifndef PTENSOR_RUNTIME_TESTS_GPUSMOKEPTX_H
#define PTENSOR_RUNTIME_TESTS_GPUSMOKEPTX_H

/// out[i] = in[i] + 1.0f for i < n. Plain PTX so the driver JIT-compiles it
/// for whatever GPU is present.
inline constexpr char kPtx[] = R"(
.version 7.0
.target sm_50
.address_size 64
.visible .entry ptensor_smoke_add_one(.param .u64 in, .param .u64 out,
                                      .param .u32 n) {
  .reg .pred %p;
  .reg .b32 %r<6>;
  .reg .f32 %f<3>;
  .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [in];
  ld.param.u64 %rd2, [out];
  ld.param.u32 %r1, [n];
  mov.u32 %r2, %ctaid.x;
  mov.u32 %r3, %ntid.x;
  mov.u32 %r4, %tid.x;
  mad.lo.s32 %r5, %r2, %r3, %r4;
  setp.ge.u32 %p, %r5, %r1;
  @%p bra DONE;
  cvta.to.global.u64 %rd3, %rd1;
  cvta.to.global.u64 %rd4, %rd2;
  mul.wide.u32 %rd5, %r5, 4;
  add.s64 %rd6, %rd3, %rd5;
  add.s64 %rd7, %rd4, %rd5;
  ld.global.f32 %f1, [%rd6];
  add.f32 %f2, %f1, 0f3F800000;
  st.global.f32 [%rd7], %f2;
DONE:
  ret;
}
)";

#endif // PTENSOR_RUNTIME_TESTS_GPUSMOKEPTX_H
