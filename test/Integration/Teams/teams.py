# RUN: %python %s
# REQUIRES: mpi
"""Team tensors under mpirun -np 1..4 (docs/Teams.md): every result equals
numpy's on the whole arrays, with uneven blocks (10 rows over 3 and 4
processes), dynamic and static sizes, replicated broadcasts, reductions
over and beside the split dim, creation with a team and copies out of it,
writes (out=) into team arguments.

With `--device cuda` (scripts/gpu-runner-pack.sh gpu-teams, on the GPU
machine) every tensor of the module lives on the GPU: each process's blocks
are on its GPU; every collective moves device memory (NCCL when every
process has a GPU of its own, else through host buffers; the rows of
strided slices and flips packed on the GPU first). `--gpu-per-process`
gives process r of a node
GPU r (CUDA_VISIBLE_DEVICES by Open MPI's local rank), so that NCCL can be
used (PTENSOR_TEAM_NCCL=1 requires it)."""

import argparse
import os
import re
import subprocess
import sys
import tempfile

import numpy as np

MODULE = r"""
func.func @chain(%a: !ptensor.ptensor<?x3xf32, team = 1>, %b: !ptensor.ptensor<?x3xf32, team = 1>, %s: f32) -> !ptensor.ptensor<?x3xf32, team = 1> {
  %0 = ptensor.elementwise_binary add %a, %b : (!ptensor.ptensor<?x3xf32, team = 1>, !ptensor.ptensor<?x3xf32, team = 1>) -> !ptensor.ptensor<?x3xf32, team = 1>
  %1 = ptensor.elementwise_binary multiply %0, %s : (!ptensor.ptensor<?x3xf32, team = 1>, f32) -> !ptensor.ptensor<?x3xf32, team = 1>
  %2 = ptensor.elementwise_unary exp %1 : (!ptensor.ptensor<?x3xf32, team = 1>) -> !ptensor.ptensor<?x3xf32, team = 1>
  return %2 : !ptensor.ptensor<?x3xf32, team = 1>
}
func.func @written(%a: !ptensor.ptensor<?x3xf32, team = 1>, %b: !ptensor.ptensor<?x3xf32, team = 1>) -> !ptensor.ptensor<f32, team = 1> {
  %0 = ptensor.elementwise_binary add %a, %b : (!ptensor.ptensor<?x3xf32, team = 1>, !ptensor.ptensor<?x3xf32, team = 1>) -> !ptensor.ptensor<?x3xf32, team = 1>
  ptensor.write %0 into %a : !ptensor.ptensor<?x3xf32, team = 1>
  %n = ptensor.dim %b, 0 : !ptensor.ptensor<?x3xf32, team = 1>
  %cols = ptensor.extract_slice %b [0, 2] [%n, 2] [1, -1] : !ptensor.ptensor<?x3xf32, team = 1> -> !ptensor.ptensor<?x2xf32, team = 1>
  %c2 = arith.constant 2.0 : f32
  %d = ptensor.elementwise_binary multiply %cols, %c2 : (!ptensor.ptensor<?x2xf32, team = 1>, f32) -> !ptensor.ptensor<?x2xf32, team = 1>
  ptensor.write %d into %cols : !ptensor.ptensor<?x2xf32, team = 1>
  %1 = ptensor.reduce sum %a : !ptensor.ptensor<?x3xf32, team = 1> -> !ptensor.ptensor<f32, team = 1>
  return %1 : !ptensor.ptensor<f32, team = 1>
}
func.func @flipped_in_place(%a: !ptensor.ptensor<?x3xf32, team = 1>, %b: !ptensor.ptensor<?x3xf32, team = 1>) {
  %f = ptensor.flip %a [0] : !ptensor.ptensor<?x3xf32, team = 1> -> !ptensor.ptensor<?x3xf32, team = 1>
  %s = ptensor.elementwise_binary add %f, %b : (!ptensor.ptensor<?x3xf32, team = 1>, !ptensor.ptensor<?x3xf32, team = 1>) -> !ptensor.ptensor<?x3xf32, team = 1>
  ptensor.write %s into %a : !ptensor.ptensor<?x3xf32, team = 1>
  return
}
func.func @row(%a: !ptensor.ptensor<10x3xf32, team = 1>, %v: !ptensor.ptensor<3xf32, team = 1>, %r: !ptensor.ptensor<1x3xf32, team = 1>) -> !ptensor.ptensor<10x3xf32, team = 1> {
  %0 = ptensor.elementwise_binary subtract %a, %v : (!ptensor.ptensor<10x3xf32, team = 1>, !ptensor.ptensor<3xf32, team = 1>) -> !ptensor.ptensor<10x3xf32, team = 1>
  %1 = ptensor.elementwise_binary multiply %0, %r : (!ptensor.ptensor<10x3xf32, team = 1>, !ptensor.ptensor<1x3xf32, team = 1>) -> !ptensor.ptensor<10x3xf32, team = 1>
  return %1 : !ptensor.ptensor<10x3xf32, team = 1>
}
func.func @reductions(%a: !ptensor.ptensor<?x3xf32, team = 1>) -> (!ptensor.ptensor<3xf32, team = 1>, !ptensor.ptensor<?xf32, team = 1>, !ptensor.ptensor<f32, team = 1>, !ptensor.ptensor<3xf32, team = 1>, !ptensor.ptensor<i1, team = 1>) {
  %0 = ptensor.reduce sum %a axes [0] : !ptensor.ptensor<?x3xf32, team = 1> -> !ptensor.ptensor<3xf32, team = 1>
  %1 = ptensor.reduce max %a axes [1] : !ptensor.ptensor<?x3xf32, team = 1> -> !ptensor.ptensor<?xf32, team = 1>
  %2 = ptensor.reduce min %a : !ptensor.ptensor<?x3xf32, team = 1> -> !ptensor.ptensor<f32, team = 1>
  %3 = ptensor.reduce max %a axes [0] : !ptensor.ptensor<?x3xf32, team = 1> -> !ptensor.ptensor<3xf32, team = 1>
  %c = arith.constant 0.9 : f32
  %big = ptensor.elementwise_binary_test greater %a, %c : (!ptensor.ptensor<?x3xf32, team = 1>, f32) -> !ptensor.ptensor<?x3xi1, team = 1>
  %4 = ptensor.test any %big : !ptensor.ptensor<?x3xi1, team = 1> -> !ptensor.ptensor<i1, team = 1>
  return %0, %1, %2, %3, %4 : !ptensor.ptensor<3xf32, team = 1>, !ptensor.ptensor<?xf32, team = 1>, !ptensor.ptensor<f32, team = 1>, !ptensor.ptensor<3xf32, team = 1>, !ptensor.ptensor<i1, team = 1>
}
func.func @ints(%a: !ptensor.ptensor<?xi32, team = 1>) -> (!ptensor.ptensor<i64, team = 1>, !ptensor.ptensor<i64, team = 1>) {
  %0 = ptensor.reduce sum %a : !ptensor.ptensor<?xi32, team = 1> -> !ptensor.ptensor<i64, team = 1>
  %1 = ptensor.reduce prod %a : !ptensor.ptensor<?xi32, team = 1> -> !ptensor.ptensor<i64, team = 1>
  return %0, %1 : !ptensor.ptensor<i64, team = 1>, !ptensor.ptensor<i64, team = 1>
}
func.func @moments(%a: !ptensor.ptensor<?x3xf32, team = 1>) -> (!ptensor.ptensor<3xf32, team = 1>, !ptensor.ptensor<1x3xf32, team = 1>, !ptensor.ptensor<f32, team = 1>, !ptensor.ptensor<3xf32, team = 1>) {
  %0 = ptensor.reduce mean %a axes [0] : !ptensor.ptensor<?x3xf32, team = 1> -> !ptensor.ptensor<3xf32, team = 1>
  %1 = ptensor.reduce var %a axes [0] {keepdims = true, correction = 1.0 : f64} : !ptensor.ptensor<?x3xf32, team = 1> -> !ptensor.ptensor<1x3xf32, team = 1>
  %2 = ptensor.reduce std %a : !ptensor.ptensor<?x3xf32, team = 1> -> !ptensor.ptensor<f32, team = 1>
  %3 = ptensor.reduce mean %a axes [0] : !ptensor.ptensor<?x3xf32, team = 1> -> !ptensor.ptensor<3xf32, team = 1>
  return %0, %1, %2, %3 : !ptensor.ptensor<3xf32, team = 1>, !ptensor.ptensor<1x3xf32, team = 1>, !ptensor.ptensor<f32, team = 1>, !ptensor.ptensor<3xf32, team = 1>
}
func.func @arg(%a: !ptensor.ptensor<?x3xf32, team = 1>) -> (!ptensor.ptensor<3xi64, team = 1>, !ptensor.ptensor<i64, team = 1>, !ptensor.ptensor<1x1xi64, team = 1>) {
  %0 = ptensor.find_index argmax %a axis 0 : !ptensor.ptensor<?x3xf32, team = 1> -> !ptensor.ptensor<3xi64, team = 1>
  %1 = ptensor.find_index argmin %a : !ptensor.ptensor<?x3xf32, team = 1> -> !ptensor.ptensor<i64, team = 1>
  %2 = ptensor.find_index argmax %a {keepdims = true} : !ptensor.ptensor<?x3xf32, team = 1> -> !ptensor.ptensor<1x1xi64, team = 1>
  return %0, %1, %2 : !ptensor.ptensor<3xi64, team = 1>, !ptensor.ptensor<i64, team = 1>, !ptensor.ptensor<1x1xi64, team = 1>
}
func.func @extrema(%a: !ptensor.ptensor<?x2xf16, team = 1>) -> (!ptensor.ptensor<2xf16, team = 1>, !ptensor.ptensor<2xf16, team = 1>, !ptensor.ptensor<2xf16, team = 1>) {
  %0 = ptensor.reduce max %a axes [0] : !ptensor.ptensor<?x2xf16, team = 1> -> !ptensor.ptensor<2xf16, team = 1>
  %1 = ptensor.reduce min %a axes [0] : !ptensor.ptensor<?x2xf16, team = 1> -> !ptensor.ptensor<2xf16, team = 1>
  %2 = ptensor.reduce sum %a axes [0] : !ptensor.ptensor<?x2xf16, team = 1> -> !ptensor.ptensor<2xf16, team = 1>
  return %0, %1, %2 : !ptensor.ptensor<2xf16, team = 1>, !ptensor.ptensor<2xf16, team = 1>, !ptensor.ptensor<2xf16, team = 1>
}
func.func @filled(%n: index, %v: f32) -> (!ptensor.ptensor<?x2xf32, team = 1>, !ptensor.ptensor<f32, team = 1>) {
  %c = ptensor.create (%n) fill %v : f32 -> !ptensor.ptensor<?x2xf32, team = 1>
  %s = ptensor.reduce sum %c : !ptensor.ptensor<?x2xf32, team = 1> -> !ptensor.ptensor<f32, team = 1>
  return %c, %s : !ptensor.ptensor<?x2xf32, team = 1>, !ptensor.ptensor<f32, team = 1>
}
func.func @views(%a: !ptensor.ptensor<10x3xf32, team = 1>) -> (!ptensor.ptensor<3x10xf32, team = 1>, !ptensor.ptensor<10x3xf32, team = 1>, !ptensor.ptensor<4x3xf32, team = 1>, !ptensor.ptensor<10x3xf32, team = 1>) {
  %0 = ptensor.permute_dims %a [1, 0] : !ptensor.ptensor<10x3xf32, team = 1> -> !ptensor.ptensor<3x10xf32, team = 1>
  %1 = ptensor.flip %a [0] : !ptensor.ptensor<10x3xf32, team = 1> -> !ptensor.ptensor<10x3xf32, team = 1>
  %2 = ptensor.extract_slice %a [1, 0] [4, 3] [2, 1] : !ptensor.ptensor<10x3xf32, team = 1> -> !ptensor.ptensor<4x3xf32, team = 1>
  %3 = ptensor.sort %a axis 0 : !ptensor.ptensor<10x3xf32, team = 1> -> !ptensor.ptensor<10x3xf32, team = 1>
  return %0, %1, %2, %3 : !ptensor.ptensor<3x10xf32, team = 1>, !ptensor.ptensor<10x3xf32, team = 1>, !ptensor.ptensor<4x3xf32, team = 1>, !ptensor.ptensor<10x3xf32, team = 1>
}
func.func @row_slices(%a: !ptensor.ptensor<10x3xf32, team = 1>, %d: !ptensor.ptensor<?x3xf32, team = 1>) -> (!ptensor.ptensor<10x2xf32, team = 1>, !ptensor.ptensor<?x2xf32, team = 1>, !ptensor.ptensor<2xf32, team = 1>) {
  %0 = ptensor.extract_slice %a [0, 1] [10, 2] [1, 1] : !ptensor.ptensor<10x3xf32, team = 1> -> !ptensor.ptensor<10x2xf32, team = 1>
  %n = ptensor.dim %d, 0 : !ptensor.ptensor<?x3xf32, team = 1>
  %1 = ptensor.extract_slice %d [0, 2] [%n, 2] [1, -1] : !ptensor.ptensor<?x3xf32, team = 1> -> !ptensor.ptensor<?x2xf32, team = 1>
  %2 = ptensor.reduce sum %1 axes [0] : !ptensor.ptensor<?x2xf32, team = 1> -> !ptensor.ptensor<2xf32, team = 1>
  return %0, %1, %2 : !ptensor.ptensor<10x2xf32, team = 1>, !ptensor.ptensor<?x2xf32, team = 1>, !ptensor.ptensor<2xf32, team = 1>
}
func.func @row_reshapes(%a: !ptensor.ptensor<10x3xf32, team = 1>, %d: !ptensor.ptensor<?x3xf32, team = 1>) -> (!ptensor.ptensor<10x3x1xf32, team = 1>, !ptensor.ptensor<?x1x3xf32, team = 1>, !ptensor.ptensor<f32, team = 1>, !ptensor.ptensor<30xf32, team = 1>) {
  %0 = ptensor.reshape %a [10, -1, 1] : !ptensor.ptensor<10x3xf32, team = 1> -> !ptensor.ptensor<10x3x1xf32, team = 1>
  %n = ptensor.dim %d, 0 : !ptensor.ptensor<?x3xf32, team = 1>
  %1 = ptensor.reshape %d [%n, 1, 3] {copy = false} : !ptensor.ptensor<?x3xf32, team = 1> -> !ptensor.ptensor<?x1x3xf32, team = 1>
  %2 = ptensor.reduce sum %1 : !ptensor.ptensor<?x1x3xf32, team = 1> -> !ptensor.ptensor<f32, team = 1>
  %3 = ptensor.reshape %a [-1] : !ptensor.ptensor<10x3xf32, team = 1> -> !ptensor.ptensor<30xf32, team = 1>
  return %0, %1, %2, %3 : !ptensor.ptensor<10x3x1xf32, team = 1>, !ptensor.ptensor<?x1x3xf32, team = 1>, !ptensor.ptensor<f32, team = 1>, !ptensor.ptensor<30xf32, team = 1>
}
func.func @joins(%a: !ptensor.ptensor<10x3xf32, team = 1>, %b: !ptensor.ptensor<10x3xf32, team = 1>) -> (!ptensor.ptensor<10x6xf32, team = 1>, !ptensor.ptensor<10x2x3xf32, team = 1>, !ptensor.ptensor<20x3xf32, team = 1>) {
  %0 = ptensor.combine concat %a, %b axis -1 : (!ptensor.ptensor<10x3xf32, team = 1>, !ptensor.ptensor<10x3xf32, team = 1>) -> !ptensor.ptensor<10x6xf32, team = 1>
  %1 = ptensor.combine stack %b, %a axis 1 : (!ptensor.ptensor<10x3xf32, team = 1>, !ptensor.ptensor<10x3xf32, team = 1>) -> !ptensor.ptensor<10x2x3xf32, team = 1>
  %2 = ptensor.combine concat %a, %b axis 0 : (!ptensor.ptensor<10x3xf32, team = 1>, !ptensor.ptensor<10x3xf32, team = 1>) -> !ptensor.ptensor<20x3xf32, team = 1>
  return %0, %1, %2 : !ptensor.ptensor<10x6xf32, team = 1>, !ptensor.ptensor<10x2x3xf32, team = 1>, !ptensor.ptensor<20x3xf32, team = 1>
}
func.func @short_joins(%a: !ptensor.ptensor<2x3xf32, team = 1>, %b: !ptensor.ptensor<2x2xf32, team = 1>) -> (!ptensor.ptensor<2x5xf32, team = 1>, !ptensor.ptensor<2x3x2xf32, team = 1>) {
  %0 = ptensor.combine concat %a, %b axis 1 : (!ptensor.ptensor<2x3xf32, team = 1>, !ptensor.ptensor<2x2xf32, team = 1>) -> !ptensor.ptensor<2x5xf32, team = 1>
  %1 = ptensor.combine stack %a, %a axis 2 : (!ptensor.ptensor<2x3xf32, team = 1>, !ptensor.ptensor<2x3xf32, team = 1>) -> !ptensor.ptensor<2x3x2xf32, team = 1>
  return %0, %1 : !ptensor.ptensor<2x5xf32, team = 1>, !ptensor.ptensor<2x3x2xf32, team = 1>
}
func.func @row_moves(%a: !ptensor.ptensor<10x3xf32, team = 1>, %d: !ptensor.ptensor<?x3xf32, team = 1>, %m: index) -> (!ptensor.ptensor<4x2xf32, team = 1>, !ptensor.ptensor<10x3xf32, team = 1>, !ptensor.ptensor<?x3xf32, team = 1>, !ptensor.ptensor<?x3xf32, team = 1>, !ptensor.ptensor<3xf32, team = 1>) {
  %0 = ptensor.extract_slice %a [1, 0] [4, 2] [2, 1] : !ptensor.ptensor<10x3xf32, team = 1> -> !ptensor.ptensor<4x2xf32, team = 1>
  %1 = ptensor.flip %a [0] : !ptensor.ptensor<10x3xf32, team = 1> -> !ptensor.ptensor<10x3xf32, team = 1>
  %2 = ptensor.flip %d [0, 1] : !ptensor.ptensor<?x3xf32, team = 1> -> !ptensor.ptensor<?x3xf32, team = 1>
  %3 = ptensor.extract_slice %d [1, 0] [%m, 3] [-1, 1] : !ptensor.ptensor<?x3xf32, team = 1> -> !ptensor.ptensor<?x3xf32, team = 1>
  %4 = ptensor.reduce mean %3 axes [0] : !ptensor.ptensor<?x3xf32, team = 1> -> !ptensor.ptensor<3xf32, team = 1>
  return %0, %1, %2, %3, %4 : !ptensor.ptensor<4x2xf32, team = 1>, !ptensor.ptensor<10x3xf32, team = 1>, !ptensor.ptensor<?x3xf32, team = 1>, !ptensor.ptensor<?x3xf32, team = 1>, !ptensor.ptensor<3xf32, team = 1>
}
func.func @permutes(%d: !ptensor.ptensor<?x3xf32, team = 1>, %c: !ptensor.ptensor<?x3x4xf32, team = 1>) -> (!ptensor.ptensor<3x?xf32, team = 1>, !ptensor.ptensor<4x?x3xf32, team = 1>, !ptensor.ptensor<3x4x?xf32, team = 1>, !ptensor.ptensor<4x?xf32, team = 1>) {
  %0 = ptensor.permute_dims %d [1, 0] : !ptensor.ptensor<?x3xf32, team = 1> -> !ptensor.ptensor<3x?xf32, team = 1>
  %1 = ptensor.permute_dims %c [2, 0, 1] : !ptensor.ptensor<?x3x4xf32, team = 1> -> !ptensor.ptensor<4x?x3xf32, team = 1>
  %2 = ptensor.permute_dims %c [1, -1, 0] : !ptensor.ptensor<?x3x4xf32, team = 1> -> !ptensor.ptensor<3x4x?xf32, team = 1>
  %3 = ptensor.reduce sum %1 axes [2] : !ptensor.ptensor<4x?x3xf32, team = 1> -> !ptensor.ptensor<4x?xf32, team = 1>
  return %0, %1, %2, %3 : !ptensor.ptensor<3x?xf32, team = 1>, !ptensor.ptensor<4x?x3xf32, team = 1>, !ptensor.ptensor<3x4x?xf32, team = 1>, !ptensor.ptensor<4x?xf32, team = 1>
}
func.func @reblocks(%d: !ptensor.ptensor<?x3xf32, team = 1>, %m: index) -> (!ptensor.ptensor<?xf32, team = 1>, !ptensor.ptensor<?x2xf32, team = 1>, !ptensor.ptensor<?x1x6xf32, team = 1>, !ptensor.ptensor<2xf32, team = 1>) {
  %0 = ptensor.reshape %d [-1] : !ptensor.ptensor<?x3xf32, team = 1> -> !ptensor.ptensor<?xf32, team = 1>
  %1 = ptensor.reshape %d [-1, 2] : !ptensor.ptensor<?x3xf32, team = 1> -> !ptensor.ptensor<?x2xf32, team = 1>
  %2 = ptensor.reshape %d [%m, 1, 6] : !ptensor.ptensor<?x3xf32, team = 1> -> !ptensor.ptensor<?x1x6xf32, team = 1>
  %3 = ptensor.reduce sum %1 axes [0] : !ptensor.ptensor<?x2xf32, team = 1> -> !ptensor.ptensor<2xf32, team = 1>
  return %0, %1, %2, %3 : !ptensor.ptensor<?xf32, team = 1>, !ptensor.ptensor<?x2xf32, team = 1>, !ptensor.ptensor<?x1x6xf32, team = 1>, !ptensor.ptensor<2xf32, team = 1>
}
func.func @row_joins(%d: !ptensor.ptensor<?x3xf32, team = 1>, %j: !ptensor.ptensor<?x3xi32, team = 1>) -> (!ptensor.ptensor<?x3xf32, team = 1>, !ptensor.ptensor<?x3xf32, team = 1>, !ptensor.ptensor<?x3xf32, team = 1>, !ptensor.ptensor<?x3xf32, team = 1>, !ptensor.ptensor<3xf32, team = 1>, !ptensor.ptensor<?x3xi32, team = 1>, !ptensor.ptensor<3x?x3xf32, team = 1>, !ptensor.ptensor<1x?x3xi32, team = 1>) {
  %0 = ptensor.roll %d shifts [3] axes [0] : !ptensor.ptensor<?x3xf32, team = 1> -> !ptensor.ptensor<?x3xf32, team = 1>
  %1 = ptensor.roll %d shifts [-13, 1, 2] axes [0, 1, -2] : !ptensor.ptensor<?x3xf32, team = 1> -> !ptensor.ptensor<?x3xf32, team = 1>
  %2 = ptensor.roll %d shifts [1] axes [1] : !ptensor.ptensor<?x3xf32, team = 1> -> !ptensor.ptensor<?x3xf32, team = 1>
  %3 = ptensor.combine concat %d, %j, %d axis 0 : (!ptensor.ptensor<?x3xf32, team = 1>, !ptensor.ptensor<?x3xi32, team = 1>, !ptensor.ptensor<?x3xf32, team = 1>) -> !ptensor.ptensor<?x3xf32, team = 1>
  %4 = ptensor.reduce sum %3 axes [0] : !ptensor.ptensor<?x3xf32, team = 1> -> !ptensor.ptensor<3xf32, team = 1>
  %5 = ptensor.combine concat %j, %j axis -2 : (!ptensor.ptensor<?x3xi32, team = 1>, !ptensor.ptensor<?x3xi32, team = 1>) -> !ptensor.ptensor<?x3xi32, team = 1>
  %6 = ptensor.combine stack %d, %j, %d axis 0 : (!ptensor.ptensor<?x3xf32, team = 1>, !ptensor.ptensor<?x3xi32, team = 1>, !ptensor.ptensor<?x3xf32, team = 1>) -> !ptensor.ptensor<3x?x3xf32, team = 1>
  %7 = ptensor.expand_dims %j 0 : !ptensor.ptensor<?x3xi32, team = 1> -> !ptensor.ptensor<1x?x3xi32, team = 1>
  return %0, %1, %2, %3, %4, %5, %6, %7 : !ptensor.ptensor<?x3xf32, team = 1>, !ptensor.ptensor<?x3xf32, team = 1>, !ptensor.ptensor<?x3xf32, team = 1>, !ptensor.ptensor<?x3xf32, team = 1>, !ptensor.ptensor<3xf32, team = 1>, !ptensor.ptensor<?x3xi32, team = 1>, !ptensor.ptensor<3x?x3xf32, team = 1>, !ptensor.ptensor<1x?x3xi32, team = 1>
}
func.func @lines(%v: !ptensor.ptensor<?xf32, team = 1>, %i: !ptensor.ptensor<?xi32, team = 1>, %h: !ptensor.ptensor<?xf16, team = 1>) -> (!ptensor.ptensor<?xf32, team = 1>, !ptensor.ptensor<?xf32, team = 1>, !ptensor.ptensor<?xi32, team = 1>, !ptensor.ptensor<?xf16, team = 1>, !ptensor.ptensor<?xi64, team = 1>, !ptensor.ptensor<?xi64, team = 1>) {
  %0 = ptensor.sort %v : !ptensor.ptensor<?xf32, team = 1> -> !ptensor.ptensor<?xf32, team = 1>
  %1 = ptensor.sort %v {descending = true} : !ptensor.ptensor<?xf32, team = 1> -> !ptensor.ptensor<?xf32, team = 1>
  %2 = ptensor.sort %i {descending = true} : !ptensor.ptensor<?xi32, team = 1> -> !ptensor.ptensor<?xi32, team = 1>
  %3 = ptensor.sort %h : !ptensor.ptensor<?xf16, team = 1> -> !ptensor.ptensor<?xf16, team = 1>
  %4 = ptensor.argsort %v {descending = true} : !ptensor.ptensor<?xf32, team = 1> -> !ptensor.ptensor<?xi64, team = 1>
  %5 = ptensor.argsort %i : !ptensor.ptensor<?xi32, team = 1> -> !ptensor.ptensor<?xi64, team = 1>
  return %0, %1, %2, %3, %4, %5 : !ptensor.ptensor<?xf32, team = 1>, !ptensor.ptensor<?xf32, team = 1>, !ptensor.ptensor<?xi32, team = 1>, !ptensor.ptensor<?xf16, team = 1>, !ptensor.ptensor<?xi64, team = 1>, !ptensor.ptensor<?xi64, team = 1>
}
func.func @takes(%a: !ptensor.ptensor<?x3xf32, team = 1>, %i: !ptensor.ptensor<?xi32, team = 1>) -> (!ptensor.ptensor<?x3xf32, team = 1>, !ptensor.ptensor<?x?xf32, team = 1>) {
  %0 = ptensor.take %a, %i axis 0 : (!ptensor.ptensor<?x3xf32, team = 1>, !ptensor.ptensor<?xi32, team = 1>) -> !ptensor.ptensor<?x3xf32, team = 1>
  %1 = ptensor.take %a, %i axis -1 : (!ptensor.ptensor<?x3xf32, team = 1>, !ptensor.ptensor<?xi32, team = 1>) -> !ptensor.ptensor<?x?xf32, team = 1>
  return %0, %1 : !ptensor.ptensor<?x3xf32, team = 1>, !ptensor.ptensor<?x?xf32, team = 1>
}
func.func @sorts(%a: !ptensor.ptensor<?x3xf32, team = 1>, %d: !ptensor.ptensor<?x3x4xf32, team = 1>, %v: !ptensor.ptensor<?xf32, team = 1>) -> (!ptensor.ptensor<?x3xf32, team = 1>, !ptensor.ptensor<?x3x4xi64, team = 1>, !ptensor.ptensor<?x3xf32, team = 1>, !ptensor.ptensor<?xf32, team = 1>, !ptensor.ptensor<?x3xi64, team = 1>) {
  %0 = ptensor.sort %a axis 0 : !ptensor.ptensor<?x3xf32, team = 1> -> !ptensor.ptensor<?x3xf32, team = 1>
  %1 = ptensor.argsort %d axis -3 {descending = true} : !ptensor.ptensor<?x3x4xf32, team = 1> -> !ptensor.ptensor<?x3x4xi64, team = 1>
  %2 = ptensor.sort %a : !ptensor.ptensor<?x3xf32, team = 1> -> !ptensor.ptensor<?x3xf32, team = 1>
  %3 = ptensor.sort %v : !ptensor.ptensor<?xf32, team = 1> -> !ptensor.ptensor<?xf32, team = 1>
  %4 = ptensor.argsort %a axis 1 : !ptensor.ptensor<?x3xf32, team = 1> -> !ptensor.ptensor<?x3xi64, team = 1>
  return %0, %1, %2, %3, %4 : !ptensor.ptensor<?x3xf32, team = 1>, !ptensor.ptensor<?x3x4xi64, team = 1>, !ptensor.ptensor<?x3xf32, team = 1>, !ptensor.ptensor<?xf32, team = 1>, !ptensor.ptensor<?x3xi64, team = 1>
}
func.func @triangles(%a: !ptensor.ptensor<?x3xf32, team = 1>, %g: !ptensor.ptensor<?x3x4xf32, team = 1>) -> (!ptensor.ptensor<?x3xf32, team = 1>, !ptensor.ptensor<?x3xf32, team = 1>, !ptensor.ptensor<?x3x4xf32, team = 1>) {
  %0 = ptensor.extract_triangle lower %a offset -1 : !ptensor.ptensor<?x3xf32, team = 1> -> !ptensor.ptensor<?x3xf32, team = 1>
  %1 = ptensor.extract_triangle upper %a offset 1 : !ptensor.ptensor<?x3xf32, team = 1> -> !ptensor.ptensor<?x3xf32, team = 1>
  %2 = ptensor.extract_triangle upper %g : !ptensor.ptensor<?x3x4xf32, team = 1> -> !ptensor.ptensor<?x3x4xf32, team = 1>
  return %0, %1, %2 : !ptensor.ptensor<?x3xf32, team = 1>, !ptensor.ptensor<?x3xf32, team = 1>, !ptensor.ptensor<?x3x4xf32, team = 1>
}
func.func @grids(%x: !ptensor.ptensor<3xf32, team = 1>, %y: !ptensor.ptensor<?xf32, team = 1>) -> (!ptensor.ptensor<?x3xf32, team = 1>, !ptensor.ptensor<?x3xf32, team = 1>, !ptensor.ptensor<3x?xf32, team = 1>, !ptensor.ptensor<3x?xf32, team = 1>) {
  %0:2 = ptensor.meshgrid xy %x, %y : (!ptensor.ptensor<3xf32, team = 1>, !ptensor.ptensor<?xf32, team = 1>) -> (!ptensor.ptensor<?x3xf32, team = 1>, !ptensor.ptensor<?x3xf32, team = 1>)
  %1:2 = ptensor.meshgrid ij %x, %y : (!ptensor.ptensor<3xf32, team = 1>, !ptensor.ptensor<?xf32, team = 1>) -> (!ptensor.ptensor<3x?xf32, team = 1>, !ptensor.ptensor<3x?xf32, team = 1>)
  return %0#0, %0#1, %1#0, %1#1 : !ptensor.ptensor<?x3xf32, team = 1>, !ptensor.ptensor<?x3xf32, team = 1>, !ptensor.ptensor<3x?xf32, team = 1>, !ptensor.ptensor<3x?xf32, team = 1>
}
func.func @dots(%a: !ptensor.ptensor<?x3xf32, team = 1>, %b: !ptensor.ptensor<?x3xf32, team = 1>, %v: !ptensor.ptensor<3xf32, team = 1>, %x: !ptensor.ptensor<?xf16, team = 1>, %i: !ptensor.ptensor<?xi32, team = 1>) -> (!ptensor.ptensor<?xf32, team = 1>, !ptensor.ptensor<3xf32, team = 1>, !ptensor.ptensor<?xf32, team = 1>, !ptensor.ptensor<f16, team = 1>, !ptensor.ptensor<i32, team = 1>) {
  %0 = ptensor.vecdot %a, %b : (!ptensor.ptensor<?x3xf32, team = 1>, !ptensor.ptensor<?x3xf32, team = 1>) -> !ptensor.ptensor<?xf32, team = 1>
  %1 = ptensor.vecdot %a, %b {axis = 0 : i64} : (!ptensor.ptensor<?x3xf32, team = 1>, !ptensor.ptensor<?x3xf32, team = 1>) -> !ptensor.ptensor<3xf32, team = 1>
  %2 = ptensor.vecdot %a, %v : (!ptensor.ptensor<?x3xf32, team = 1>, !ptensor.ptensor<3xf32, team = 1>) -> !ptensor.ptensor<?xf32, team = 1>
  %3 = ptensor.vecdot %x, %x : (!ptensor.ptensor<?xf16, team = 1>, !ptensor.ptensor<?xf16, team = 1>) -> !ptensor.ptensor<f16, team = 1>
  %4 = ptensor.vecdot %i, %i : (!ptensor.ptensor<?xi32, team = 1>, !ptensor.ptensor<?xi32, team = 1>) -> !ptensor.ptensor<i32, team = 1>
  return %0, %1, %2, %3, %4 : !ptensor.ptensor<?xf32, team = 1>, !ptensor.ptensor<3xf32, team = 1>, !ptensor.ptensor<?xf32, team = 1>, !ptensor.ptensor<f16, team = 1>, !ptensor.ptensor<i32, team = 1>
}
func.func @found(%z: !ptensor.ptensor<?x3xf32, team = 1>, %a: !ptensor.ptensor<?x3xf32, team = 1>, %r: !ptensor.ptensor<?xf32, team = 1>, %i: !ptensor.ptensor<?xi32, team = 1>) -> (!ptensor.ptensor<?xi64, team = 1>, !ptensor.ptensor<?xi64, team = 1>, !ptensor.ptensor<?xi64, team = 1>, !ptensor.ptensor<?x3xf32, team = 1>, !ptensor.ptensor<?xf32, team = 1>, !ptensor.ptensor<f32, team = 1>) {
  %0:2 = ptensor.nonzero %z : !ptensor.ptensor<?x3xf32, team = 1> -> (!ptensor.ptensor<?xi64, team = 1>, !ptensor.ptensor<?xi64, team = 1>)
  %1:1 = ptensor.nonzero %i : !ptensor.ptensor<?xi32, team = 1> -> (!ptensor.ptensor<?xi64, team = 1>)
  %c0 = arith.constant 0.0 : f32
  %m = ptensor.elementwise_binary_test greater %r, %c0 : (!ptensor.ptensor<?xf32, team = 1>, f32) -> !ptensor.ptensor<?xi1, team = 1>
  %2 = ptensor.extract_mask %a, %m : (!ptensor.ptensor<?x3xf32, team = 1>, !ptensor.ptensor<?xi1, team = 1>) -> !ptensor.ptensor<?x3xf32, team = 1>
  %n = ptensor.elementwise_binary_test greater %z, %c0 : (!ptensor.ptensor<?x3xf32, team = 1>, f32) -> !ptensor.ptensor<?x3xi1, team = 1>
  %3 = ptensor.extract_mask %a, %n : (!ptensor.ptensor<?x3xf32, team = 1>, !ptensor.ptensor<?x3xi1, team = 1>) -> !ptensor.ptensor<?xf32, team = 1>
  %4 = ptensor.reduce sum %3 : !ptensor.ptensor<?xf32, team = 1> -> !ptensor.ptensor<f32, team = 1>
  return %0#0, %0#1, %1#0, %2, %3, %4 : !ptensor.ptensor<?xi64, team = 1>, !ptensor.ptensor<?xi64, team = 1>, !ptensor.ptensor<?xi64, team = 1>, !ptensor.ptensor<?x3xf32, team = 1>, !ptensor.ptensor<?xf32, team = 1>, !ptensor.ptensor<f32, team = 1>
}
func.func @contractions(%x: !ptensor.ptensor<?xf32, team = 1>, %m: !ptensor.ptensor<?x4xf32, team = 1>, %a: !ptensor.ptensor<?x3xf32, team = 1>, %g: !ptensor.ptensor<?x3x4xf32, team = 1>, %h: !ptensor.ptensor<?x4x2xf32, team = 1>) -> (!ptensor.ptensor<4xf32, team = 1>, !ptensor.ptensor<?x3x2xf32, team = 1>, !ptensor.ptensor<3x4xf32, team = 1>, !ptensor.ptensor<?x4x?xf32, team = 1>) {
  %0 = ptensor.matmul %x, %m : (!ptensor.ptensor<?xf32, team = 1>, !ptensor.ptensor<?x4xf32, team = 1>) -> !ptensor.ptensor<4xf32, team = 1>
  %1 = ptensor.matmul %g, %h : (!ptensor.ptensor<?x3x4xf32, team = 1>, !ptensor.ptensor<?x4x2xf32, team = 1>) -> !ptensor.ptensor<?x3x2xf32, team = 1>
  %2 = ptensor.tensordot %a, %m {lhs_axes = array<i64: 0>, rhs_axes = array<i64: 0>} : (!ptensor.ptensor<?x3xf32, team = 1>, !ptensor.ptensor<?x4xf32, team = 1>) -> !ptensor.ptensor<3x4xf32, team = 1>
  %3 = ptensor.tensordot %g, %a {lhs_axes = array<i64: 1>, rhs_axes = array<i64: 1>} : (!ptensor.ptensor<?x3x4xf32, team = 1>, !ptensor.ptensor<?x3xf32, team = 1>) -> !ptensor.ptensor<?x4x?xf32, team = 1>
  return %0, %1, %2, %3 : !ptensor.ptensor<4xf32, team = 1>, !ptensor.ptensor<?x3x2xf32, team = 1>, !ptensor.ptensor<3x4xf32, team = 1>, !ptensor.ptensor<?x4x?xf32, team = 1>
}
func.func @distinct(%a: !ptensor.ptensor<?x3xf32, team = 1>) -> (!ptensor.ptensor<?xf32, team = 1>, !ptensor.ptensor<?xf32, team = 1>, !ptensor.ptensor<?xi64, team = 1>) {
  %0 = ptensor.unique values %a : !ptensor.ptensor<?x3xf32, team = 1> -> (!ptensor.ptensor<?xf32, team = 1>)
  %1:2 = ptensor.unique counts %a : !ptensor.ptensor<?x3xf32, team = 1> -> (!ptensor.ptensor<?xf32, team = 1>, !ptensor.ptensor<?xi64, team = 1>)
  return %0, %1#0, %1#1 : !ptensor.ptensor<?xf32, team = 1>, !ptensor.ptensor<?xf32, team = 1>, !ptensor.ptensor<?xi64, team = 1>
}
func.func @product(%a: !ptensor.ptensor<10x3xf32, team = 1>, %b: !ptensor.ptensor<3x10xf32, team = 1>) -> !ptensor.ptensor<10x10xf32, team = 1> {
  %0 = ptensor.matmul %a, %b : (!ptensor.ptensor<10x3xf32, team = 1>, !ptensor.ptensor<3x10xf32, team = 1>) -> !ptensor.ptensor<10x10xf32, team = 1>
  return %0 : !ptensor.ptensor<10x10xf32, team = 1>
}
func.func @local_views(%a: !ptensor.ptensor<?x3xf32, team = 1>, %w: !ptensor.ptensor<3x4xf32, team = 1>, %v: !ptensor.ptensor<3xf32, team = 1>) -> (!ptensor.ptensor<?x3xf32, team = 1>, !ptensor.ptensor<?x1x3xf32, team = 1>, !ptensor.ptensor<?x4xf32, team = 1>, !ptensor.ptensor<?xf32, team = 1>) {
  %0 = ptensor.flip %a [1] : !ptensor.ptensor<?x3xf32, team = 1> -> !ptensor.ptensor<?x3xf32, team = 1>
  %1 = ptensor.expand_dims %a 1 : !ptensor.ptensor<?x3xf32, team = 1> -> !ptensor.ptensor<?x1x3xf32, team = 1>
  %2 = ptensor.matmul %a, %w : (!ptensor.ptensor<?x3xf32, team = 1>, !ptensor.ptensor<3x4xf32, team = 1>) -> !ptensor.ptensor<?x4xf32, team = 1>
  %3 = ptensor.matmul %a, %v : (!ptensor.ptensor<?x3xf32, team = 1>, !ptensor.ptensor<3xf32, team = 1>) -> !ptensor.ptensor<?xf32, team = 1>
  return %0, %1, %2, %3 : !ptensor.ptensor<?x3xf32, team = 1>, !ptensor.ptensor<?x1x3xf32, team = 1>, !ptensor.ptensor<?x4xf32, team = 1>, !ptensor.ptensor<?xf32, team = 1>
}
func.func @bools(%a: !ptensor.ptensor<?x3xf32, team = 1>) -> (!ptensor.ptensor<3xi1, team = 1>, !ptensor.ptensor<3xi1, team = 1>, !ptensor.ptensor<3xi64, team = 1>, !ptensor.ptensor<3xf16, team = 1>) {
  %c = arith.constant 0.5 : f32
  %m = ptensor.elementwise_binary_test greater %a, %c : (!ptensor.ptensor<?x3xf32, team = 1>, f32) -> !ptensor.ptensor<?x3xi1, team = 1>
  %0 = ptensor.reduce sum %m axes [0] {dtype = i1} : !ptensor.ptensor<?x3xi1, team = 1> -> !ptensor.ptensor<3xi1, team = 1>
  %1 = ptensor.reduce prod %m axes [0] {dtype = i1} : !ptensor.ptensor<?x3xi1, team = 1> -> !ptensor.ptensor<3xi1, team = 1>
  %2 = ptensor.reduce sum %m axes [0] : !ptensor.ptensor<?x3xi1, team = 1> -> !ptensor.ptensor<3xi64, team = 1>
  %3 = ptensor.reduce sum %a axes [0] {dtype = f16} : !ptensor.ptensor<?x3xf32, team = 1> -> !ptensor.ptensor<3xf16, team = 1>
  return %0, %1, %2, %3 : !ptensor.ptensor<3xi1, team = 1>, !ptensor.ptensor<3xi1, team = 1>, !ptensor.ptensor<3xi64, team = 1>, !ptensor.ptensor<3xf16, team = 1>
}
func.func @batched(%a: !ptensor.ptensor<10x3xf32, team = 1>, %c: !ptensor.ptensor<2x3x4xf32, team = 1>) -> !ptensor.ptensor<2x10x4xf32, team = 1> {
  %0 = ptensor.matmul %a, %c : (!ptensor.ptensor<10x3xf32, team = 1>, !ptensor.ptensor<2x3x4xf32, team = 1>) -> !ptensor.ptensor<2x10x4xf32, team = 1>
  return %0 : !ptensor.ptensor<2x10x4xf32, team = 1>
}
func.func @queries(%a: !ptensor.ptensor<?x3xf32, team = 1>) -> (!ptensor.ptensor<?xi64>, !ptensor.ptensor<?x?xf32>) {
  %m, %n = ptensor.shape %a : !ptensor.ptensor<?x3xf32, team = 1>
  %s = ptensor.size %a : !ptensor.ptensor<?x3xf32, team = 1>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1.0 : f32
  %r = ptensor.arange %c0, %s, %c1 : index -> !ptensor.ptensor<?xi64>
  %o = ptensor.create (%m, %n) fill %one : f32 -> !ptensor.ptensor<?x?xf32>
  return %r, %o : !ptensor.ptensor<?xi64>, !ptensor.ptensor<?x?xf32>
}
func.func @search(%s: !ptensor.ptensor<?xf32, team = 1>, %a: !ptensor.ptensor<?x3xf32, team = 1>, %p: !ptensor.ptensor<?xi64, team = 1>, %x: !ptensor.ptensor<f32, team = 1>) -> (!ptensor.ptensor<?x3xi64, team = 1>, !ptensor.ptensor<?xi64, team = 1>, !ptensor.ptensor<i64, team = 1>) {
  %0 = ptensor.searchsorted right %s, %a sorter %p : (!ptensor.ptensor<?xf32, team = 1>, !ptensor.ptensor<?x3xf32, team = 1>, !ptensor.ptensor<?xi64, team = 1>) -> !ptensor.ptensor<?x3xi64, team = 1>
  %1 = ptensor.searchsorted %s, %s sorter %p : (!ptensor.ptensor<?xf32, team = 1>, !ptensor.ptensor<?xf32, team = 1>, !ptensor.ptensor<?xi64, team = 1>) -> !ptensor.ptensor<?xi64, team = 1>
  %2 = ptensor.searchsorted %s, %x sorter %p : (!ptensor.ptensor<?xf32, team = 1>, !ptensor.ptensor<f32, team = 1>, !ptensor.ptensor<?xi64, team = 1>) -> !ptensor.ptensor<i64, team = 1>
  return %0, %1, %2 : !ptensor.ptensor<?x3xi64, team = 1>, !ptensor.ptensor<?xi64, team = 1>, !ptensor.ptensor<i64, team = 1>
}
func.func @deleted(%s: !ptensor.ptensor<?xf32, team = 1>, %a: !ptensor.ptensor<?x3xf32, team = 1>) -> (!ptensor.ptensor<?x3xi64, team = 1>, !ptensor.ptensor<?x3xf32, team = 1>) {
  %e = ptensor.elementwise_unary negative %s : (!ptensor.ptensor<?xf32, team = 1>) -> !ptensor.ptensor<?xf32, team = 1>
  %t = ptensor.sort %e : !ptensor.ptensor<?xf32, team = 1> -> !ptensor.ptensor<?xf32, team = 1>
  %n = ptensor.elementwise_unary negative %a : (!ptensor.ptensor<?x3xf32, team = 1>) -> !ptensor.ptensor<?x3xf32, team = 1>
  %i = ptensor.searchsorted %t, %n : (!ptensor.ptensor<?xf32, team = 1>, !ptensor.ptensor<?x3xf32, team = 1>) -> !ptensor.ptensor<?x3xi64, team = 1>
  ptensor.delete %t : !ptensor.ptensor<?xf32, team = 1>
  %r = ptensor.elementwise_binary multiply %a, %a : (!ptensor.ptensor<?x3xf32, team = 1>, !ptensor.ptensor<?x3xf32, team = 1>) -> !ptensor.ptensor<?x3xf32, team = 1>
  return %i, %r : !ptensor.ptensor<?x3xi64, team = 1>, !ptensor.ptensor<?x3xf32, team = 1>
}
func.func @created(%n: index) -> (!ptensor.ptensor<?xi64, team = 1>, !ptensor.ptensor<?xi64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = ptensor.arange %c0, %n, %c1 : index -> !ptensor.ptensor<?xi64, team = 1>
  %sq = ptensor.elementwise_binary multiply %r, %r : (!ptensor.ptensor<?xi64, team = 1>, !ptensor.ptensor<?xi64, team = 1>) -> !ptensor.ptensor<?xi64, team = 1>
  %whole = ptensor.copy %sq : !ptensor.ptensor<?xi64, team = 1> -> !ptensor.ptensor<?xi64>
  return %sq, %whole : !ptensor.ptensor<?xi64, team = 1>, !ptensor.ptensor<?xi64>
}
"""


