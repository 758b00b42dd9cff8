// Seeded random inputs of one attention call: q, k and v of a shape, contiguous 4-D
// ([batch, heads, seq, size]), drawn in that order from the test's generator.
#pragma once

#include <random>
#include <vector>

#include "attention.hpp"
#include "reference64.hpp"

struct RandomQkv {
  std::vector<float> q, k, v;
};

inline RandomQkv random_qkv(std::mt19937& rng, const attention::AttentionShape& s) {
  RandomQkv in;
  in.q = reference64::random_floats(rng, s.batch * s.q_num_heads * s.q_seq_len * s.head_size);
  in.k = reference64::random_floats(rng, s.batch * s.kv_num_heads * s.kv_seq_len * s.head_size);
  in.v = reference64::random_floats(rng, s.batch * s.kv_num_heads * s.kv_seq_len * s.v_head_size);
  return in;
}
