// The article's worked example (docs/article.md): three 4-dim tokens, 4x3 weights.
#pragma once

#include "tensor.hpp"

namespace article {

inline attention::Matrix inputs() { return {{1, 0, 1, 0}, {0, 2, 0, 2}, {1, 1, 1, 1}}; }
inline attention::Matrix w_key() { return {{0, 0, 1}, {1, 1, 0}, {0, 1, 0}, {1, 1, 0}}; }
inline attention::Matrix w_query() { return {{1, 0, 1}, {1, 0, 0}, {0, 0, 1}, {0, 1, 1}}; }
inline attention::Matrix w_value() { return {{0, 2, 0}, {0, 3, 0}, {1, 0, 3}, {1, 1, 0}}; }

inline attention::Matrix keys() { return {{0, 1, 1}, {4, 4, 0}, {2, 3, 1}}; }
inline attention::Matrix values() { return {{1, 2, 3}, {2, 8, 0}, {2, 6, 3}}; }
inline attention::Matrix queries() { return {{1, 0, 2}, {2, 2, 2}, {2, 1, 3}}; }
inline attention::Matrix scores() { return {{2, 4, 4}, {4, 16, 12}, {4, 12, 10}}; }
inline attention::Matrix weights() {
  return {{0.063379, 0.468311, 0.468311},
          {0.000006, 0.982008, 0.017986},
          {0.000295, 0.880537, 0.119168}};
}
inline attention::Matrix outputs() {
  return {{1.936621, 6.683105, 1.595068},
          {1.999994, 7.963992, 0.053976},
          {1.999705, 7.759892, 0.358389}};
}
inline attention::Matrix scaled_weights() {
  return {{0.136126, 0.431937, 0.431937},
          {0.000890, 0.908843, 0.090267},
          {0.007445, 0.754708, 0.237848}};
}
inline attention::Matrix scaled_outputs() {
  return {{1.863874, 6.319371, 1.704189},
          {1.999110, 7.814124, 0.273472},
          {1.992555, 7.479636, 0.735877}};
}

}  // namespace article