def functions(module):
    """The public functions of `module` (none calls another), by name."""
    chunks = re.split(r"(?m)^(?=func\.func @)", module)
    return {re.match(r"func\.func @(\w+)", c).group(1): c
            for c in chunks if c.startswith("func.func")}


#: The launcher's prefix of the runner: with --gpu-per-process, a shell
#: that sets CUDA_VISIBLE_DEVICES to the process's local rank first.
RUNNER = ["ptensor-runner"]


def run(tmp, processes, entry, inputs):
    out = os.path.join(tmp, f"{entry}-{processes}")
    # A module of each function alone where there is one (GPU code is
    # compiled on every run: the whole module would be compiled each time).
    module = os.path.join(tmp, f"{entry}.mlir")
    if not os.path.exists(module):
        module = os.path.join(tmp, "teams.mlir")
    command = ["mpirun", "-np", str(processes), *RUNNER,
               module, "-e", entry, "--output-dir", out]
    for path in inputs:
        command += ["--input", path]
    try:
        done = subprocess.run(command, capture_output=True, text=True,
                              timeout=300)
    except subprocess.TimeoutExpired:
        sys.exit(f"{' '.join(command)} did not end in 300 s (a hang?)")
    if done.returncode != 0:
        sys.exit(f"{' '.join(command)} failed ({done.returncode}):\n"
                 f"{done.stdout}{done.stderr}")
    results = []
    index = 0
    while os.path.exists(os.path.join(out, f"out{index}.npy")):
        results.append(np.load(os.path.join(out, f"out{index}.npy")))
        index += 1
    # Written (out=) arguments after the results, in argument order.
    for index in range(len(inputs)):
        path = os.path.join(out, f"arg{index}.npy")
        if os.path.exists(path):
            results.append(np.load(path))
    return results


