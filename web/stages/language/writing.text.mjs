// The sentences of chapter 4's stage "Writing".
export default {
  en: {
    'ch4.stage.write': 'Writing',
    'ch4.title.write': 'The model writes, one character at a time',
    'ch4.narrate.write':
      'After your prompt the model writes one character at a time, each sampled from its probabilities, until prompt and writing fill the {context} characters it reads at once; each shows the earlier characters it attended to.',
    'ch4.write.full':
      '{n|# character|# characters} written: with the prompt they fill the {context} characters the model reads at once, so writing stops there. A shorter prompt leaves more room.',
    'ch4.write.prompt': 'Prompt',
    'ch4.write.write': 'Write',
    'ch4.write.temperature': 'Temperature',
    'ch4.write.topK': 'Top-k',
    'ch4.write.topAll': 'all',
    'ch4.write.focus':
      '“{character}” (written character {place}) was chosen by a row that attended most to: {top} (layer {layer}’s heads, averaged). Click a written character to see its own.',
    'ch4.write.masked':
      '{n|# head is|# heads are} switched off (stage “Switch off a head”): the model writes without {n|it|them}.',
    'ch4.write.explain':
      'Writing is the forward pass again and again: the model gives the probabilities of the next character, one is drawn, appended, and read with the rest. Through the KV cache of chapter 2, each new character computes only its own query, key and value; the earlier keys and values are kept. The model reads at most {context} characters.',
    'ch4.write.knobs':
      'Temperature divides the logits before softmax: below 1 the likely characters get likelier (safer, more repetitive: at 0.2 a model may write its one likeliest character again and again), above 1 the rare ones get a chance. Top-k draws only among the k most likely characters; top-k 1 always takes the likeliest.',
  },
  zh: {
    'ch4.stage.write': '写作',
    'ch4.title.write': '模型一次写一个字符',
    'ch4.narrate.write':
      '在你的开头之后，模型一次写一个字符，每个字符从它的概率中抽取，直到开头和写出的字符填满它一次能读的 {context} 个字符；每个字符都显示它关注了前面哪些字符。',
    'ch4.write.full':
      '写出了 {n} 个字符：加上开头，正好填满模型一次能读的 {context} 个字符，所以写到这里就停了。开头越短，能写的越多。',
    'ch4.write.prompt': '开头',
    'ch4.write.write': '写',
    'ch4.write.temperature': '温度',
    'ch4.write.topK': 'Top-k',
    'ch4.write.topAll': '全部',
    'ch4.write.focus':
      '“{character}”（写出的第 {place} 个字符）是由这样一行选出的，它最关注：{top}（第 {layer} 层各头的平均）。点击写出的字符可以看它自己的。',
    'ch4.write.masked':
      '有 {n} 个头被关掉（见“关掉一个头”一节）：模型在没有{n|它|它们}的情况下写作。',
    'ch4.write.explain':
      '写作就是一次又一次的前向计算：模型给出下一个字符的概率，抽出一个，接在后面，再和前面的一起读。借助第二章的 KV 缓存，每个新字符只计算自己的查询、键和值；之前的键和值都保留着。模型最多读 {context} 个字符。',
    'ch4.write.knobs':
      'softmax 之前先把 logits 除以温度：温度小于 1 时，本来就可能的字符变得更可能（更稳妥，也更重复：在 0.2 时模型可能一遍遍写出同一个最可能的字符），大于 1 时罕见的字符也有机会。Top-k 只在最可能的 k 个字符中抽取；Top-k 为 1 时总是取最可能的那个。',
  },
};
