// RUN: ptensor-opt %s -split-input-file -verify-diagnostics

func.func @no_grid(%a: !ptensor.ptensor<4xf32>) -> !ptensor.ptensor<4xf32> {
  // expected-error @+1 {{expected @nowhere to name a shard.grid}}
  %0 = ptensor.team_all_reduce sum %a on @nowhere : !ptensor.ptensor<4xf32>
  return %0 : !ptensor.ptensor<4xf32>
}

// -----

shard.grid @g2(shape = 2x2) {sym_visibility = "private"}
func.func @grid_2d(%a: !ptensor.ptensor<4xf32>) -> !ptensor.ptensor<4xf32> {
  // expected-error @+1 {{expected the team's grid @g2 to have one static dim (the number of processes)}}
  %0 = ptensor.team_all_reduce sum %a on @g2 : !ptensor.ptensor<4xf32>
  return %0 : !ptensor.ptensor<4xf32>
}

// -----

shard.grid @g(shape = 2) {sym_visibility = "private"}
func.func @team_type(%a: !ptensor.ptensor<4xf32, team = 1>) -> !ptensor.ptensor<4xf32, team = 1> {
  // expected-error @+1 {{works on local blocks, but got the team tensor '!ptensor.ptensor<4xf32, team = 1>'}}
  %0 = ptensor.team_all_reduce sum %a on @g : !ptensor.ptensor<4xf32, team = 1>
  return %0 : !ptensor.ptensor<4xf32, team = 1>
}

// -----

shard.grid @g(shape = 2) {sym_visibility = "private"}
func.func @static_block(%a: !ptensor.ptensor<4x3xf32>) -> !ptensor.ptensor<2x3xf32> {
  // expected-error @+1 {{expected a dynamic first dim (the block's rows depend on the rank), but got '!ptensor.ptensor<2x3xf32>'}}
  %0 = ptensor.team_block %a on @g : !ptensor.ptensor<4x3xf32> -> !ptensor.ptensor<2x3xf32>
  return %0 : !ptensor.ptensor<2x3xf32>
}

// -----

shard.grid @g(shape = 2) {sym_visibility = "private"}
func.func @gather_shape(%a: !ptensor.ptensor<?x3xf32>, %n: index) -> !ptensor.ptensor<?x4xf32> {
  // expected-error @+1 {{expected a result of rank >= 1 that differs from '!ptensor.ptensor<?x3xf32>' only in its first dim, but got '!ptensor.ptensor<?x4xf32>'}}
  %0 = ptensor.team_gather %a, %n on @g : !ptensor.ptensor<?x3xf32> -> !ptensor.ptensor<?x4xf32>
  return %0 : !ptensor.ptensor<?x4xf32>
}

// -----

shard.grid @g(shape = 2) {sym_visibility = "private"}
func.func @slice_rows_static(%a: !ptensor.ptensor<?x3xf32>, %i: index) -> !ptensor.ptensor<2x3xf32> {
  // expected-error @+1 {{expected blocks (a dynamic first dim: the rows depend on the rank), but got '!ptensor.ptensor<2x3xf32>'}}
  %0 = ptensor.team_slice_rows %a, %i [%i, %i, %i] on @g : !ptensor.ptensor<?x3xf32> -> !ptensor.ptensor<2x3xf32>
  return %0 : !ptensor.ptensor<2x3xf32>
}

// -----

shard.grid @g(shape = 2) {sym_visibility = "private"}
func.func @slice_rows_other_dims(%a: !ptensor.ptensor<?x3xf32>, %i: index) -> !ptensor.ptensor<?x2xf32> {
  // expected-error @+1 {{expected a result of rank >= 1 that differs from '!ptensor.ptensor<?x3xf32>' only in its first dim, but got '!ptensor.ptensor<?x2xf32>'}}
  %0 = ptensor.team_slice_rows %a, %i [%i, %i, %i] on @g : !ptensor.ptensor<?x3xf32> -> !ptensor.ptensor<?x2xf32>
  return %0 : !ptensor.ptensor<?x2xf32>
}

// -----