# Cases whose float results must equal numpy's bit for bit (-0.0 and 0.0
# in their places: stable sorts keep the input's order of equal zeros).
EXACT = {"lines"}


def check(name, processes, got, expected):
    assert len(got) == len(expected), (name, processes, len(got))
    for i, (g, e) in enumerate(zip(got, expected)):
        e = np.asarray(e)
        assert g.shape == e.shape, (name, processes, i, g.shape, e.shape)
        assert g.dtype == e.dtype, (name, processes, i, g.dtype, e.dtype)
        if name in EXACT:
            assert g.tobytes() == e.tobytes(), (name, processes, i, g, e)
        if g.dtype.kind == "f":
            np.testing.assert_allclose(g, e, rtol=2e-6, atol=1e-6,
                                       err_msg=f"{name} on {processes}: #{i}")
        else:
            np.testing.assert_array_equal(g, e, err_msg=f"{name} on {processes}: #{i}")


def row_joins(d, j):
    """What @row_joins returns for `d` (f32) and `j` (i32) of 3 columns."""
    joined = np.concatenate([d, j.astype(np.float32), d])
    return [np.roll(d, 3, 0), np.roll(d, (-13, 1, 2), (0, 1, -2)),
            np.roll(d, 1, 1), joined,
            joined.astype(np.float64).sum(0).astype(np.float32),
            np.concatenate([j, j]),
            np.stack([d, j.astype(np.float32), d]), j[None]]


