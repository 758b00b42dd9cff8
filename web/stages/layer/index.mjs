// Chapter 2, "a real layer": the article's example grown into one layer of a Transformer
// (several heads, each head's attention, the concatenation and W_O, shared K/V heads, and
// decoding token by token with a KV cache).
import heads from './heads.mjs';
import headAttention from './head-attention.mjs';
import output from './output.mjs';
import kvSharing from './kv-sharing.mjs';
import decoding from './decoding.mjs';

export default {
  titleKey: 'chapter.layer',
  stages: [heads, headAttention, output, kvSharing, decoding],
};