shard.grid @g(shape = 2) {sym_visibility = "private"}
func.func @slice_rows_zero_step(%a: !ptensor.ptensor<?x3xf32>, %i: index) -> !ptensor.ptensor<?x3xf32> {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{expected a non-zero step, but slice 1's is 0}}
  %0 = ptensor.team_slice_rows %a, %i [%i, %i, %i], %a, %i [%i, %i, %c0] on @g : !ptensor.ptensor<?x3xf32>, !ptensor.ptensor<?x3xf32> -> !ptensor.ptensor<?x3xf32>
  return %0 : !ptensor.ptensor<?x3xf32>
}

// -----

shard.grid @g(shape = 2) {sym_visibility = "private"}
func.func @slice_rows_second_block(%a: !ptensor.ptensor<?x3xf32>, %b: !ptensor.ptensor<?x3xf16>, %i: index) -> !ptensor.ptensor<?x3xf32> {
  // expected-error @+1 {{expected a result of rank >= 1 that differs from '!ptensor.ptensor<?x3xf16>' only in its first dim, but got '!ptensor.ptensor<?x3xf32>'}}
  %0 = ptensor.team_slice_rows %a, %i [%i, %i, %i], %b, %i [%i, %i, %i] on @g : !ptensor.ptensor<?x3xf32>, !ptensor.ptensor<?x3xf16> -> !ptensor.ptensor<?x3xf32>
  return %0 : !ptensor.ptensor<?x3xf32>
}

// -----

shard.grid @g(shape = 2) {sym_visibility = "private"}
func.func @slice_rows_static_block(%a: !ptensor.ptensor<?x3xf32>, %b: !ptensor.ptensor<4x3xf32>, %i: index) -> !ptensor.ptensor<?x3xf32> {
  // expected-error @+1 {{expected blocks (a dynamic first dim: the rows depend on the rank), but got '!ptensor.ptensor<4x3xf32>'}}
  %0 = ptensor.team_slice_rows %a, %i [%i, %i, %i], %b, %i [%i, %i, %i] on @g : !ptensor.ptensor<?x3xf32>, !ptensor.ptensor<4x3xf32> -> !ptensor.ptensor<?x3xf32>
  return %0 : !ptensor.ptensor<?x3xf32>
}

// -----

shard.grid @g(shape = 2) {sym_visibility = "private"}
func.func @slice_rows_no_slices() -> !ptensor.ptensor<?x3xf32> {
  // expected-error @+1 {{expected one or more slices, each a block, its tensor's rows, an offset, rows and a step}}
  %0 = "ptensor.team_slice_rows"() <{grid = @g, operandSegmentSizes = array<i32: 0, 0, 0, 0, 0>}> : () -> !ptensor.ptensor<?x3xf32>
  return %0 : !ptensor.ptensor<?x3xf32>
}

// -----

shard.grid @g(shape = 2) {sym_visibility = "private"}
func.func @slice_rows_uneven_lists(%a: !ptensor.ptensor<?x3xf32>, %i: index) -> !ptensor.ptensor<?x3xf32> {
  // expected-error @+1 {{expected one or more slices, each a block, its tensor's rows, an offset, rows and a step}}
  %0 = "ptensor.team_slice_rows"(%a, %i, %i, %i, %i, %i) <{grid = @g, operandSegmentSizes = array<i32: 1, 2, 1, 1, 1>}> : (!ptensor.ptensor<?x3xf32>, index, index, index, index, index) -> !ptensor.ptensor<?x3xf32>
  return %0 : !ptensor.ptensor<?x3xf32>
}

// -----

shard.grid @g(shape = 2) {sym_visibility = "private"}
func.func @slice_rows_block_types(%a: !ptensor.ptensor<?x3xf32>, %i: index) -> !ptensor.ptensor<?x3xf32> {
  // expected-error @+1 {{expected 2 block types (one per slice), but got 1}}
  %0 = ptensor.team_slice_rows %a, %i [%i, %i, %i], %a, %i [%i, %i, %i] on @g : !ptensor.ptensor<?x3xf32> -> !ptensor.ptensor<?x3xf32>
  return %0 : !ptensor.ptensor<?x3xf32>
}

// -----

shard.grid @g(shape = 2) {sym_visibility = "private"}
func.func @resplit_axis_past_rank(%a: !ptensor.ptensor<3x?xf32>, %n: index) -> !ptensor.ptensor<?x10xf32> {
  // expected-error @+1 {{expected a part and a result of one dtype, one device and one rank greater than the split axis 2, but got '!ptensor.ptensor<3x?xf32>' and '!ptensor.ptensor<?x10xf32>'}}
  %0 = ptensor.team_resplit %a, %n from 2 on @g : !ptensor.ptensor<3x?xf32> -> !ptensor.ptensor<?x10xf32>
  return %0 : !ptensor.ptensor<?x10xf32>
}

// -----

shard.grid @g(shape = 2) {sym_visibility = "private"}
func.func @resplit_axis_zero(%a: !ptensor.ptensor<3x?xf32>, %n: index) -> !ptensor.ptensor<?x10xf32> {
  // expected-error @+1 {{attribute 'axis' failed to satisfy constraint}}
  %0 = ptensor.team_resplit %a, %n from 0 on @g : !ptensor.ptensor<3x?xf32> -> !ptensor.ptensor<?x10xf32>
  return %0 : !ptensor.ptensor<?x10xf32>
}

// -----

shard.grid @g(shape = 2) {sym_visibility = "private"}
func.func @resplit_other_dim(%a: !ptensor.ptensor<3x?x4xf32>, %n: index) -> !ptensor.ptensor<?x10x5xf32> {
  // expected-error @+1 {{expected dim 2 of the result ('!ptensor.ptensor<?x10x5xf32>') to be the part's ('!ptensor.ptensor<3x?x4xf32>'): only dims 0 and the split axis change}}
  %0 = ptensor.team_resplit %a, %n from 1 on @g : !ptensor.ptensor<3x?x4xf32> -> !ptensor.ptensor<?x10x5xf32>
  return %0 : !ptensor.ptensor<?x10x5xf32>
}

// -----

shard.grid @g(shape = 2) {sym_visibility = "private"}
func.func @resplit_static_part(%a: !ptensor.ptensor<3x5xf32>, %n: index) -> !ptensor.ptensor<?x10xf32> {
  // expected-error @+1 {{expected a part split along dim 1 (a dynamic size there: it depends on the rank), but got '!ptensor.ptensor<3x5xf32>'}}
  %0 = ptensor.team_resplit %a, %n from 1 on @g : !ptensor.ptensor<3x5xf32> -> !ptensor.ptensor<?x10xf32>
  return %0 : !ptensor.ptensor<?x10xf32>
}

// -----

shard.grid @g(shape = 2) {sym_visibility = "private"}
func.func @resplit_static_result(%a: !ptensor.ptensor<3x?xf32>, %n: index) -> !ptensor.ptensor<3x10xf32> {
  // expected-error @+1 {{expected a block as the result (a dynamic first dim: the rows depend on the rank), but got '!ptensor.ptensor<3x10xf32>'}}
  %0 = ptensor.team_resplit %a, %n from 1 on @g : !ptensor.ptensor<3x?xf32> -> !ptensor.ptensor<3x10xf32>
  return %0 : !ptensor.ptensor<3x10xf32>
}

// -----

shard.grid @g(shape = 2) {sym_visibility = "private"}
func.func @resplit_team(%a: !ptensor.ptensor<3x?xf32, team = 1>, %n: index) -> !ptensor.ptensor<?x10xf32> {
  // expected-error @+1 {{works on local blocks, but got the team tensor '!ptensor.ptensor<3x?xf32, team = 1>'}}
  %0 = ptensor.team_resplit %a, %n from 1 on @g : !ptensor.ptensor<3x?xf32, team = 1> -> !ptensor.ptensor<?x10xf32>
  return %0 : !ptensor.ptensor<?x10xf32>
}

// -----

shard.grid @g(shape = 2) {sym_visibility = "private"}
func.func @reblock_static_block(%a: !ptensor.ptensor<4x3xf32>, %n: index) -> !ptensor.ptensor<?xf32> {
  // expected-error @+1 {{expected a block (a dynamic first dim: the rows depend on the rank), but got '!ptensor.ptensor<4x3xf32>'}}
  %0 = ptensor.team_reblock %a, %n rows %n x %n on @g : !ptensor.ptensor<4x3xf32> -> !ptensor.ptensor<?xf32>
  return %0 : !ptensor.ptensor<?xf32>
}

// -----

shard.grid @g(shape = 2) {sym_visibility = "private"}
func.func @reblock_not_flat(%a: !ptensor.ptensor<?x3xf32>, %n: index) -> !ptensor.ptensor<?x3xf32> {
  // expected-error @+1 {{expected a flat result of dynamic size with the block's dtype and device, but got '!ptensor.ptensor<?x3xf32>'}}
  %0 = ptensor.team_reblock %a, %n rows %n x %n on @g : !ptensor.ptensor<?x3xf32> -> !ptensor.ptensor<?x3xf32>
  return %0 : !ptensor.ptensor<?x3xf32>
}

// -----

shard.grid @g(shape = 2) {sym_visibility = "private"}
func.func @reblock_dtype(%a: !ptensor.ptensor<?x3xf32>, %n: index) -> !ptensor.ptensor<?xf64> {
  // expected-error @+1 {{expected a flat result of dynamic size with the block's dtype and device, but got '!ptensor.ptensor<?xf64>'}}
  %0 = ptensor.team_reblock %a, %n rows %n x %n on @g : !ptensor.ptensor<?x3xf32> -> !ptensor.ptensor<?xf64>
  return %0 : !ptensor.ptensor<?xf64>
}

// -----

shard.grid @g(shape = 2) {sym_visibility = "private"}
func.func @reblock_team(%a: !ptensor.ptensor<?x3xf32, team = 1>, %n: index) -> !ptensor.ptensor<?xf32> {
  // expected-error @+1 {{works on local blocks, but got the team tensor '!ptensor.ptensor<?x3xf32, team = 1>'}}
  %0 = ptensor.team_reblock %a, %n rows %n x %n on @g : !ptensor.ptensor<?x3xf32, team = 1> -> !ptensor.ptensor<?xf32>
  return %0 : !ptensor.ptensor<?xf32>
}

// -----

shard.grid @g(shape = 2) {sym_visibility = "private"}
func.func @exchange_static_result(%a: !ptensor.ptensor<?xf32>, %e: !ptensor.ptensor<?xi64>) -> !ptensor.ptensor<4xf32> {
  // expected-error @+1 {{expected a result of dynamic rows (what a process receives is known when the code runs), but got '!ptensor.ptensor<4xf32>'}}
  %0, %runs = ptensor.team_exchange %a at %e on @g : !ptensor.ptensor<?xf32>, !ptensor.ptensor<?xi64> -> !ptensor.ptensor<4xf32>, !ptensor.ptensor<2xi64>
  return %0 : !ptensor.ptensor<4xf32>
}

// -----

shard.grid @g(shape = 2) {sym_visibility = "private"}
func.func @exchange_dtype(%a: !ptensor.ptensor<?x3xf32>, %e: !ptensor.ptensor<?xi64>) -> !ptensor.ptensor<?x3xf64> {
  // expected-error @+1 {{expected a result of rank >= 1 that differs from '!ptensor.ptensor<?x3xf32>' only in its first dim, but got '!ptensor.ptensor<?x3xf64>'}}
  %0, %runs = ptensor.team_exchange %a at %e on @g : !ptensor.ptensor<?x3xf32>, !ptensor.ptensor<?xi64> -> !ptensor.ptensor<?x3xf64>, !ptensor.ptensor<2xi64>
  return %0 : !ptensor.ptensor<?x3xf64>
}

// -----

shard.grid @g(shape = 2) {sym_visibility = "private"}
func.func @exchange_ends(%a: !ptensor.ptensor<?xf32>, %e: !ptensor.ptensor<?xi32>) -> !ptensor.ptensor<?xf32> {
  // expected-error @+1 {{expected the run ends as a 1-D i64 tensor on the part's device, but got '!ptensor.ptensor<?xi32>'}}
  %0, %runs = ptensor.team_exchange %a at %e on @g : !ptensor.ptensor<?xf32>, !ptensor.ptensor<?xi32> -> !ptensor.ptensor<?xf32>, !ptensor.ptensor<2xi64>
  return %0 : !ptensor.ptensor<?xf32>
}

// -----

shard.grid @g(shape = 2) {sym_visibility = "private"}
func.func @exchange_team(%a: !ptensor.ptensor<?xf32, team = 1>, %e: !ptensor.ptensor<?xi64>) -> !ptensor.ptensor<?xf32> {
  // expected-error @+1 {{works on local blocks, but got the team tensor '!ptensor.ptensor<?xf32, team = 1>'}}
  %0, %runs = ptensor.team_exchange %a at %e on @g : !ptensor.ptensor<?xf32, team = 1>, !ptensor.ptensor<?xi64> -> !ptensor.ptensor<?xf32>, !ptensor.ptensor<2xi64>
  return %0 : !ptensor.ptensor<?xf32>
}

// -----

shard.grid @g(shape = 2) {sym_visibility = "private"}
func.func @exchange_run_ends_type(%a: !ptensor.ptensor<?xf32>, %e: !ptensor.ptensor<?xi64>) -> !ptensor.ptensor<?xf32> {
  // expected-error @+1 {{expected the received runs' ends as a 1-D i64 tensor of static size (the team's) on the part's device, but got '!ptensor.ptensor<?xi64>'}}
  %0, %runs = ptensor.team_exchange %a at %e on @g : !ptensor.ptensor<?xf32>, !ptensor.ptensor<?xi64> -> !ptensor.ptensor<?xf32>, !ptensor.ptensor<?xi64>
  return %0 : !ptensor.ptensor<?xf32>
}

// -----

shard.grid @g(shape = 2) {sym_visibility = "private"}
func.func @exchange_run_ends_size(%a: !ptensor.ptensor<?xf32>, %e: !ptensor.ptensor<?xi64>) -> !ptensor.ptensor<?xf32> {
  // expected-error @+1 {{expected 2 run ends (one per process of @g), but got '!ptensor.ptensor<3xi64>'}}
  %0, %runs = ptensor.team_exchange %a at %e on @g : !ptensor.ptensor<?xf32>, !ptensor.ptensor<?xi64> -> !ptensor.ptensor<?xf32>, !ptensor.ptensor<3xi64>
  return %0 : !ptensor.ptensor<?xf32>
}