def distinct(x):
    """What @distinct returns: unique values, then unique counts (NaNs each
    distinct)."""
    values, counts = np.unique(x, return_counts=True, equal_nan=False)
    return [values, values, counts.astype(np.int64)]


def descending_order(x):
    """The stable descending order of ptensor.sort: NaNs first, then from
    the largest, equal elements (-0.0 and 0.0 too) in input order."""
    nan = np.isnan(x) if x.dtype.kind == "f" else np.zeros(x.shape, bool)
    key = [(0, 0.0) if nan[i] else (1, -float(x[i])) for i in range(len(x))]
    return np.array(sorted(range(len(x)), key=lambda i: key[i]), np.int64)


def lines(v, i, h):
    """What @lines returns: 1-D sorts and argsort (sample sorts across the
    team)."""
    down = descending_order(v)
    return [np.sort(v, kind="stable"), v[down], i[descending_order(i)],
            np.sort(h, kind="stable"), down,
            np.argsort(i, kind="stable").astype(np.int64)]


def sorts(a, d, v):
    """What @sorts returns (the argsorted values, uniform random floats,
    have no ties: the indices are numpy's)."""
    return [np.sort(a, 0), np.argsort(-d, 0, kind="stable"), np.sort(a),
            np.sort(v), np.argsort(a, 1, kind="stable")]


