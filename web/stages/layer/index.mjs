// Chapter 2, "a real layer": the article's example grown into one layer of a Transformer
// (several heads, each head's attention, the concatenation and W_O, shared K/V heads, and
// decoding token by token with a KV cache).
import heads from './heads.mjs';
import headsText from './heads.text.mjs';
import headAttention from './head-attention.mjs';
import headAttentionText from './head-attention.text.mjs';
import output from './output.mjs';
import outputText from './output.text.mjs';
import kvSharing from './kv-sharing.mjs';
import kvSharingText from './kv-sharing.text.mjs';
import decoding from './decoding.mjs';
import decodingText from './decoding.text.mjs';

export default {
  titleKey: 'chapter.layer',
  stages: [
    { ...heads, text: headsText },
    { ...headAttention, text: headAttentionText },
    { ...output, text: outputText },
    { ...kvSharing, text: kvSharingText },
    { ...decoding, text: decodingText },
  ],
};
