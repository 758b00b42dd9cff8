// 中文字符串（页面本身的）：每个键对应一句话（或一个标签），措辞尽量沿用原文。{name} 为参数。
// 各阶段自己的句子放在阶段旁边（stages/<chapter>/<name>.text.mjs），由 i18n/index.mjs 合并。
export default {
  // --- 页面 ---
  'app.title': '图解自注意力机制',
  'app.subtitle':
    '用一个小例子一步步演示self-attention的计算过程，每个数字都由WebAssembly模块实时算出。',
  'app.source': '内容依据文章《Illustrated: Self-Attention》及其中文版。',
  'app.loading': '正在加载WebAssembly模块……',
  'app.language': '语言',
  'app.keysHint':
    '快捷键：空格 播放/暂停 · ← → 上一步/下一步 · Home/End 第一步/最后一步 · 用Tab进入矩阵后，方向键在单元格之间移动。',
  'app.footer':
    '本页注意力的每个数字都由注意力模块（C++编译为WebAssembly）实时算出，softmax中的指数及其和也是。页面自己只算原文四舍五入后的打印值、第二章的次数和字节数，以及第三章块中注意力之外的几个加法和乘法（残差、LayerNorm、MLP）。',
  'app.skip': '跳到演示部分',
  // 两句相接：英文之间有空格，中文没有（句号已结束前一句）。
  'sentences.two': '{first}{second}',

  // --- 加载错误 ---
  'load.title': '演示无法启动',
  'load.body': '负责计算本页所有数字的WebAssembly模块无法加载，因此没有内容可以显示。',
  'load.hintServed':
    '如果你是直接从磁盘打开dist/index.html，请改为打开dist/explainer.html（单个文件，可离线使用），或者运行scripts/run并打开它打印的地址。',
  'load.hintBrowser':
    '本页需要启用了WebAssembly（及SIMD）的浏览器：较新的Chromium、Firefox或Safari。',
  'load.reason': '浏览器给出的原因：',
  'load.scriptFailed': '页面脚本无法加载。',

  // --- 阶段 ---
  'stages.label': '阶段',
  'stages.stepsBefore': '本阶段前面还有 {n} 步：向前滚动查看',
  'stages.stepsAfter': '本阶段后面还有 {n} 步：向后滚动查看',
  'stage.number': '第{stage}阶段',
  'stage.named': '第{stage}阶段：{name}',

  // --- 步骤标题 ---
  'title.row.keys': '计算输入{i}的键',
  'title.row.values': '计算输入{i}的值',
  'title.row.queries': '计算输入{i}的查询',
  'title.matrix.keys': '一次算出所有键：K = X·W_K',
  'title.matrix.values': '一次算出所有值：V = X·W_V',
  'title.matrix.queries': '一次算出所有查询：Q = X·W_Q',
  'title.scores': '输入{i}的查询的注意力得分',
  'title.softmax': '对输入{i}的得分做softmax',
  'title.weighted': '输入{i}的加权值',
  'title.sum': '输出{i}：加权值之和',

  // --- 角色与标签 ---
  'role.input': '输入',
  'role.key': '键',
  'role.query': '查询',
  'role.value': '值',
  'role.score': '得分',
  'role.weighted': '加权值',
  'role.output': '输出',
  'label.input': '输入{i}',
  'label.key': '键{i}',
  'label.query': '查询{i}',
  'label.value': '值{i}',
  'label.output': '输出{i}',
  'matrix.x': '输入',
  'matrix.wKey': '键的权重',
  'matrix.wQuery': '查询的权重',
  'matrix.wValue': '值的权重',
  'matrix.queries': '查询',
  'matrix.keys': '键',
  'matrix.values': '值',
  'matrix.scores': '注意力得分',
  'matrix.weights': 'softmax权重',
  'matrix.weighted': '加权值',
  'matrix.outputs': '输出',
  'scene.arithmetic': '这一步的算式',

  // --- 原文的舍入，写在 softmax 之下（draw/rounding-note.mjs） ---
  'note.rounding':
    '原文在相乘之前把softmax的输出保留到小数点后1位，并保持每行之和为1。普通的四舍五入做不到：它把{exactWeights}变成{plainWeights}，加起来是{plainSum}。所以原文先把每个权重向下截到十分位（{floors}），再把还差的几个0.1分给被截掉最多的权重。{exactWeights}就是这样变成了{articleWeights}，于是输出{i}从{exactOutput}变成了{articleOutput}。',
  'note.roundingPlain':
    '原文在相乘之前把softmax的输出保留到小数点后1位（这里普通的四舍五入已经使和为1）：{exactWeights}变成了{articleWeights}，于是输出{i}从{exactOutput}变成了{articleOutput}。',

  // --- 热力图 ---
  'heatmap.description': '颜色越深，数值越大。',
  'heatmap.flat': '每个分数都是 {value}',

  // --- 单元格算式 ---
  'arith.projection': '{role}{i}的第{c}个元素：输入{i} · {weight}的第{c}列',
  'arith.score': '查询{i}对键{j}的得分',
  'arith.masked': '已屏蔽：键{j}在查询{i}之后',
  'arith.weight': '查询{i}给键{j}的权重（softmax）',
  'arith.maskedWeight': '被屏蔽的键权重为0',
  'arith.articleRounding': '原文的四舍五入',
  'arith.exponential': '查询{i}的第{j}个得分的指数（减去该行最大得分）',
  'arith.weighted': '值{j}的第{c}个元素，乘以查询{i}的权重',
  'arith.output': '输出{i}的第{c}个元素：查询{i}的权重 · 值的第{c}列',

  // --- 播放控制 ---
  'transport.label': '播放控制',
  'transport.restart': '重新开始',
  'transport.previous': '上一步',
  'transport.play': '播放',
  'transport.pause': '暂停',
  'transport.next': '下一步',
  'transport.timeline': '时间轴',
  'transport.speed': '动画速度',
  'transport.position': '第{k}步，共{total}步',
  'narrate.step': '第{k}步，共{total}步：{title}。',

  // --- 工作台 ---
  'workbench.title': '你的数字',
  'workbench.intro':
    '可以修改任意数字：用到它们的每一步（第一章，以及第三章的前两个阶段）都会立即由WebAssembly模块重新计算。第二章从原文的词元出发，另有自己的层输入。',
  'workbench.settings': '设置',
  'workbench.rounding': 'softmax的数字',
  'workbench.roundingExact': '精确值',
  'workbench.roundingArticle': '原文的四舍五入',
  'workbench.scaled': '得分除以√d_k（与Transformer相同）',
  'workbench.causal': '因果掩码（不能看后面的输入）',
  'workbench.shape': '形状',
  'workbench.tokens': '词元数 n',
  'workbench.addToken': '增加一个词元',
  'workbench.removeToken': '删除最后一个词元',
  'workbench.dIn': '输入维度 d_in',
  'workbench.dK': '查询/键维度 d_k',
  'workbench.dV': '值维度 d_v',
  'workbench.dkNote':
    '查询和键做点积，所以共用d_k（原文写作“query和value”，是笔误）；d_v可以不同。',
  'workbench.matrices': '输入与权重',
  'workbench.random': '随机数',
  'workbench.scheme': '权重',
  'workbench.gaussian': '高斯分布 N(0, 1)',
  'workbench.xavier': 'Xavier均匀分布',
  'workbench.seed': '种子',
  'workbench.randomise': '随机生成',
  'workbench.randomised': '已随机生成：输入为N(0, 1)，权重为{scheme}，种子{seed}。',
  'workbench.reset': '恢复原文的示例',
  'workbench.wasResetTo': '已恢复原文的示例。',
  'workbench.traceError': '模块拒绝了这些数字：{message}',
  'editor.cell': '{matrix}，第{row}行，第{col}列',
  'entry.empty': '请输入一个数字，单元格不能为空。',
  'entry.notNumber': '“{text}”不是数字。请使用数字、负号和小数点，例如−0.5。',
  'entry.tooLarge': '“{text}”超出范围：请输入−1000到1000之间的数字。',
  'entry.refused': '已拒绝“{text}”：单元格保持为{value}。',

  // --- 表格 ---
  'tables.title': '以表格查看所有数字',
  'tables.intro':
    '计算中的每个矩阵都以普通表格列出。将鼠标悬停或聚焦在计算得到的单元格上，可以看到它的算式。',
  'tables.weightedFor': '查询{i}的加权值',
  'tables.exactWeights': '精确权重',

  // --- 提示 ---
  'notice.dismiss': '关闭',
  'url.fallback': '无法使用这个链接（{reason}），因此显示原文的示例。',
  'url.tooLong': '它长达{length}个字符',
  'url.tooManyParts': '它包含的部分太多',
  'url.badEncoding': '它的百分号编码有误：“{text}”',
  'url.duplicateKey': '“{key}”出现了两次',
  'url.badStep': '“{value}”不是步骤名称',
  'url.unknownStep': '没有名为“{value}”的步骤',
  'url.badValue': '“{value}”不是{key}的有效取值',
  'url.badMatrix': '{key}的数字不是1到8行、1到8列且在±1000以内的矩阵：“{value}”',
  'url.unknownChapter': '没有第“{value}”章（章节为 1 到 {count}）',
  'url.trainedTooLong': '它长达{length}个字符，超过了模型链接最多允许的{most}个字符',
  'url.trainedNotText': '它不是 base64url 文本（只能有字母、数字、- 和 _）',
  'url.unknownKey': '它包含未知的设置“{key}”',
  'url.incompleteExample': '它只给出了x、wk、wq、wv中的部分矩阵',
  'url.badShape': '{key}的形状与其他矩阵不匹配',
  'url.badTrained': '无法载入这个链接里的训练好的模型，模型保持原样。（{reason}）',

  // --- 语言切换 ---
  'lang.en': 'English',
  'lang.zh': '中文',

  // --- badges beside the step's title ---
  'badge.ownNumbers': '你自己的数字',
  'badge.articleRounding': '原文的四舍五入',
  'badge.scaled': '÷ √d_k',
  'badge.causal': '因果掩码',

  // --- more roles ---
  'matrix.exponentials': '指数',

  // --- intuition, and why the switches exist ---
  'why.scaling':
    '为什么要缩放：点积是d_k个乘积之和，得分会随d_k变大；得分太大会使softmax趋于“全有或全无”（一个权重接近1，其余接近0），网络就难以学习。除以√d_k可以让得分保持适中。',
  'why.masking':
    '为什么要掩码：生成文本的模型是从左到右一个词元一个词元地写的。计算第{i}个词元时，后面的词元还不存在，所以训练时也要用掩码遮住它们：第{i}个词元只能看它自己和前面的词元。',
  'compare.title': '前后对比，查询 {i}',
  'compare.without.scaled': '不除以√d_k',
  'compare.with.scaled': '除以√{dK}',
  'compare.without.causal': '不加掩码',
  'compare.with.causal': '加掩码',
  'compare.scores': '得分',
  'compare.weights': '权重',
  'compare.outputs': '输出{i}',
  'transport.stage': '第{stage}阶段，共{total}个阶段',
  'transport.ticks': '阶段',
  'workbench.ownNumbers':
    '现在这些是你自己的数字，不是原文的：关于原文四舍五入的说明只在原文的例子中显示。',
  'workbench.practiceNumbers':
    '这是一个练习用的小整数例子，不是原文的：关于原文四舍五入的说明只在原文的例子中显示。',

  // --- glossary pop-ups ---
  'glossary.open': '这是什么？',
  'glossary.webassembly.match': 'WebAssembly',
  'glossary.webassembly':
    '一种紧凑的二进制格式，浏览器能以接近原生的速度运行它；这里是编译给浏览器的C++代码，负责计算每个数字。',
  'glossary.trace.match': 'trace()',
  'glossary.trace':
    '模块中的一个函数：逐个阶段运行self-attention，并返回每个中间结果：查询、键、值、得分、softmax的指数与和、权重、输出。',
  'glossary.gaussian.match': 'Gaussian',
  'glossary.gaussian': '服从钟形正态分布N(0, 1)的随机数：大多在0附近，很少远离0。',
  'glossary.xavier.match': 'Xavier',
  'glossary.xavier':
    '一种初始化权重的方法（Glorot和Bengio，2010）：在±√(6 / (输入数 + 输出数))内均匀取值，使信号在各层之间保持差不多的大小。',
  'glossary.transformer.match': 'Transformer',
  'glossary.transformer':
    '“Attention Is All You Need”（2017）提出的神经网络结构，由多层self-attention构成；今天的大语言模型都是Transformer。',
  'glossary.embedding.match': '词元嵌入',
  'glossary.embedding':
    '把一个词元（一个词或词的一部分）表示成网络学到的数字向量，相近的词元得到相近的向量。',
  // ---- 术语表：学习路上遇到的词 ----
  'glossary.softmax.match': 'softmax',
  'glossary.softmax':
    '把一行数变成都为正、加起来为1的权重：对每个数取e的幂，再除以它们的总和。最大的数得到最大的权重。',
  'glossary.dk.match': 'd_k',
  'glossary.dk':
    '查询和键的列数（k 取自英文 key，即键）。得分是它们的点积，所以两者列数相同；缩放注意力把得分除以√d_k。',
  'glossary.kvcache.match': 'KV 缓存|KV缓存',
  'glossary.kvcache':
    '模型逐个词元生成文本时，把已有词元的键和值保存在内存里，这样每个新词元只需计算它自己的（第2章“使用KV缓存解码”）。',
  'glossary.rope.match': 'RoPE',
  'glossary.rope':
    '旋转位置编码：把查询和键的每一对数按与位置成正比的角度旋转，于是得分取决于两个词元相隔多远（第3章）。',
  'glossary.layernorm.match': 'LayerNorm',
  'glossary.layernorm':
    '把每个词元的一行缩放到均值0、标准差1（再乘以学到的缩放、加上偏移），不管堆叠多少层，数值都保持在可用的范围内。',
  'glossary.mlp.match': 'MLP',
  'glossary.mlp':
    '多层感知机：两个权重矩阵，中间夹一个ReLU，对每个词元单独计算；Transformer块的另一半。',
  'glossary.induction.match': '归纳头',
  'glossary.induction':
    '这样一个头：从当前词元出发，看向这个词元上一次出现之后紧跟着的那个词元，于是模型能复制上次接下来的内容。它需要更早一层里有一个前一词元头。',
  'glossary.logits.match': 'logits',
  'glossary.logits': '模型给每个可能的下一个词元的原始分数；对logits做softmax就得到它们的概率。',
  'glossary.loss.match': '损失',
  'glossary.loss':
    '一个数，说明模型错得有多厉害（这里是到目标的平方距离，或下一个词元的交叉熵）；训练就是改变权重让它变小。',

  // Chapter 2
  'chapter.article': '第一章 · 原文',
  'chapter.layer': '第二章 · 真实的一层',
  'ch2.head': '头 {h}',
  'ch2.matrix.wOut': '输出权重',
  'ch2.attention.readsKv': '读取 K/V 头 {g}',
  'ch2.attention.scores': '头 {h} 的分数',
  'ch2.attention.weights': '头 {h} 的权重',
  'ch2.concat.name': '各头并排',
  'ch2.output.name': '该层的输出',
  'ch2.kv.mha': 'MHA',
  'ch2.kv.gqa': 'GQA',
  'ch2.kv.mqa': 'MQA',
  'ch2.kv.explain.mha': '多头注意力（MHA）：{heads} 个查询头各有自己的键/值头。',
  'ch2.kv.explain.gqa':
    '分组查询注意力（GQA）：{heads} 个查询头分成 {kvHeads} 组，每组 {group} 个；同组的头读取相同的键和值，所以缓存只存 {kvHeads} 个 K/V 头而不是 {heads} 个。',
  'ch2.kv.explain.mqa':
    '多查询注意力（MQA）：全部 {heads} 个查询头读取同一个键/值头；缓存比 MHA 小 {group} 倍。',
  'ch2.kv.calc.layers': '层数',
  'ch2.kv.calc.heads': '查询头',
  'ch2.kv.calc.kvHeads': 'K/V 头',
  'ch2.kv.calc.dHead': '头大小',
  'ch2.kv.calc.tokens': '词元数',
  // ---- 模块里的名字，折叠在正文下面（“给开发者”） ----
  'explain.developers': '给开发者',
  'ch2.editor.title': '第二章：这一层',
  'ch2.editor.intro':
    '第二章的这一层：它的词元、头和五个矩阵。d_model 为 4；改变 K/V 头数时，每组保留其第一个头的键和值。',
  'ch2.editor.matrix': '该层的{name}',
  'ch2.editor.heads': '查询头',
  'ch2.editor.kvHeads': 'K/V 头',
  'ch2.editor.dHead': 'd_head',
  'arith2.queries': '查询 {i} 的第 {c} 列（头 {head}）：输入 {i} 与 W_Q 第 {c} 列的点积',
  'arith2.keys': '键 {i} 的第 {c} 列（K/V 头 {head}）：输入 {i} 与 W_K 第 {c} 列的点积',
  'arith2.values': '值 {i} 的第 {c} 列（K/V 头 {head}）：输入 {i} 与 W_V 第 {c} 列的点积',
  'arith2.score': '头 {head}：查询 {i} 对键 {j} 的分数（K/V 头 {g}）',
  'arith2.weight': '头 {head}：查询 {i} 给键 {j} 的权重，第 {i} 行的 softmax',
  'arith2.headOutput': '头 {head}：输出 {i} 的第 {c} 列，加权值之和',
  'arith2.concat': '第 {i} 行第 {c} 列：头 {head} 的输出的第 {k} 列',
  'arith2.output': '该层输出 {i} 的第 {c} 列：C 的第 {i} 行与 W_O 第 {c} 列的点积',
  'arith2.decodeScore': '头 {head}，词元 {t}：其查询与缓存的键 {j}（K/V 头 {g}）',
  'arith2.decodeOutput': '头 {head}，词元 {t}，第 {c} 列：带缓存的注意力的输出 Y',
  'arith2.decodeOutputEquals': 'Y = {y}；完整因果注意力的第 {t} 行 = {full}',

  // Learning tools
  'tools.predict': '预测',
  'tools.exercise.heading': '预测下一个数',
  'tools.exercise.yourAnswer': '你的答案',
  'tools.exercise.check': '检查',
  'tools.exercise.reveal': '显示答案',
  'tools.exercise.another': '换一个数',
  'tools.exercise.reset': '重置这个例子的进度',
  'tools.exercise.practice': '用新例子练习',
  'tools.exercise.tolerance':
    '请根据屏幕上的数字计算。与答案相差不超过{relative}%（答案接近0时为±{absolute}）即算正确。',
  'tools.exercise.toleranceMasked': '被遮盖的分数是−∞（输入-inf）。',
  'tools.exercise.whole': '请根据图中的内容推算；答案是一个整数。',
  'tools.exercise.noneHere':
    '这一步没有问题：请看图中的数字。本章中“预测”在这些步骤提问：{steps}。',
  'tools.exercise.listSeparator': '；',
  'tools.exercise.wrongHint': '不太对。提示：',
  'tools.exercise.none':
    '这一步没有要预测的数：它的数字是给定的，不是计算出来的。计算数字的步骤会提问；也可以用新例子练习。',
  'tools.exercise.tally': '本步已答对：{here}/{total}。这个例子共答对：{solved}。',
  'tools.exercise.right': '正确：页面算出的是{answer}。',
  'tools.exercise.revealed': '答案是{answer}。',
  'tools.exercise.wrong': '不太对。下面是这个格子的逐步计算，用到的格子在图中已加框。',
  'tools.mistake.noExp': '这是得分除以得分之和：softmax要先对每个得分取e的幂。',
  'tools.mistake.noDivide': '这是e^(得分 − 最大值)，也就是分子：还要除以这一行所有指数之和。',
  'tools.mistake.noShift': '这是e^得分：既没有减去这一行的最大值，也没有除以总和。',
  'tools.mistake.wrongRow': '这是行和列对调后的数：行是查询，列是键。',
  'tools.mistake.noScale': '这是缩放之前的得分：还要乘以1/√d_k。',
  'tools.exercise.notNumber': '请输入一个数，例如2、−1.5、0.25或1/4。',
  'tools.exercise.wasReset': '这个例子的进度已重置。',
  'tools.hint.masked': '因果遮盖让这个查询看不到这个键。',
  'tools.ask.keys': '{symbol}是多少？即键{i}的第{c}个分量。',
  'tools.ask.queries': '{symbol}是多少？即查询{i}的第{c}个分量。',
  'tools.ask.values': '{symbol}是多少？即值{i}的第{c}个分量。',
  'tools.ask.scores': '{symbol}是多少？即查询{i}对键{j}的分数。',
  'tools.ask.exponentials': '{symbol}是多少？即查询{i}对键{j}的分数的指数。',
  'tools.ask.weights': '{symbol}是多少？即查询{i}给键{j}的权重。',
  'tools.ask.weighted': '{symbol}是多少？即值{j}的第{c}个分量乘以查询{i}给它的权重。',
  'tools.ask.outputs': '{symbol}是多少？即输出{i}的第{c}个分量。',
  'tools.ask.head-scores': '头{h}中的{symbol}是多少？即查询{i}对键{j}的分数。',
  'tools.ask.head-weights': '头{h}中的{symbol}是多少？即查询{i}给键{j}的权重。',
  'tools.practice.status': '练习：一个由小整数组成的新例子。',
  // ---- 练习保留读者自己的数，并可以回去 ----
  'tools.practice.kept':
    '练习：一个由小整数组成的新例子，从第一个提问的步骤开始。你自己的数已保留。',
  'tools.practice.keptArticle':
    '练习：一个由小整数组成的新例子，从第一个提问的步骤开始。原文的例子已保留。',
  'tools.practice.back': '回到你自己的数',
  'tools.practice.backArticle': '回到原文的例子',
  'tools.practice.left': '已结束练习：回到你自己的数和你离开时的步骤。',
  'tools.export': '导出',
  'tools.export.heading': '导出这一步',
  'tools.export.png': '图片（PNG）',
  'tools.export.svg': '矢量图（SVG）',
  'tools.export.gif': '本阶段的动图（GIF）',
  'tools.export.json': '所有矩阵（JSON）',
  'tools.export.csv': '所有矩阵（CSV）',
  'tools.export.recording': '正在录制GIF：第{done}帧，共{total}帧……',
  'tools.export.saved': '{format}已保存。',
  'tools.export.failed': '无法生成{format}：{reason}',
  'tools.share.link': '这一步的链接',
  'tools.share.markup': '当前状态的嵌入代码',
  'tools.share.copy': '复制',
  'tools.share.note': '链接包含你修改过的数字和设置：打开它的人会看到这一步和完全相同的数字。',
  'tools.share.markupNote':
    '把它粘贴到课程页面（模块脚本之后），即可显示这一步和完全相同的数字与设置。',
  'tools.share.copied': '已复制。',
  'tools.share.select': '已选中：按Ctrl+C（⌘C）复制。',

  // Chapter 4's title (its sentences are with its stages, stages/language/)
  'chapter.language': '第四章 · 一个小小的语言模型',

  // Chapter 3 (where the weights come from): the chapter and stage "Order"
  'chapter.learning': '第三章 · 权重从哪里来',
  'ch3.order.inputs': '输入',
  'ch3.order.outputs': '输出',

  // Chapter 3, stage "One learning step"
  'ch3.title.learn-outputs': '反向 1：损失随每个输出怎样变化',
  'ch3.title.learn-attention': '反向 2：……随每个注意力权重',
  'ch3.title.learn-scores': '反向 3：穿过 softmax，到分数',
  'ch3.title.learn-qkv': '反向 4：到查询、键和值',
  'ch3.title.learn-weights': '反向 5：到权重 W_Q、W_K、W_V',
  'ch3.learn.gradient': '梯度',
  'ch3.learn.name.values': '值',
  'ch3.learn.name.weights': '注意力权重',
  'ch3.learn.target': '目标 t',
  'ch3.learn.targetEntry': '目标，第 {c} 项',
  'ch3.learn.targetInvalid': '目标第 {c} 项：应为 −1000 到 1000 之间的数，实际输入“{given}”。',
  'ch3.learn.suggestion': '使用建议的目标',
  'ch3.learn.after': '{steps|一步之后|# 步之后}',
  'ch3.learn.plot': '每一步后的损失',
  'ch3.learn.plotCaption': '每一步后的损失：{first} → {last}',
  // The weights' names in chapters 2 and 3 (their editors), in those chapters' words.
  'matrix.later.wQuery': '查询的权重',
  'matrix.later.wKey': '键的权重',
  'matrix.later.wValue': '值的权重',
  // ---- 第 3 章 · 学习步骤的损失图与发散 ----
  'ch3.learn.plotSteps': '已走的步数',
  'ch3.learn.plotLoss': '损失',

  // Chapter 3, stage "Order and positions": positions and RoPE
  'ch3.order.positions': '位置向量',
  'ch3.rope.axis': '第 {c} 列',
  'ch3.rope.legendQuery': '查询 {i}',
  'ch3.rope.legendKey': '键 {j}',
  'ch3.rope.picture': '查询和键的第一对数画成箭头，各自按位置乘 θ 旋转',
  'ch3.rope.position': '位置 m = {m}',

  // Chapter 3, stage "The rest of the block"
  'ch3.title.block-residual': '残差连接：X + attention(X)',
  'ch3.title.block-norm': 'LayerNorm：每行变为均值 0、标准差 1',
  'ch3.title.block-mlp': 'MLP，以及第二个残差',
  'ch3.block.name.y': '注意力的输出',
  'ch3.block.name.residual': '残差和',
  'ch3.block.name.normed': '归一化后',
  'ch3.block.name.hidden': '隐藏层（ReLU 之后）',
  'ch3.block.name.mlp': 'MLP 输出',
  'ch3.block.name.output': '块的输出',
  'ch3.block.name.w1': 'MLP 输入权重（d → 隐藏）',
  'ch3.block.name.w2': 'MLP 输出权重（隐藏 → d）',

  // Chapter 3: the cell inspector's titles
  'ch3.inspect.grad': '一个梯度，由它后面的梯度算出',
  'ch3.inspect.learn': '一步之后的权重：w − η·∂L/∂w',
  'ch3.inspect.later': '{steps} 步之后：{value}',
  'ch3.inspect.block': '这个格子的算式',
  // ---- 第三章 · “train” 阶段（现场训练一个小模型）----
  'ch3.train.curveLabel': '每个训练步的损失',
  'ch3.train.axisSteps': '训练步数',
  'ch3.train.dropMark': '第 {step} 步时骤降',
  'ch3.train.headName': '第 {layer} 层 · 头 {head}',
  // ---- 第 3 章 · 一个头被读作什么（model/head-reading.mjs）、小模型及其损失 ----
  'ch3.read.previous': '前一个词元：其权重的 {share} 落在紧挨着的前一个词元上',
  'ch3.read.induction': '归纳：其权重的 {share} 落在当前词元上一次出现之后的那个词元上',
  'ch3.read.copy': '上一次出现：其权重的 {share} 落在当前词元上一次出现的位置上',
  'ch3.read.fixed': '固定词元：其权重的 {share} 落在 {token} 上，不管它在哪里',
  'ch3.read.self': '自身：其权重的 {share} 落在当前词元自己身上',
  'ch3.read.leans': '偏向{toward}：其权重的 {share} 落在那里，不到一半',
  'ch3.read.diffuse': '分散：分布在大约 {keys} 个词元上，没有偏向哪一个',
  'ch3.read.mixed': '没有单一模式：每个查询大约看 {keys} 个词元，但看的不是同一类词元',
  'ch3.kind.previous': '前一个词元',
  'ch3.kind.induction': '归纳',
  'ch3.kind.copy': '上一次出现',
  'ch3.kind.fixed': '固定词元 {token}',
  'ch3.kind.self': '自身',
  'ch3.kind.leans': '偏向{toward}',
  'ch3.kind.diffuse': '分散',
  'ch3.kind.mixed': '没有单一模式',
  // ---- 第三章 · “heads-learned” 阶段（头学到了什么）----
  'ch3.heads.emptyInput': '请至少输入一个字母。',
  'ch3.heads.badLetter': '这个模型的词元只有字母 A 到 O，没有“{letter}”。',
  'ch3.heads.tooLong': '模型的上下文最多放得下 {most} 个字母。',
  'ch3.files.png': '损失曲线（PNG）',
  'ch3.files.svg': '损失曲线（SVG）',
  'ch3.files.csv': '每一步的损失（CSV）',
  'ch3.files.json': '训练好的参数（JSON）',
  'ch3.files.load': '载入参数（JSON）',
  'ch3.files.loaded': '已载入：一个训练了 {step} 步的模型。',
  'ch3.files.refused': '未载入：{reason}',
  'ch3.files.link': '复制这个训练好的模型的链接',
  'ch3.files.linkCopied': '链接已复制（{length} 个字符）：它会打开带有这个模型的页面。',
  'ch3.files.linkSelect': '链接（{length} 个字符）已选中：按 Ctrl+C（⌘C）复制。',
  'ch3.panels.title': '这一步的数字',
  // ---- 第三章 · 每个头的热图存为文件（tools/export/heatmaps.mjs）----
  'ch3.files.heatmaps.png': '热图（PNG）',
  'ch3.files.heatmaps.svg': '热图（SVG）',
  'ch3.files.heatmaps.csv': '每个头的权重（CSV）',
  'ch3.files.heatmaps.after': '训练 {step} 步后',
  // --- 页面布局、手机与成本（第四轮）：真实模型的名字、长度滑块、触屏
  'tables.intro.touch':
    '计算中的每个矩阵都以普通表格列出。轻点计算得到的单元格，可以看到它的算式。',
  'stages.toggle': '第{stage}阶段，共{total}个阶段：{name}',
  'transport.ticksOpen': '阶段：打开阶段列表',
  'app.scrollCue': '这个场景比屏幕宽：左右滑动它可以看到其余部分 →',
};