def dots(a, b, v, x, i):
    """What @dots returns (x: f16 multiples of 1/8, whose products and sums
    are exact)."""
    return [np.vecdot(a, b), np.vecdot(a, b, axis=0), np.vecdot(a, v),
            np.array(np.vecdot(x, x)), np.array(np.vecdot(i, i))]


def found(z, a, r, i):
    """What @found returns."""
    picked = a[z > 0]
    return list(np.nonzero(z)) + [np.nonzero(i)[0], a[r > 0], picked,
                                  np.array(picked.astype(np.float64).sum(),
                                           np.float32)]


def contractions(x, m, a, g, h):
    """What @contractions returns (x, m and a of one number of rows, g and
    h of another)."""
    return [x @ m, g @ h, np.tensordot(a, m, ([0], [0])),
            np.tensordot(g, a, ([1], [1]))]


def on_device(module, device):
    """`module` with every tensor on `device` (None: the host): a function
    runs on one device."""
    if device is None:
        return module
    return re.sub(r"!ptensor\.ptensor<([^<>]*?)(, team = 1)?>",
                  rf'!ptensor.ptensor<\1, device = "{device}"\2>', module)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--device", help='where the tensors live ("cuda")')
    parser.add_argument("--processes", default="1,2,3,4",
                        help="team sizes to run (comma-separated)")
    parser.add_argument("--entries",
                        help="only these functions (comma-separated)")
    parser.add_argument("--keep-going", action="store_true",
                        help="report every failing case, not the first")
    parser.add_argument("--gpu-per-process", action="store_true",
                        help="process r of a node uses its GPU r (Open MPI's "
                             "local rank as CUDA_VISIBLE_DEVICES)")
    args = parser.parse_args()
    if args.gpu_per_process:
        RUNNER[:] = ["sh", "-c", 'CUDA_VISIBLE_DEVICES="$OMPI_COMM_WORLD_LOCAL_RANK" '
                     'exec ptensor-runner "$@"', "ptensor-runner"]
    team_sizes = [int(p) for p in args.processes.split(",")]
    rng = np.random.default_rng(19)
    with tempfile.TemporaryDirectory() as tmp:
        module = on_device(MODULE, args.device)
        with open(os.path.join(tmp, "teams.mlir"), "w") as f:
            f.write(module)
        if args.device:
            for name, text in functions(module).items():
                with open(os.path.join(tmp, f"{name}.mlir"), "w") as f:
                    f.write(text)
        arrays = {
            "a": rng.random((10, 3), dtype=np.float32),
            "b": rng.random((10, 3), dtype=np.float32),
            "v": rng.random(3, dtype=np.float32),
            "bt": None,
            "w": rng.random((3, 4), dtype=np.float32),
            "c": rng.random((2, 3, 4), dtype=np.float32),
            "g": rng.random((5, 3, 4), dtype=np.float32),
            "r": rng.random((1, 3), dtype=np.float32),
            "s": np.array(0.5, dtype=np.float32),
            "i": rng.integers(-3, 4, 7).astype(np.int32),
            "n": np.array(11, dtype=np.int64),
            "two": np.array(2, dtype=np.int64),
            "one": np.array(1, dtype=np.int64),
            "five": np.array(5, dtype=np.int64),
            # Unsorted, searched through its argsort: 13 elements over up
            # to 4 processes, ties included.
            "u": rng.integers(0, 8, 13).astype(np.float32) / 8,
            "x": np.array(0.5, dtype=np.float32),
            # Two rows over up to 4 processes: empty blocks; a NaN in the
            # second row's first column.
            "h": np.array([[1.5, -2.0], [np.nan, 3.0]], dtype=np.float16),
            # Two rows: on 3 and 4 processes some blocks have none.
            "e": rng.random((2, 3), dtype=np.float32),
            "f": rng.random((2, 2), dtype=np.float32),
            "j": rng.integers(-50, 50, (10, 3)).astype(np.int32),
            "k": rng.integers(-50, 50, (2, 3)).astype(np.int32),
            "x8": (rng.integers(-8, 9, 11) / 8).astype(np.float16),
            # Zeros and ones: nonzero and masks pick about half.
            "z": rng.integers(0, 2, (10, 3)).astype(np.float32),
            "z2": np.array([[0, 1, 1], [0, 0, 1]], dtype=np.float32),
            "rm": rng.integers(-1, 2, 10).astype(np.float32),
            "rm2": np.array([1, -1], dtype=np.float32),
            "x10": rng.random(10, dtype=np.float32),
            "m": rng.random((10, 4), dtype=np.float32),
            "hh": rng.random((5, 4, 2), dtype=np.float32),
            "x2": rng.random(2, dtype=np.float32),
            "m2": rng.random((2, 4), dtype=np.float32),
            "hh2": rng.random((2, 4, 2), dtype=np.float32),
            # Few distinct values, -0.0 beside 0.0, NaNs (each distinct).
            "q": rng.choice(np.array([0.0, -0.0, 1.5, 2.0, np.nan],
                                     dtype=np.float32), (10, 3)),
            "q2": np.array([[np.nan, -0.0, 1.5], [0.0, 1.5, np.nan]],
                           dtype=np.float32),
            # Ties, -0.0 beside 0.0, NaNs and infinities for the sample
            # sort; two elements: processes with none.
            "l": rng.choice(np.array([0.0, -0.0, 1.5, 2.0, np.nan, -3.0, 7.0,
                                      np.inf, -np.inf], dtype=np.float32),
                            37),
            "l2": np.array([np.nan, -0.0], dtype=np.float32),
            "li": rng.integers(-4, 5, 29).astype(np.int32),
            "li2": np.array([3, -1], dtype=np.int32),
            # Indices in range of 3 columns and of 2 or 10 rows, negative
            # ones and repeats.
            "ti": rng.integers(-3, 3, 7).astype(np.int32),
            "ti2": rng.integers(-2, 2, 5).astype(np.int32),
            "lh": np.array([0.5, np.nan, -2.0, 0.5, -0.0, 0.0, 65504.0],
                           dtype=np.float16),
            "t": np.array([[0.0, 5.0, 5.0], [7.0, 1.0, 7.0], [7.0, 0.5, -1.0],
                           [2.0, 7.0, 3.0]], dtype=np.float32),
        }
        arrays["bt"] = np.ascontiguousarray(arrays["b"].T)
        arrays["p"] = np.argsort(arrays["u"], kind="stable").astype(np.int64)
        paths = {}
        for key, value in arrays.items():
            paths[key] = os.path.join(tmp, key + ".npy")
            np.save(paths[key], value)
        a, b, v, r, s = (arrays[k] for k in "abvrs")
        i, h, t, e, g = (arrays[k] for k in "ihteg")
        squares = np.arange(11, dtype=np.int64) ** 2
        u, p = arrays["u"], arrays["p"]
        cases = [
            ("chain", ["a", "b", "s"], [np.exp((a + b) * s)]),
            # Writes (out=) into team arguments, and into a view keeping
            # the rows: gathered back into every process's arrays (the
            # arguments after the results); 2 rows: blocks of none.
            ("written", ["a", "b"], [np.array((a + b).sum(), np.float32), a + b,
                                     np.concatenate([b[:, :1], b[:, 1:] * 2], 1)]),
            ("written", ["e", "e"], [np.array((e + e).sum(), np.float32),
                                     e + e, np.concatenate([e[:, :1], e[:, 1:] * 2], 1)]),
            # a = flip(a) + b: the flip's rows move before the write (and
            # are not viewed after it).
            ("flipped_in_place", ["a", "b"], [a[::-1] + b]),
            ("row", ["a", "v", "r"], [(a - v) * r]),
            ("reductions", ["a"], [a.sum(0), a.max(1), np.array(a.min()),
                                   a.max(0), np.array((a > 0.9).any())]),
            ("ints", ["i"], [np.array(i.sum(dtype=np.int64)),
                             np.array(i.prod(dtype=np.int64))]),
            ("created", ["n"], [squares, squares]),
            # shape and size are the global ones (no gather).
            ("queries", ["a"], [np.arange(30, dtype=np.int64),
                                np.ones((10, 3), np.float32)]),
            ("views", ["a"], [a.T, a[::-1], a[1:8:2], np.sort(a, 0)]),
            # Slices taking every row are slices of the blocks (no gather),
            # also where a block has no rows (e: 2 rows).
            ("row_slices", ["a", "b"], [a[:, 1:3], b[:, 2:0:-1],
                                        b[:, 2:0:-1].sum(0)]),
            # Reshapes keeping the rows reshape the blocks; a flattening
            # one gathers.
            ("row_reshapes", ["a", "b"], [a.reshape(10, 3, 1),
                                          b.reshape(10, 1, 3),
                                          np.array(b.sum(dtype=np.float64),
                                                   np.float32),
                                          a.reshape(-1)]),
            ("row_slices", ["a", "e"], [a[:, 1:3], e[:, 2:0:-1],
                                        e[:, 2:0:-1].sum(0)]),
            ("row_reshapes", ["a", "e"], [a.reshape(10, 3, 1),
                                          e.reshape(2, 1, 3),
                                          np.array(e.sum(dtype=np.float64),
                                                   np.float32),
                                          a.reshape(-1)]),
            ("short_joins", ["e", "f"], [np.concatenate([e, arrays["f"]], 1),
                                         np.stack([e, e], 2)]),
            # Slices and flips of the rows move rows between processes
            # (no gather); with 10 and 2 rows (blocks of none).
            ("row_moves", ["a", "b", "two"],
             [a[1:8:2, :2], a[::-1], arrays["b"][::-1, ::-1],
              arrays["b"][1::-1], arrays["b"][1::-1].mean(0)]),
            ("row_moves", ["a", "e", "two"],
             [a[1:8:2, :2], a[::-1], e[::-1, ::-1], e[1::-1],
              e[1::-1].mean(0)]),
            # Permutes moving the split dim resplit the blocks (one
            # all-to-all, no gather), also of 2 rows (blocks of none).
            ("permutes", ["a", "g"], [a.T, g.transpose(2, 0, 1),
                                      g.transpose(1, 2, 0),
                                      g.transpose(2, 0, 1).sum(2)]),
            ("permutes", ["e", "c"], [e.T, arrays["c"].transpose(2, 0, 1),
                                      arrays["c"].transpose(1, 2, 0),
                                      arrays["c"].transpose(2, 0, 1).sum(2)]),
            # Reshapes changing the rows reblock the elements (one
            # all-to-all of contiguous ranges, no gather), also of 2 rows.
            ("reblocks", ["a", "five"], [a.reshape(-1), a.reshape(-1, 2),
                                         a.reshape(5, 1, 6),
                                         a.reshape(-1, 2).sum(0)]),
            ("reblocks", ["e", "one"], [e.reshape(-1), e.reshape(-1, 2),
                                        e.reshape(1, 1, 6),
                                        e.reshape(-1, 2).sum(0)]),
            # Rolls of the rows are two slices of them and concats along
            # the rows a slice of each operand, moved between processes
            # (no gather; an i32 operand cast on its block); a stack along
            # the rows and an expand_dims at 0 reblock each operand into
            # one row first; with 10 and 2 rows (blocks of none), and rows
            # not dividing the shift.
            ("row_joins", ["a", "j"], row_joins(a, arrays["j"])),
            ("row_joins", ["e", "k"], row_joins(e, arrays["k"])),
            # Sorts along the rows of a tensor of rank >= 2 move the split
            # dim last and back (two resplits, no gather), along other dims
            # they sort the blocks alone; a 1-D sort is a sample sort.
            ("sorts", ["a", "g", "u"], sorts(a, g, u)),
            ("sorts", ["e", "c", "u"], sorts(e, arrays["c"], u)),
            # 1-D sorts and argsorts are sample sorts (each process sorts
            # its block, runs between splitters chosen alike move to their
            # process, argsort's global positions beside them): stable,
            # NaNs and -0.0 in numpy's places, f16, descending; with fewer
            # elements than processes.
            ("lines", ["l", "li", "lh"],
             lines(arrays["l"], arrays["li"], arrays["lh"])),
            ("lines", ["l2", "li2", "lh"],
             lines(arrays["l2"], arrays["li2"], arrays["lh"])),
            # take along the rows: the indices' blocks stay, the source is
            # gathered; along the columns: the source's blocks stay.
            ("takes", ["a", "ti"], [np.take(a, arrays["ti"], 0),
                                    np.take(a, arrays["ti"], -1)]),
            ("takes", ["e", "ti2"], [np.take(e, arrays["ti2"], 0),
                                     np.take(e, arrays["ti2"], -1)]),
            # Joins beside the rows are local; along them, rows move.
            ("joins", ["a", "b"], [np.concatenate([a, b], -1),
                                   np.stack([b, a], 1),
                                   np.concatenate([a, b], 0)]),
            # tril/triu of a split matrix: each block is told its first
            # row; of a batch: the blocks hold whole matrices (no gather).
            ("triangles", ["a", "g"], [np.tril(a, -1), np.triu(a, 1),
                                       np.triu(g)]),
            ("triangles", ["e", "c"], [np.tril(e, -1), np.triu(e, 1),
                                       np.triu(arrays["c"])]),
            # The input varying along the rows keeps its block; the other
            # is gathered.
            ("grids", ["v", "u"], list(np.meshgrid(v, u)) +
             list(np.meshgrid(v, u, indexing="ij"))),
            # Along the rows: partial products summed over the team; along
            # other dims: the blocks' rows are the result's.
            ("dots", ["a", "b", "v", "x8", "i"],
             dots(a, b, v, arrays["x8"], i)),
            ("dots", ["e", "e", "v", "x8", "i"],
             dots(e, e, v, arrays["x8"], i)),
            # Results of data-dependent size: each process finds or
            # masks its block and the parts are rebalanced into blocks
            # (no gather of the input).
            ("found", ["z", "a", "rm", "i"],
             found(arrays["z"], a, arrays["rm"], i)),
            ("found", ["z2", "e", "rm2", "i"],
             found(arrays["z2"], e, arrays["rm2"], i)),
            # x @ A and a tensordot over the split dims sum partial
            # products; a batched matmul keeps both blocks, a tensordot
            # over other dims gathers the operand without the rows.
            ("contractions", ["x10", "m", "a", "g", "hh"],
             contractions(arrays["x10"], arrays["m"], a, g, arrays["hh"])),
            ("contractions", ["x2", "m2", "e", "c", "hh2"],
             contractions(arrays["x2"], arrays["m2"], e, arrays["c"],
                          arrays["hh2"])),
            # Each process's distinct values are gathered (not the
            # input) and made distinct again; counts: a sample sort's
            # exchange, then each process's values and counts.
            ("distinct", ["q"], distinct(arrays["q"])),
            ("distinct", ["q2"], distinct(arrays["q2"])),
            ("product", ["a", "bt"], [a @ b.T]),
            # The values' blocks are the result's; sorted and sorter are
            # gathered.
            ("search", ["u", "a", "p", "x"],
             [np.searchsorted(u, a, side="right", sorter=p),
              np.searchsorted(u, u, sorter=p),
              np.array(np.searchsorted(u, arrays["x"], sorter=p))]),
            # A sorted split temporary deleted after a search gathered it.
            ("deleted", ["u", "a"], [np.searchsorted(np.sort(-u), -a), a * a]),
            ("batched", ["a", "c"], [a @ arrays["c"]]),
            # numpy's bool sum is an or, its bool product an and; a
            # requested f16 rounds each element first, as on one process
            # (the f64 sum of f16 values is exact in any order).
            ("bools", ["a"], [np.sum(a > 0.5, 0, dtype=bool),
                              np.prod(a > 0.5, 0, dtype=bool),
                              np.sum(a > 0.5, 0),
                              a.astype(np.float16).astype(np.float64).sum(0)
                              .astype(np.float16)]),
            ("local_views", ["a", "w", "v"], [a[:, ::-1], a[:, None, :],
                                              a @ arrays["w"], a @ v]),
            ("filled", ["n", "s"], [np.full((11, 2), 0.5, np.float32),
                                    np.array(11.0, np.float32)]),
            ("moments", ["a"], [a.mean(0), a.var(0, ddof=1, keepdims=True),
                                np.array(a.std()), a.mean(0)]),
            # Ties across blocks: the first occurrence wins.
            ("arg", ["t"], [t.argmax(0), np.array(t.argmin()),
                            np.array(t.argmax()).reshape(1, 1)]),
            ("arg", ["a"], [a.argmax(0), np.array(a.argmin()),
                            np.array(a.argmax()).reshape(1, 1)]),
            ("extrema", ["h"], [np.maximum.reduce(h, 0), np.minimum.reduce(h, 0),
                                h.astype(np.float64).sum(0).astype(np.float16)]),
        ]
        failures = []
        for processes in team_sizes:
            for entry, names, expected in cases:
                if args.entries and entry not in args.entries.split(","):
                    continue
                try:
                    got = run(tmp, processes, entry,
                              [paths[k] for k in names])
                    check(entry, processes, got, expected)
                except (SystemExit, AssertionError) as e:
                    if not args.keep_going:
                        raise
                    failures.append(f"{entry} {names} on {processes}: "
                                    f"{str(e)[:1500]}")
                    print("FAIL", failures[-1], flush=True)
        if failures:
            sys.exit(f"teams: {len(failures)} cases failed")
    print(f"teams: all results equal numpy's on {args.processes} processes"
          f" ({args.device or 'host'})")


if __name__ == "__main__":
    main()
