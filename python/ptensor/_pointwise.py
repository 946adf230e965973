class PointwiseFunction: pass
def pointwise(**kw): pass
