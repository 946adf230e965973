func.func @row_sum(%a: !ptensor.ptensor<?x?xf32, device = "cuda:0">) -> !ptensor.ptensor<?xf32, device = "cuda:0"> {
  %s = ptensor.reduce sum %a axes [1] : !ptensor.ptensor<?x?xf32, device = "cuda:0"> -> !ptensor.ptensor<?xf32, device = "cuda:0">
  return %s : !ptensor.ptensor<?xf32, device = "cuda:0">
}
