#pragma once

#include <gtest/gtest.h>

#include <cmath>

#include "tensor.hpp"

// Every cell of `actual` within `tolerance` of `expected`, shapes equal; names the first miss.
template <class A, class E>
::testing::AssertionResult AllClose(const A& actual, const E& expected, double tolerance) {
  if (actual.shape() != expected.shape()) return ::testing::AssertionFailure() << "shapes differ";
  for (std::size_t i = 0; i < actual.size(); ++i) {
    const double a = actual.flat(i), e = expected.flat(i);
    if (!(std::fabs(a - e) <= tolerance))
      return ::testing::AssertionFailure()
             << "flat index " << i << ": got " << a << ", expected " << e;
  }
  return ::testing::AssertionSuccess();
}
