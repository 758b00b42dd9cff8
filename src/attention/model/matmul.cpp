#include "model/matmul.hpp"

#include <algorithm>
#include <xsimd/xsimd.hpp>

#include "kernels/multiply_add.hpp"

namespace attention::model {

namespace {

using batch = xsimd::batch<float>;
constexpr std::size_t lanes = batch::size;

// The operands with their row strides resolved: element (i, p) of the left operand is
// a[i * lda + p], or a[p * lda + i] when a is stored transposed (inner x rows).
template <bool Transposed>
struct Operands {
  const float* a;
  const float* b;
  float* c;
  std::size_t lda, ldb, ldc, inner;
  float left(std::size_t i, std::size_t p) const {
    return Transposed ? a[p * lda + i] : a[i * lda + p];
  }
};

template <bool Transposed>
Operands<Transposed> resolve(const float* a, const float* b, float* c, std::size_t rows,
                             std::size_t inner, std::size_t cols, Strides s) {
  const std::size_t dense_a = Transposed ? rows : inner;
  return {a, b, c, s.a ? s.a : dense_a, s.b ? s.b : cols, s.c ? s.c : cols, inner};
}

// The register tile: rows r .. r + tile_rows - 1 of c, tile_vectors vectors of columns. 2 x 4
// as the attention kernels' (kernels/register_block.hpp): 8 accumulators, 4 vectors of b, a
// splat and a product fit V8's ~15 vector registers on x86-64. The 4 x 3 tile this replaces
// spilled five accumulators to the stack in V8's code (perf annotate of the training step),
// and its loop recomputed every address with a multiply each step; the same products with
// this tile and the pointer-walking loop below measured the larger benchmark model's whole
// step at 87-92% of the mul + add peak against 49-54% (bench/matmul-node.mjs, CPU time, the
// peak in the same rounds). 4 x 2 measured the same as 2 x 4 within the noise.
constexpr std::size_t tile_rows = 2, tile_vectors = 4;
static_assert(tile_vectors * lanes == panel_columns, "a packed panel is one tile wide");

// Products 2 vectors wide (the attention's P . V, dQ, dV and dK at head size 8) keep 8
// accumulators with a 4 x 2 tile (half the attention's row block of 8); with 2 x 2 they had 4
// chains of additions, each waiting on its own last sum. (Tiles for 1 and 3 vectors, met only
// by the first blocks' scores, were not worth their code in the module's size.)
constexpr std::size_t narrow_rows = 4, narrow_vectors = 2;

// Rows r .. r + R - 1 of c, columns j .. j + V * lanes - 1: R x V accumulators, each column
// vector of b loaded once per p and multiplied by a splat of each row's a[r][p]. The loop walks
// b's and a's pointers (no step counter, no index multiplied per step), as the attention
// kernels' multiply_add_steps does.
template <bool Transposed, std::size_t R, std::size_t V>
void block(const Operands<Transposed>& o, std::size_t r, std::size_t j, bool accumulate) {
  batch acc[R][V];
  for (std::size_t i = 0; i < R; ++i)
    for (std::size_t v = 0; v < V; ++v)
      acc[i][v] =
          accumulate ? batch::load_unaligned(o.c + (r + i) * o.ldc + j + v * lanes) : batch(0.0f);
  const std::size_t a_row = Transposed ? 1 : o.lda;
  const std::size_t a_step = Transposed ? o.lda : 1;
  const float* a = Transposed ? o.a + r : o.a + r * o.lda;
  const float* b = o.b + j;
  const float* const b_end = b + o.inner * o.ldb;
#if defined(__clang__)
#pragma clang loop unroll_count(1)
#endif
  for (; b != b_end; b += o.ldb, a += a_step) {
    batch bv[V];
    for (std::size_t v = 0; v < V; ++v) bv[v] = batch::load_unaligned(b + v * lanes);
    for (std::size_t i = 0; i < R; ++i) {
      const batch ai(a[i * a_row]);
      for (std::size_t v = 0; v < V; ++v) acc[i][v] = kernels::multiply_add(ai, bv[v], acc[i][v]);
    }
  }
  for (std::size_t i = 0; i < R; ++i)
    for (std::size_t v = 0; v < V; ++v)
      acc[i][v].store_unaligned(o.c + (r + i) * o.ldc + j + v * lanes);
}

// Rows r .. r + R - 1 of c, every column: tiles of V vectors, then single vectors, then a
// scalar tail.
template <bool Transposed, std::size_t R, std::size_t V>
void rows_of(const Operands<Transposed>& o, std::size_t r, std::size_t cols, bool accumulate) {
  std::size_t j = 0;
  for (; j + V * lanes <= cols; j += V * lanes) block<Transposed, R, V>(o, r, j, accumulate);
  for (; j + lanes <= cols; j += lanes) block<Transposed, R, 1>(o, r, j, accumulate);
  for (; j < cols; ++j)
    for (std::size_t i = r; i < r + R; ++i) {
      float sum = accumulate ? o.c[i * o.ldc + j] : 0.0f;
      for (std::size_t p = 0; p < o.inner; ++p) sum += o.left(i, p) * o.b[p * o.ldb + j];
      o.c[i * o.ldc + j] = sum;
    }
}

// Tiles of R x V, then the last rows one by one.
template <bool Transposed, std::size_t R, std::size_t V>
void tiled(const Operands<Transposed>& o, std::size_t rows, std::size_t cols, bool accumulate) {
  std::size_t r = 0;
  for (; r + R <= rows; r += R) rows_of<Transposed, R, V>(o, r, cols, accumulate);
  for (; r < rows; ++r) rows_of<Transposed, 1, V>(o, r, cols, accumulate);
}

// Products of many rows read b from a packed copy, one panel of tile_vectors vectors of
// columns at a time: panel_depth rows of the panel, contiguous (16 KiB in wasm), which every
// row of c then reads from the L1 cache. Read in place, a panel's rows are a whole row of b
// apart (2 KiB for the MLP's [128 x 512]): they fall into a few of the L1 cache's sets and
// evict each other. Below packed_min_rows rows (the attention's blocks of 8 query rows)
// the copy costs more than it saves.
constexpr std::size_t panel_depth = 256, packed_min_rows = 16;

template <bool Transposed>
void packed(const Operands<Transposed>& o, std::size_t rows, std::size_t cols, bool accumulate) {
  constexpr std::size_t width = panel_columns;
  alignas(64) float panel[panel_depth * width];
  const std::size_t whole = cols - cols % width;
  for (std::size_t p0 = 0; p0 < o.inner; p0 += panel_depth) {
    // The rows p0 .. p0 + depth - 1 of b (and the matching part of a), added to what the rows
    // before them left in c: every element still sums over p in order.
    Operands<Transposed> part = o;
    part.inner = std::min(panel_depth, o.inner - p0);
    part.a = Transposed ? o.a + p0 * o.lda : o.a + p0;
    part.b = o.b + p0 * o.ldb;
    const bool add = accumulate || p0 > 0;
    for (std::size_t j = 0; j < whole; j += width) {
      for (std::size_t p = 0; p < part.inner; ++p)
        std::copy(part.b + p * o.ldb + j, part.b + p * o.ldb + j + width, panel + p * width);
      Operands<Transposed> from_panel = part;
      from_panel.b = panel;
      from_panel.ldb = width;
      from_panel.c = o.c + j;
      std::size_t r = 0;
      for (; r + tile_rows <= rows; r += tile_rows)
        block<Transposed, tile_rows, tile_vectors>(from_panel, r, 0, add);
      for (; r < rows; ++r) block<Transposed, 1, tile_vectors>(from_panel, r, 0, add);
    }
    // The last columns, fewer than a panel: single vectors and a scalar tail, in place.
    Operands<Transposed> rest = part;
    rest.b = part.b + whole;
    rest.c = o.c + whole;
    tiled<Transposed, tile_rows, tile_vectors>(rest, rows, cols - whole, add);
  }
}

// Every element sums over p in order whatever the tile, so the tile changes no bit.
template <bool Transposed>
void product(const float* a, const float* b, float* c, std::size_t rows, std::size_t inner,
             std::size_t cols, bool accumulate, Strides strides) {
  const Operands<Transposed> o = resolve<Transposed>(a, b, c, rows, inner, cols, strides);
  if (cols / lanes == narrow_vectors)
    return tiled<Transposed, narrow_rows, narrow_vectors>(o, rows, cols, accumulate);
  // (An empty inner dimension takes the tiles too: they store c's zeros.)
  if (rows >= packed_min_rows && inner > 0) return packed<Transposed>(o, rows, cols, accumulate);
  tiled<Transposed, tile_rows, tile_vectors>(o, rows, cols, accumulate);
}

// The plain loops the tuned kernels are tested against.
template <bool Transposed>
void product_reference(const float* a, const float* b, float* c, std::size_t rows,
                       std::size_t inner, std::size_t cols, bool accumulate, Strides strides) {
  const Operands<Transposed> o = resolve<Transposed>(a, b, c, rows, inner, cols, strides);
  for (std::size_t i = 0; i < rows; ++i)
    for (std::size_t j = 0; j < cols; ++j) {
      float sum = accumulate ? o.c[i * o.ldc + j] : 0.0f;
      for (std::size_t p = 0; p < inner; ++p) sum += o.left(i, p) * o.b[p * o.ldb + j];
      o.c[i * o.ldc + j] = sum;
    }
}

}  // namespace

void matmul(const float* a, const float* b, float* c, std::size_t rows, std::size_t inner,
            std::size_t cols, bool accumulate, Strides strides) {
  product<false>(a, b, c, rows, inner, cols, accumulate, strides);
}
void matmul_reference(const float* a, const float* b, float* c, std::size_t rows, std::size_t inner,
                      std::size_t cols, bool accumulate, Strides strides) {
  product_reference<false>(a, b, c, rows, inner, cols, accumulate, strides);
}
void matmul_transposed_a(const float* a, const float* b, float* c, std::size_t rows,
                         std::size_t inner, std::size_t cols, bool accumulate, Strides strides) {
  product<true>(a, b, c, rows, inner, cols, accumulate, strides);
}
void matmul_transposed_a_reference(const float* a, const float* b, float* c, std::size_t rows,
                                   std::size_t inner, std::size_t cols, bool accumulate,
                                   Strides strides) {
  product_reference<true>(a, b, c, rows, inner, cols, accumulate, strides);
}

void transpose(const float* in, float* out, std::size_t rows, std::size_t cols,
               std::size_t in_stride) {
  const std::size_t stride = in_stride ? in_stride : cols;
  for (std::size_t i = 0; i < rows; ++i)
    for (std::size_t j = 0; j < cols; ++j) out[j * rows + i] = in[i * stride + j];
}

}  // namespace attention::model
