// The sentences of heads.mjs, in English and Chinese (same keys in both).
export default {
  en: {
    'stage.heads': 'Several heads',
    'ch2.title.heads': 'One layer, several heads: Q, K and V split by columns',
    'ch2.heads.legend': 'Which columns each head owns',
    'ch2.heads.columns': 'columns {from}–{to} of Q; reads K/V head {g}',
    'ch2.heads.grown':
      'The same example, grown a little: the article’s three tokens and a fourth, {n|# token|# tokens} of d_model = {dModel|# number|# numbers}. A Transformer layer does not run one attention but several side by side, called heads.',
    'ch2.heads.split':
      'W_Q has {width|# column|# columns}: {heads|# head|# heads} of d_head = {dHead|# column|# columns} each. X·W_Q is computed as in chapter 1; then head h simply takes its own block of columns (its colour). Keys and values are split the same way.',
    'ch2.heads.kvSame':
      'Here every query head has its own key and value head ({heads} of each): multi-head attention.',
    'ch2.heads.kvShared':
      'Here the {heads|# query head|# query heads} share {kvHeads|# key/value head|# key/value heads}: K and V have fewer columns, and a group of query heads reads the same K/V block.',
    'ch2.formula.split': 'Head h’s queries: X times head h’s block of W_Q columns',
    'ch2.narrate.heads':
      '{heads|# head|# heads} of {dHead|# column|# columns} each; {kvHeads|# key/value head|# key/value heads}. Each head’s block of Q, K and V lands in its colour.',
  },
  zh: {
    'stage.heads': '多个头',
    'ch2.title.heads': '一层，多个头：Q、K、V 按列切分',
    'ch2.heads.legend': '每个头拥有哪些列',
    'ch2.heads.columns': 'Q 的第 {from}–{to} 列；读取 K/V 头 {g}',
    'ch2.heads.grown':
      '同一个例子，稍微放大：原文的三个词元再加第四个，共 {n} 个词元，每个 d_model = {dModel} 个数。Transformer 的一层不只算一次注意力，而是并排算好几次，称为“头”。',
    'ch2.heads.split':
      'W_Q 有 {width} 列：{heads} 个头，每个头 d_head = {dHead} 列。X·W_Q 与第一章一样计算；然后头 h 只取自己的那一块列（它的颜色）。键和值也同样切分。',
    'ch2.heads.kvSame': '这里每个查询头都有自己的键头和值头（各 {heads} 个）：多头注意力。',
    'ch2.heads.kvShared':
      '这里 {heads} 个查询头共享 {kvHeads} 个键/值头：K 和 V 的列更少，一组查询头读取同一块 K/V。',
    'ch2.formula.split': '头 h 的查询：X 乘以 W_Q 中属于头 h 的那几列',
    'ch2.narrate.heads':
      '{heads} 个头，每个 {dHead} 列；{kvHeads} 个键/值头。每个头的 Q、K、V 列块以它的颜色依次出现。',
  },
};
