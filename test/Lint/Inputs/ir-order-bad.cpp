// Not compiled: input of test/Lint/ir-order.test.
Value both(OpBuilder &b, Location loc, Value x, Value y) {
  auto eq = [&](Value v, Value w) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, v, w);
  };
  return arith::AndIOp::create(b, loc, eq(x, y),
                               arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, x, y));
}
