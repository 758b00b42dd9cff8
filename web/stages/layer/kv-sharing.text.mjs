// The sentences of kv-sharing.mjs, in English and Chinese (same keys in both).
export default {
  en: {
    'stage.kvSharing': 'Shared K/V heads',
    'ch2.title.kv': 'MHA, GQA, MQA: query heads sharing K/V heads',
    'ch2.kv.switch': 'Key/value heads',
    'ch2.kv.option': '{kind} · {kv}',
    'ch2.kv.kvHead': 'K/V head {g}',
    'ch2.kv.groups': 'Which query heads share each K/V head',
    'ch2.kv.saving':
      'This example caches 2 (a key and a value) × {n|# token|# tokens} × {kvHeads|# K/V head|# K/V heads} × {dHead|# number|# numbers} each = {cached|# number|# numbers}; with one K/V head per query head ({heads}) it would be {mha}. Saved: {saved|# number|# numbers}.',
    'ch2.kv.savingNone':
      'This example caches 2 (a key and a value) × {n|# token|# tokens} × {kvHeads|# K/V head|# K/V heads} × {dHead|# number|# numbers} each = {cached|# number|# numbers}: one K/V head per query head, nothing shared, nothing saved. Choose GQA or MQA to share.',
    'ch2.kv.cacheWhy':
      'When a model writes text, the keys and values of every earlier token are kept (the KV cache, “Decoding with a KV cache”) so they are not recomputed. That cache, not the weights, is what fills memory on long texts.',
    'ch2.kv.erases':
      'Sharing has a price: heads {readers} now read the keys and values of heads {owners}, so whatever their own keys picked out is gone and their weights follow the shared keys. In the chapter’s example, head 2 loses its focus on token 2 (“Each head attends” shows each head’s weights).',
    'ch2.kv.tradeoff':
      'Heads of a group still ask their own questions (queries) but look at the same keys, so their patterns may change: compare “Each head attends” before and after switching. Sharing each group keeps the K/V weights of its first head.',
    'ch2.kv.calc.title': 'A real model’s KV cache',
    'ch2.kv.calc.bytes': 'bytes per number',
    'ch2.kv.calc.bytesOption': '{value} ({name})',
    'ch2.kv.calc.result':
      'KV cache: {cache} per sequence; with one K/V head per query head it would be {mha}. Sharing saves {saved} ({times}× smaller).',
    'ch2.kv.calc.divide': 'The K/V heads ({kvHeads}) must divide the query heads ({heads}).',
    'ch2.formula.cache':
      'Cache size: 2 (keys and values) times layers times tokens times K/V heads times head size times bytes',
    'ch2.narrate.kv':
      '{kind}: {kvHeads|# key/value head|# key/value heads} for {heads|# query head|# query heads}. The cache holds {cached|# number|# numbers} here, {saved} fewer than MHA.',
    'ch2.kv.calc.named': 'A real model’s KV cache: {name}',
    'ch2.kv.calc.yours': 'A real model’s KV cache: your sizes (they started as {name}’s)',
    'ch2.kv.calc.product':
      '2 (a key and a value) × {layers} layers × {tokens} tokens × {kvHeads} K/V heads × {dHead} numbers each × {bytes} bytes a number ({type}) = {total} bytes',
    'ch2.formula.keysValues': 'K and V',
    'ch2.formula.bytesEach': 'per number: 2 in float16',
    'ch2.length.title': 'How the cost grows with the length n',
    'ch2.length.slider': 'Tokens n',
    'ch2.length.tokens': '{n|# token|# tokens}',
    'ch2.length.example':
      'This layer: 1 layer, {heads} query heads and {kvHeads} K/V heads of {dHead}, float32 (4 bytes a number)',
    'ch2.length.model':
      '{name}: {layers} layers, d_model {dModel}, {heads} query heads sharing {kvHeads} K/V heads of {dHead}, bfloat16 (2 bytes a number)',
    'ch2.length.attention': 'Attention (scores and weighted sums): {count} multiply-adds',
    'ch2.length.cache': 'KV cache: {size} ({bytes} bytes)',
    'ch2.length.growth': 'From {n} to {double} tokens: attention ×{attention}, the cache ×{cache}.',
    'ch2.length.why':
      'Attention grows with n²: each of the n tokens is compared with every token before it, 1 + 2 + … + n pairs per head and layer. The cache grows with n: one key and one value per token. Doubling the text nearly quadruples attention’s work and doubles the cache.',
  },
  zh: {
    'stage.kvSharing': '共享的 K/V 头',
    'ch2.title.kv': 'MHA、GQA、MQA：查询头共享 K/V 头',
    'ch2.kv.switch': '键/值头',
    'ch2.kv.option': '{kind} · {kv}',
    'ch2.kv.kvHead': 'K/V 头 {g}',
    'ch2.kv.groups': '哪些查询头共享每个 K/V 头',
    'ch2.kv.saving':
      '这个例子缓存 2（一个键和一个值）× {n} 个词元 × {kvHeads} 个 K/V 头 × 每个 {dHead} 个数 = {cached} 个数；若每个查询头（{heads} 个）都有自己的 K/V 头，则是 {mha} 个。节省：{saved} 个数。',
    'ch2.kv.savingNone':
      '这个例子缓存 2（一个键和一个值）× {n} 个词元 × {kvHeads} 个 K/V 头 × 每个 {dHead} 个数 = {cached} 个数：每个查询头一个 K/V 头，没有共享，也没有节省。选择 GQA 或 MQA 来共享。',
    'ch2.kv.cacheWhy':
      '模型写文本时，会保留之前每个词元的键和值（KV 缓存，见“带 KV 缓存的解码”），免得重新计算。长文本时占满内存的正是这个缓存，而不是权重。',
    'ch2.kv.erases':
      '共享是有代价的：头{readers}现在读取头{owners}的键和值，它们自己的键所关注的东西消失了，权重随共享的键而变。在本章的例子中，头2失去了对词元 2的关注（“每个头各自注意”显示每个头的权重）。',
    'ch2.kv.tradeoff':
      '同组的头仍然提出各自的问题（查询），但看的是相同的键，因此注意模式可能改变：切换前后比较“每个头各自注意”。共享时每组保留其第一个头的 K/V 权重。',
    'ch2.kv.calc.title': '真实模型的 KV 缓存',
    'ch2.kv.calc.bytes': '每个数的字节数',
    'ch2.kv.calc.bytesOption': '{value}（{name}）',
    'ch2.kv.calc.result':
      'KV 缓存：每个序列 {cache}；若每个查询头一个 K/V 头则是 {mha}。共享节省 {saved}（小 {times} 倍）。',
    'ch2.kv.calc.divide': 'K/V 头数（{kvHeads}）必须整除查询头数（{heads}）。',
    'ch2.formula.cache': '缓存大小：2（键和值）乘以层数、词元数、K/V 头数、头大小和字节数',
    'ch2.narrate.kv':
      '{kind}：{heads} 个查询头用 {kvHeads} 个键/值头。这里缓存 {cached} 个数，比 MHA 少 {saved} 个。',
    'ch2.kv.calc.named': '真实模型的 KV 缓存：{name}',
    'ch2.kv.calc.yours': '真实模型的 KV 缓存：你的尺寸（起初是 {name} 的）',
    'ch2.kv.calc.product':
      '2（一个键和一个值）× {layers} 层 × {tokens} 个词元 × {kvHeads} 个 K/V 头 × 每个 {dHead} 个数 × 每个数 {bytes} 字节（{type}）= {total} 字节',
    'ch2.formula.keysValues': 'K 和 V',
    'ch2.formula.bytesEach': '每个数：float16 为 2',
    'ch2.length.title': '成本如何随长度 n 增长',
    'ch2.length.slider': '词元数 n',
    'ch2.length.tokens': '{n} 个词元',
    'ch2.length.example':
      '这一层：1 层，{heads} 个查询头和 {kvHeads} 个 K/V 头，每头 {dHead} 列，float32（每个数 4 字节）',
    'ch2.length.model':
      '{name}：{layers} 层，d_model {dModel}，{heads} 个查询头共享 {kvHeads} 个 K/V 头，每头 {dHead} 列，bfloat16（每个数 2 字节）',
    'ch2.length.attention': '注意力（分数和加权和）：{count} 次乘加',
    'ch2.length.cache': 'KV 缓存：{size}（{bytes} 字节）',
    'ch2.length.growth': '从 {n} 个词元到 {double} 个：注意力 ×{attention}，缓存 ×{cache}。',
    'ch2.length.why':
      '注意力随 n² 增长：n 个词元中的每一个都要和它之前的每个词元比较，每个头、每层共 1 + 2 + … + n 对。缓存随 n 增长：每个词元一个键和一个值。文本加倍，注意力的计算量接近四倍，缓存加倍。',
  },
};
