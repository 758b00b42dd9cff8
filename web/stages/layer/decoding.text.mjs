// The sentences of decoding.mjs, in English and Chinese (same keys in both).
export default {
  en: {
    'stage.decoding': 'Decoding with a KV cache',
    'ch2.title.decode': 'Decoding token {t} with the KV cache',
    'ch2.decode.token': 'token {t}',
    'ch2.decode.new.queries': 'query of token {t}, every head',
    'ch2.decode.new.keys': 'key of token {t}, every K/V head',
    'ch2.decode.new.values': 'value of token {t}, every K/V head',
    'ch2.decode.cache.title': 'KV cache: {length|# token|# tokens}',
    'ch2.decode.cache.keys': 'cached keys, K/V head {g}',
    'ch2.decode.cache.values': 'cached values, K/V head {g}',
    'ch2.decode.scoresRow': 'new row of scores, head {h}',
    'ch2.decode.triangle': 'causal weights of head {h}, rows so far',
    'ch2.decode.outputCached': 'output of head {h}, from the cache',
    'ch2.decode.equal': '= row {t} of full causal attention {full}',
    'ch2.decode.different': '≠ row {t} of full causal attention {full}',
    'ch2.decode.first':
      'Token 1 arrives: its query, key and value are computed, and its key and value start the cache ({length} token).',
    'ch2.decode.arrives':
      'Token {t} arrives: only its own query, key and value are computed; its key and value are appended to the cache, which now holds {length|# token|# tokens}.',
    'ch2.decode.oneRow':
      'Why one new row of scores and not the whole matrix: the rows of earlier tokens were computed at earlier steps and cannot change, because the causal mask hides token {t} from every earlier query; and the earlier keys and values depend only on their own tokens, so they come from the cache. The only new scores are token {t}’s query against the keys so far: row {t} of the causal triangle.',
    'ch2.decode.counts':
      'Multiply-adds for this step: {with} with the cache, {without} recomputing the whole prefix without it ({saved} saved).',
    'ch2.decode.whyRecompute':
      'Why would a decoder without a cache compute the earlier tokens again? A model is a stack of layers: the keys and values of layer 2 are made from layer 1’s outputs, and so on up. Unless they are kept, every new token means running every layer over the whole prefix again to get them back.',
    'ch2.decode.module':
      'Computed by the module’s onnxAttention with past_key / past_value in and present_key / present_value out; its output is checked against row t of the full causal attention from trace().',
    'ch2.decode.count.title': 'Multiply-adds of decoding step {t} of {n} (token {t})',
    'ch2.decode.count.with': 'with the cache',
    'ch2.decode.count.without': 'recomputing the prefix',
    'ch2.decode.count.projections': 'projections x·W_Q, x·W_K, x·W_V',
    'ch2.decode.count.scores': 'scores q·k',
    'ch2.decode.count.sums': 'weighted sums Σ a·v',
    'ch2.decode.count.output': 'output projection ·W_O',
    'ch2.decode.count.total': 'total',
    'ch2.formula.decode':
      'Output of token t: softmax of its query against the cached keys 1 to t, times the cached values',
    'ch2.narrate.decode':
      'Token {t}: the cache holds {length|# token|# tokens}; one new row of scores. {with} multiply-adds with the cache, {without} without. Head 1 output {output}; {check}',
    'ch2.narrate.decodeEqual': 'every head equals full causal attention.',
    'ch2.narrate.decodeDifferent': 'a head differs from full causal attention.',
    'tools.ask.cacheNumbers':
      'After token {t}, how many numbers does this layer’s KV cache hold, keys and values together?',
    'tools.hint.cacheTitle':
      'The cache keeps a key and a value for every token so far, per KV head.',
    'tools.hint.cacheNumbers':
      '2 (key and value) × {tokens|# token|# tokens} × {kvHeads|# KV head|# KV heads} × {dHead|# number|# numbers} each = ?',
  },
  zh: {
    'stage.decoding': '带 KV 缓存的解码',
    'ch2.title.decode': '用 KV 缓存解码第 {t} 个词元',
    'ch2.decode.token': '词元 {t}',
    'ch2.decode.new.queries': '词元 {t} 的查询，所有头',
    'ch2.decode.new.keys': '词元 {t} 的键，所有 K/V 头',
    'ch2.decode.new.values': '词元 {t} 的值，所有 K/V 头',
    'ch2.decode.cache.title': 'KV 缓存：{length} 个词元',
    'ch2.decode.cache.keys': '缓存的键，K/V 头 {g}',
    'ch2.decode.cache.values': '缓存的值，K/V 头 {g}',
    'ch2.decode.scoresRow': '新的一行分数，头 {h}',
    'ch2.decode.triangle': '头 {h} 的因果权重，已算出的行',
    'ch2.decode.outputCached': '头 {h} 的输出，来自缓存',
    'ch2.decode.equal': '= 完整因果注意力的第 {t} 行 {full}',
    'ch2.decode.different': '≠ 完整因果注意力的第 {t} 行 {full}',
    'ch2.decode.first':
      '词元 1 到来：计算它的查询、键和值，它的键和值成为缓存的开头（{length} 个词元）。',
    'ch2.decode.arrives':
      '词元 {t} 到来：只计算它自己的查询、键和值；它的键和值追加到缓存，缓存现在有 {length} 个词元。',
    'ch2.decode.oneRow':
      '为什么只算新的一行分数而不是整个矩阵：之前词元的那些行在之前的步骤已经算好，而且不会改变，因为因果掩码对之前的每个查询都隐藏了词元 {t}；之前的键和值只取决于各自的词元，所以直接来自缓存。唯一新的分数是词元 {t} 的查询与已有的键：因果三角形的第 {t} 行。',
    'ch2.decode.counts':
      '这一步的乘加次数：用缓存 {with} 次，不用缓存重算整个前缀 {without} 次（节省 {saved} 次）。',
    'ch2.decode.whyRecompute':
      '没有缓存的解码器为什么要重新计算之前的词元？模型是许多层叠起来的：第2层的键和值由第1层的输出算出，依此类推。如果不保存它们，每来一个新词元，就得把每一层在整个前缀上重新算一遍才能得到它们。',
    'ch2.decode.module':
      '由模块的 onnxAttention 计算：输入 past_key / past_value，输出 present_key / present_value；它的输出与 trace() 的完整因果注意力第 t 行核对。',
    'ch2.decode.count.title': '解码第 {t} 步（共 {n} 步，词元 {t}）的乘加次数',
    'ch2.decode.count.with': '用缓存',
    'ch2.decode.count.without': '重算前缀',
    'ch2.decode.count.projections': '投影 x·W_Q、x·W_K、x·W_V',
    'ch2.decode.count.scores': '分数 q·k',
    'ch2.decode.count.sums': '加权和 Σ a·v',
    'ch2.decode.count.output': '输出投影 ·W_O',
    'ch2.decode.count.total': '合计',
    'ch2.formula.decode': '词元 t 的输出：其查询与缓存中键 1 到 t 的 softmax，乘以缓存中的值',
    'ch2.narrate.decode':
      '词元 {t}：缓存有 {length} 个词元；只算新的一行分数。用缓存 {with} 次乘加，不用 {without} 次。头 1 的输出 {output}；{check}',
    'ch2.narrate.decodeEqual': '每个头都等于完整因果注意力。',
    'ch2.narrate.decodeDifferent': '有一个头与完整因果注意力不同。',
    'tools.ask.cacheNumbers': '处理完第{t}个词元后，这一层的KV缓存共存有多少个数（键和值合计）？',
    'tools.hint.cacheTitle': '缓存为每个KV头保存到目前为止每个词元的一个键和一个值。',
    'tools.hint.cacheNumbers':
      '2（键和值）× {tokens}个词元 × {kvHeads}个KV头 × 每个{dHead}个数 = ?',
  },
};
