// 中文字符串：每个键对应一句话（或一个标签），措辞尽量沿用原文。{name} 为参数。
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
    '本页的每个数字都来自注意力模块（C++编译为WebAssembly）的trace()。softmax中的指数及其和也来自它；页面本身只计算原文四舍五入后的数字。',
  'app.skip': '跳到演示部分',

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
  'stages.label': '步骤',
  'stage.inputs': '准备输入',
  'stage.weights': '初始化权重',
  'stage.projections': '计算键、值和查询',
  'stage.scores': '计算注意力得分',
  'stage.softmax': '计算softmax',
  'stage.weighted': '将得分与值相乘',
  'stage.sum': '对加权值求和',
  'stage.everyQuery': '其余的查询',
  'stage.number': '阶段{stage}',

  // --- 步骤标题 ---
  'title.inputs': '输入：{n}个词元即X的{n}行',
  'title.weights': '三个权重矩阵',
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
  'title.result': '完整结果',

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
  'label.scoresOf': '查询{i}的得分',
  'matrix.x': '输入',
  'matrix.wKey': '键的权重',
  'matrix.wQuery': '查询的权重',
  'matrix.wValue': '值的权重',
  'matrix.queries': '查询',
  'matrix.keys': '键',
  'matrix.keysTransposed': '键的转置',
  'matrix.values': '值',
  'matrix.scores': '注意力得分',
  'matrix.weights': 'softmax权重',
  'matrix.weighted': '加权值',
  'matrix.outputs': '输出',
  'scene.arithmetic': '这一步的算式',

  // --- 场景：输入 ---
  'inputs.embeddings':
    'self-attention的输入是词元嵌入（token embedding）：词元（token）是一个词或词的一部分，它的嵌入就是表示它的多维数字向量。',
  'inputs.example':
    '假设我们有{n}个{d}维的词元嵌入作为self-attention的输入，也就是X的{n}行（绿色）。',
  'formula.inputs': 'X是{n}行{d}列的矩阵',
  'narrate.inputs': '{n}个{d}维的输入。{rows}。',

  // --- 场景：权重 ---
  'weights.three':
    '我们需要将每个输入和三个权重矩阵分别相乘，进而得到我们的键（key，橙色）、查询（query，红色）、值（value，紫色）。',
  'weights.shapes':
    '由于输入的shape为1×{dIn}，键和查询的shape为1×{dK}，值的shape为1×{dV}，因此W_K和W_Q的shape为{dIn}×{dK}，W_V的shape为{dIn}×{dV}。',
  'weights.random':
    '在神经网络中，这些权重通常是很小的浮点数，一般使用随机分布（如Gaussian、Xavier）来随机初始化。权重初始化放在训练之前，在训练过程中不断更新。',
  'formula.weights': 'W K和W Q是{dIn}乘{dK}的矩阵，W V是{dIn}乘{dV}的矩阵',
  'narrate.weights': '权重：W_K和W_Q为{dIn}×{dK}，W_V为{dIn}×{dV}。',

  // --- 场景：逐行计算 ---
  'projection.row.keys':
    '针对输入{i}计算键：输入的这一行与{weight}的每一列做点积，得到键{i}的每一个元素。',
  'projection.row.values':
    '针对输入{i}计算值：输入的这一行与{weight}的每一列做点积，得到值{i}的每一个元素。',
  'projection.row.queries':
    '针对输入{i}计算查询：输入的这一行与{weight}的每一列做点积，得到查询{i}的每一个元素。',
  'projection.row.first': '请看方框扫过权重的每一列：每一列得到{role}的一个数字。',
  'projection.row.same': '接着使用同样的weight来为输入{i}计算对应的{role}。',
  'formula.projectionRow': '{role}{i}等于输入{i}乘以权重矩阵',
  'narrate.projectionRow': '{role}{i} = 输入{i}乘以{weight} = {vector}。',

  // --- 场景：矩阵乘法 ---
  'projection.matrix.faster':
    '更快的方法是对合并上述操作进行矩阵运算：把所有输入叠成X，一次算出所有行。',
  'projection.matrix.rows': '{symbol}的第i行正是上面逐行算出的输入i的{role}。',
  'formula.projectionMatrix': '{symbol}等于X乘以{weight}',
  'narrate.projectionMatrix': '一次算出所有{role}：{symbol} = X·{weight}。',

  // --- 场景：注意力得分 ---
  'scores.dot':
    '为了获得输入{i}的注意力得分（蓝色），我们用它的查询（红色）和所有输入的键（橙色）分别计算点积。',
  'scores.count': '因此针对输入{i}我们获得了{n}个注意力得分，分别表示它的查询与每个键的匹配程度。',
  'scores.onlyFirst':
    '请注意，这里我们只使用输入1中的查询。针对其他输入的查询，可以重复同样的步骤。',
  'scores.scaled':
    '已缩放：与Transformer一样，每个得分都除以√d_k = √{dK}，以免向量较长时softmax过于尖锐。',
  'scores.maskedTerm': '已屏蔽：键{j}在查询{i}之后',
  'formula.scores': 's i j等于q i与k j的点积',
  'formula.mask': '加上m i j：键 j不在i之后时为0，在i之后时为负无穷（因果掩码）',
  'formula.scoresScaled': 's i j等于q i与k j的点积除以d k的平方根',
  'note.articleSlip':
    '注意：由于计算注意力得分时使用的是点积，所以查询和键的维度必须相同（原文此处写作“query和value”，是笔误）。值的维度可以不同，输出的维度与值保持一致。',
  'narrate.scores': '查询{i}的得分 = {vector}。',

  // --- 场景：softmax ---
  'softmax.table': '查询{i}得分的softmax',
  'softmax.rowScores': '得分',
  'softmax.rowExp': 'e^(s − max)',
  'softmax.rowWeights': '权重',
  'softmax.rowWeightsArticle': '权重（原文的写法）',
  'softmax.rowExact': '精确权重',
  'softmax.rowBars': '占比',
  'softmax.stackedLabel': '查询{i}的权重在一根条中所占的比例',
  'softmax.addsToOne': '各部分相加始终为1。',
  'softmax.normalise': '我们使用softmax函数来执行归一化操作，使得各项为正且相加后和为1。',
  'softmax.how':
    '对每个得分取e的指数（先减去最大的得分：结果不变，但数字不会过大），再除以它们的和。',
  'softmax.articleRounds':
    '与原文一样，为了便于阅读，softmax的输出四舍五入到小数点后1位：{weights}。',
  'formula.softmax': 'a i j等于e的s i j次方除以所有e的s i l次方之和',
  'narrate.softmax': '查询{i}的权重 = {vector}。',
  'note.rounding':
    '原文在相乘之前把softmax的输出保留到小数点后1位，并保持每行之和为1。普通的四舍五入做不到：它把{exactWeights}变成{plainWeights}，加起来是{plainSum}。所以原文先把每个权重向下截到十分位（{floors}），再把还差的几个0.1分给被截掉最多的权重。{exactWeights}就是这样变成了{articleWeights}，于是输出{i}从{exactOutput}变成了{articleOutput}。',
  'note.roundingPlain':
    '原文在相乘之前把softmax的输出保留到小数点后1位（这里普通的四舍五入已经使和为1）：{exactWeights}变成了{articleWeights}，于是输出{i}从{exactOutput}变成了{articleOutput}。',
  'softmax.addsToOneRounded':
    '各部分相加始终为1。旁边印出的权重加起来是{sum}，只是因为每个都四舍五入到了小数点后3位。',

  // --- 场景：加权值 ---
  'weighted.multiply':
    '接着将softmax之后的注意力得分（蓝色）乘以其相应的值（紫色），这将产生{n}个alignment vectors（黄色），在本文中我们称之为加权值。',
  'weighted.article':
    '使用原文的四舍五入时，这里乘的是四舍五入后的权重（与原文一样，属于显示用的计算）。',
  'weighted.approx':
    '“≈”表示这一行打印出来的数字相乘只是近似相等：权重打印时保留三位小数，而乘积是用精确的权重算出来的。',
  'numbers.decimals':
    '带三位小数的数字是为显示而四舍五入的（2.000可能是1.99999…）；不带小数的数字（如2）是精确的。',
  'formula.weighted': 'a i j乘以v j',
  'narrate.weighted': '查询{i}的加权值：{lines}。',

  // --- 场景：求和 ---
  'sum.table': '把查询{i}的加权值相加',
  'sum.caption': '输出{i}',
  'sum.add': '我们将这{n}个加权值按元素相加，得到输出{i}（深绿色）。',
  'sum.meaning': '输出{i}表示以输入{i}的查询与所有输入的键之间的注意力得分作为权重，对值求和。',
  'sum.approx':
    '“≈”表示打印出来的各项相加只是近似等于结果：每个加权值打印时都经过四舍五入，而输出是精确值之和。',
  'sum.dimension': '输出的维度与值相同，d_v = {dV}。',
  'formula.sum': 'o i等于对j求和a i j乘以v j',
  'narrate.sum': '输出{i} = {vector}。',

  // --- 场景：完整结果 ---
  'result.repeat': '对其余输入的查询重复上述步骤，就得到了完整的结果：每个输入对应一行输出。',
  'result.matrices': '写成矩阵：得分为Q·Kᵀ，权重为每一行的softmax，输出为权重·V。',
  'result.matricesScaled': '写成矩阵：得分为Q·Kᵀ / √d_k，权重为每一行的softmax，输出为权重·V。',
  'result.heatmaps': '热力图展示每个查询关注哪些键：颜色越深，数值越大。',
  'heatmap.description': '颜色越深，数值越大。',
  'formula.result': 'O等于Q乘K的转置的softmax，再乘以V',
  'formula.resultScaled': 'O等于Q乘K的转置除以d k的平方根的softmax，再乘以V',
  'narrate.result': '全部输出：{outputs}。',

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
  'workbench.intro': '可以修改任意数字：之后的每一步都会立即由WebAssembly模块重新计算。',
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
  'weights.intuition':
    '一个直观的理解：查询是一个词元想要找的东西，键是它提供给别人来匹配的标签，值是它被找到后交出去的内容，就像一次检索：用问题去匹配标签，再取回内容。',
  'scores.dotCausal':
    '输入{i}的注意力得分（蓝色）：它的查询（红色）与{i|输入1|输入1到#}（包括它自己）的键（橙色）做点积；因果掩码遮住了之后所有的键。',
  'scores.countCausal':
    '这样输入{i}得到{visible}个得分，表示它的查询与每个可见的键的匹配程度；之后的{hidden}个键得分为−∞。',
  'scores.countCausalNone':
    '这样输入{i}得到{visible}个得分：它是最后一个输入，之后没有键，因此没有被遮住的得分。',
  'why.scaling':
    '为什么要缩放：点积是d_k个乘积之和，得分会随d_k变大；得分太大会使softmax趋于“全有或全无”（一个权重接近1，其余接近0），网络就难以学习。除以√d_k可以让得分保持适中。',
  'why.masking':
    '为什么要掩码：生成文本的模型是从左到右一个词元一个词元地写的。计算第{i}个词元时，后面的词元还不存在，所以训练时也要用掩码遮住它们：第{i}个词元只能看它自己和前面的词元。',
  'sum.meaningCausal':
    '输出{i}只混合了{i|输入1|输入1到#}的值（掩码遮住了后面的），比例取决于各自的键与查询 {i}的匹配程度。',
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
  'stage.heads': '多个头',
  'stage.headAttention': '每个头各自注意',
  'stage.output': '拼接，再乘 W_O',
  'stage.kvSharing': '共享的 K/V 头',
  'stage.decoding': '带 KV 缓存的解码',
  'ch2.title.heads': '一层，多个头：Q、K、V 按列切分',
  'ch2.title.attention': '每个头各自计算注意力',
  'ch2.title.concat': '各头的输出并排',
  'ch2.title.output': '输出投影：Y = C·W_O',
  'ch2.title.kv': 'MHA、GQA、MQA：查询头共享 K/V 头',
  'ch2.title.decode': '用 KV 缓存解码第 {t} 个词元',
  'ch2.head': '头 {h}',
  'ch2.matrix.wOut': '输出权重',
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
  'ch2.attention.own':
    '每个头用自己的查询、键和值做第一章的注意力：自己的分数、自己的 softmax、自己的加权和。小热力图把每个头的分数和权重并排显示；颜色越深数越大。',
  'ch2.attention.exampleIntro':
    '例子的权重是特意选的，让各个头看不同的东西：头 1 匹配特征 1 和 3，头 2 匹配特征 2 和 4，头 3 用特征 1 和 3 去找具有特征 2 和 4 的词元，头 4 什么也不问，只求平均。每张卡片写明它的头注意什么。',
  'ch2.attention.yours': '用你的数字时，每张卡片列出每个查询权重最大的键，取自模块算出的权重。',
  'ch2.attention.onDemand':
    '打开“数字”开关可在每个格子里显示分数和权重；悬停或聚焦一个格子可看它背后的算式。',
  'ch2.attention.example.1':
    '头 1 注意与自己共享特征 1 和 3 的词元：词元 1 和 3 平均分给词元 1、3、4，词元 4 主要看自己，词元 2（两者都没有）平均分给所有词元。',
  'ch2.attention.example.2':
    '头 2 注意词元 2，也就是特征 2 和 4 很大的那个：词元 2 把 0.98 给了自己，词元 3 和 4 主要看词元 2，词元 1（没有这些特征）平均分配。',
  'ch2.attention.example.3':
    '头 3 跨特征连接词元：词元 1、3、4（有特征 1 或 3）都看向具有特征 2 和 4 的词元 2；词元 2 什么也不问，平均分配。',
  'ch2.attention.example.4':
    '头 4 的查询全为 0，所以每个分数都是 0、每个权重都是 1/4：它平等地注意每个词元，即值的平均。',
  'ch2.attention.even': 'q{i} 平均',
  'ch2.attention.readsKv': '读取 K/V 头 {g}',
  'ch2.attention.scores': '头 {h} 的分数',
  'ch2.attention.weights': '头 {h} 的权重',
  'ch2.attention.showNumbers': '数字',
  'ch2.formula.head': '头 h：其查询乘以其键的 softmax，再乘以其值',
  'ch2.narrate.attention': '{heads} 个头。最大权重：{summary}。',
  'ch2.concat.name': '各头并排',
  'ch2.concat.headOutput': '头 {h} 的输出',
  'ch2.concat.why':
    '每个头为每个词元给出一行输出，d_head = {dHead} 个数。把 {heads} 个头的输出并排放在一起，列块用各头的颜色：每个词元 {width} 个数。',
  'ch2.concat.noMixing':
    '这里还没有相加：每一块正好是它那个头的输出。把各头的发现混合起来，是下一个矩阵 W_O 的工作。',
  'ch2.formula.concat': 'C：各头的输出并排',
  'ch2.narrate.concat': '{heads} 个头的输出并排。第 1 行：{row}。',
  'ch2.output.name': '该层的输出',
  'ch2.output.why':
    '拼接结果乘以 W_O，就像第一章中 X 乘以 W_Q：每个输出格子是 C 的一行与 W_O 的一列的点积。结果又是 d_model = {dModel} 列，于是层可以堆叠。',
  'ch2.output.mix': 'W_O 的每一行读取某个头的某一列，所以每个输出数都能混合所有头的发现。',
  'ch2.formula.output': '该层的输出：C 乘以 W_O',
  'ch2.narrate.output': 'Y = C·W_O。第 1 行：{row}。',
  'ch2.kv.switch': '键/值头',
  'ch2.kv.option': '{kind} · {kv}',
  'ch2.kv.mha': 'MHA',
  'ch2.kv.gqa': 'GQA',
  'ch2.kv.mqa': 'MQA',
  'ch2.kv.kvHead': 'K/V 头 {g}',
  'ch2.kv.groups': '哪些查询头共享每个 K/V 头',
  'ch2.kv.saving':
    '这个例子缓存 2（一个键和一个值）× {n} 个词元 × {kvHeads} 个 K/V 头 × 每个 {dHead} 个数 = {cached} 个数；若每个查询头（{heads} 个）都有自己的 K/V 头，则是 {mha} 个。节省：{saved} 个数。',
  'ch2.kv.savingNone':
    '这个例子缓存 2（一个键和一个值）× {n} 个词元 × {kvHeads} 个 K/V 头 × 每个 {dHead} 个数 = {cached} 个数：每个查询头一个 K/V 头，没有共享，也没有节省。选择 GQA 或 MQA 来共享。',
  'ch2.kv.cacheWhy':
    '模型写文本时，会保留之前每个词元的键和值（KV 缓存，见“带 KV 缓存的解码”），免得重新计算。长文本时占满内存的正是这个缓存，而不是权重。',
  'ch2.kv.explain.mha': '多头注意力（MHA）：{heads} 个查询头各有自己的键/值头。',
  'ch2.kv.explain.gqa':
    '分组查询注意力（GQA）：{heads} 个查询头分成 {kvHeads} 组，每组 {group} 个；同组的头读取相同的键和值，所以缓存只存 {kvHeads} 个 K/V 头而不是 {heads} 个。',
  'ch2.kv.explain.mqa':
    '多查询注意力（MQA）：全部 {heads} 个查询头读取同一个键/值头；缓存比 MHA 小 {group} 倍。',
  'ch2.kv.erases':
    '共享是有代价的：头{readers}现在读取头{owners}的键和值，它们自己的键所关注的东西消失了，权重随共享的键而变。在本章的例子中，头2失去了对词元 2的关注（“每个头各自注意”显示每个头的权重）。',
  'ch2.kv.tradeoff':
    '同组的头仍然提出各自的问题（查询），但看的是相同的键，因此注意模式可能改变：切换前后比较“每个头各自注意”。共享时每组保留其第一个头的 K/V 权重。',
  'ch2.kv.calc.title': '真实模型的 KV 缓存',
  'ch2.kv.calc.layers': '层数',
  'ch2.kv.calc.heads': '查询头',
  'ch2.kv.calc.kvHeads': 'K/V 头',
  'ch2.kv.calc.dHead': '头大小',
  'ch2.kv.calc.tokens': '词元数',
  'ch2.kv.calc.bytes': '每个数的字节数',
  'ch2.kv.calc.bytesOption': '{value}（{name}）',
  'ch2.kv.calc.result':
    'KV 缓存：每个序列 {cache}；若每个查询头一个 K/V 头则是 {mha}。共享节省 {saved}（小 {times} 倍）。',
  'ch2.kv.calc.divide': 'K/V 头数（{kvHeads}）必须整除查询头数（{heads}）。',
  'ch2.formula.cache': '缓存大小：2（键和值）乘以层数、词元数、K/V 头数、头大小和字节数',
  'ch2.narrate.kv':
    '{kind}：{heads} 个查询头用 {kvHeads} 个键/值头。这里缓存 {cached} 个数，比 MHA 少 {saved} 个。',
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
  // ---- 模块里的名字，折叠在正文下面（“给开发者”） ----
  'explain.developers': '给开发者',
  'ch2.attention.module':
    '每个头的得分和权重来自 trace({ x, wQuery, wKey, wValue, heads, kvHeads, wOut })：它返回的 heads[h].scores 和 heads[h].weights。',
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
  'tools.ask.cacheNumbers': '处理完第{t}个词元后，这一层的KV缓存共存有多少个数（键和值合计）？',
  'tools.hint.cacheTitle': '缓存为每个KV头保存到目前为止每个词元的一个键和一个值。',
  'tools.hint.cacheNumbers': '2（键和值）× {tokens}个词元 × {kvHeads}个KV头 × 每个{dHead}个数 = ?',
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

  // Chapter 3 (where the weights come from): the chapter and stage "Order"
  'chapter.learning': '第三章 · 权重从哪里来',
  'stage.order': '顺序与位置',
  'ch3.title.shuffle': '打乱词元：输出只是跟着换位置',
  'ch3.order.inputs': '输入',
  'ch3.order.outputs': '输出',
  'ch3.order.attention': '自注意力',
  'ch3.order.shuffle': '打乱',
  'ch3.order.same': 'Y′ 的每一行都是 Y 的某一行，随它的词元一起移动：最大差值为 {gap}。',
  'ch3.order.why':
    '第一章里没有任何东西说明词元在哪个位置：每个查询都与所有键做点积，每个输出都是所有值的加权和，与它们的顺序无关。',
  'ch3.order.result':
    '这里词元的顺序是 {tokens}。每个输出都和原来同一行，只是到了它的词元的新位置。',
  'ch3.order.noOrder': '所以单靠自注意力分不清“狗咬人”和“人咬狗”：它把输入当作一个集合。',
  'ch3.formula.permute': '输入换顺序，输出跟着换顺序',
  'ch3.narrate.shuffle': '词元顺序为 {tokens}：输出还是那些行，按同样的新顺序排列。',

  // Chapter 3, stage "One learning step"
  'stage.learn': '一步学习',
  'ch3.title.target': '给输出 1 定一个目标，看它差多远',
  'ch3.title.learn-outputs': '反向 1：损失随每个输出怎样变化',
  'ch3.title.learn-attention': '反向 2：……随每个注意力权重',
  'ch3.title.learn-scores': '反向 3：穿过 softmax，到分数',
  'ch3.title.learn-qkv': '反向 4：到查询、键和值',
  'ch3.title.learn-weights': '反向 5：到权重 W_Q、W_K、W_V',
  'ch3.title.update': '这一步：W ← W − η·∂L/∂W，再做一次前向计算',
  'ch3.learn.gradient': '梯度',
  'ch3.learn.name.values': '值',
  'ch3.learn.name.weights': '注意力权重',
  'ch3.learn.output1': '输出 1',
  'ch3.learn.target': '目标 t',
  'ch3.learn.targetName': '目标',
  'ch3.learn.targetEntry': '目标，第 {c} 项',
  'ch3.learn.targetInvalid': '目标第 {c} 项：应为 −1000 到 1000 之间的数，实际输入“{given}”。',
  'ch3.learn.suggestion': '使用建议的目标',
  'ch3.learn.loss': 'L = ½·[{terms}] = {loss}',
  'ch3.learn.why':
    '第一、二章把 W_Q、W_K、W_V 当作已知。模型是靠学习找到它们的：衡量输出错了多少，再把每个权重朝让它错得更少的方向推一点。',
  'ch3.learn.suggest':
    '页面建议的输出 1 目标，是查询 1 最不关注的那个词元的值：要达到它，注意力本身必须移动，而不只是值。也可以输入任何其他目标。',
  'ch3.learn.lossWhy': '损失是平方误差，再除以 2，这样它的梯度正好是 o₁ − t。',
  'ch3.formula.loss': '损失：输出 1 到目标距离平方的一半',
  'ch3.narrate.target': '输出 1 与目标相比：损失为 {loss}。',
  'ch3.learn.gradOutputs':
    '从最后开始。损失只读输出 1，所以它的梯度在第 1 行是 o₁ − t，其余为 0：哪一项为正，输出 1 的那一项就太大了。',
  'ch3.learn.backwards':
    '现在把第一章的各阶段倒过来走。把鼠标移到格子上（或聚焦它）即可看到它的算式。',
  'ch3.learn.gradWeights':
    '输出 1 是 a₁₁v₁ + a₁₂v₂ + a₁₃v₃，所以增大 a₁ⱼ 会让它沿 vⱼ 移动：a₁ⱼ 的梯度就是 ∂L/∂o₁ 与 vⱼ 的点积。为正表示“少给这个键一些权重”；三个都为正时，只有它们之间的差别才算数，因为权重之和仍须为 1：下一步的 softmax 会处理这一点。',
  'ch3.learn.gradScores':
    '权重由分数经 softmax 得到，每个权重都依赖本行的所有分数（它们共用分母）。',
  'ch3.learn.jacobian':
    '乘以 softmax 的行雅可比矩阵，结果就是 a ∘ (g − a·g)：每个权重的梯度减去本行的平均，再乘以该权重。因此一行梯度之和为 0。',
  'ch3.learn.gradQkv':
    '分数是 qᵢ·kⱼ，所以它的梯度沿 kⱼ 流向查询 i，沿 qᵢ 流向键 j。值得到的是输出的梯度，按它们获得的注意力加权。',
  'ch3.learn.gradW':
    'Q = X·W_Q，所以 ∂L/∂W_Q = Xᵀ·∂L/∂Q：每个输入的特征乘以其查询的梯度，对所有词元求和。W_K、W_V 同理。',
  'ch3.formula.learn-outputs': '损失对输出 1 的梯度',
  'ch3.formula.learn-attention': '输出是值的加权和',
  'ch3.formula.learn-scores': 'softmax 的行雅可比矩阵作用于 g = ∂L/∂aᵢ',
  'ch3.formula.learn-qkv': '分数是 Q·Kᵀ',
  'ch3.formula.learn-weights': '查询是 X·W_Q',
  'ch3.narrate.learn-outputs': '损失对各输出的梯度。',
  'ch3.narrate.learn-attention': '对注意力权重的梯度。',
  'ch3.narrate.learn-scores': '穿过 softmax 到分数。',
  'ch3.narrate.learn-qkv': '到查询、键和值。',
  'ch3.narrate.learn-weights': '到权重矩阵。',
  'ch3.learn.before': '之前',
  'ch3.learn.after': '{steps|一步之后|# 步之后}',
  'ch3.learn.distance': '输出 1 现在离目标 ‖o₁′ − t‖ = {distance}（开始时为 {start}）。',
  'ch3.learn.more': '再走 10 步',
  'ch3.learn.reset': '回到一步',
  'ch3.learn.status': '{steps|一步之后|# 步之后}：损失 {before} → {loss}。',
  'ch3.learn.plot': '每一步后的损失',
  'ch3.learn.plotCaption': '每一步后的损失：{first} → {last}',
  // The weights' names in chapters 2 and 3 (their editors), in those chapters' words.
  'matrix.later.wQuery': '查询的权重',
  'matrix.later.wKey': '键的权重',
  'matrix.later.wValue': '值的权重',
  'ch3.learn.update':
    '每一步都让每个权重逆着自己的梯度移动 η = {eta} 倍梯度（这里共 {steps} 步；显示的是最后一步之后的权重）。把鼠标移到权重上可看到旧值、梯度和新值。',
  'ch3.learn.moved':
    '用新权重再做一次前向计算：这 {steps} 步之后，输出 1 更接近目标，损失从 {before} 降到 {after}。',
  'ch3.learn.repeat':
    '训练就是这么回事：把这一步在数百万个样本上（一次一批）重复，每次把权重推一点。',
  'ch3.formula.update': '梯度下降：逆着梯度走一步',
  'ch3.narrate.update': '{steps|一步之后|# 步之后}输出 1 为 {row}；损失为 {after}。',
  // ---- 第 3 章 · 学习步骤的损失图与发散 ----
  'ch3.learn.plotSteps': '已走的步数',
  'ch3.learn.plotLoss': '损失',
  'ch3.learn.movedUp':
    '用新权重再做一次前向计算：这 {steps} 步之后，损失没有下降，反而从 {before} 升到 {after}：步骤发散了（见按钮下方）。',
  'ch3.learn.rising': '步骤发散了：从第 {step} 步起，损失不降反升。',
  'ch3.learn.overflow':
    '步骤发散了：从第 {step} 步起损失开始增大，直到下一步的数值超出浮点数的范围（∞，然后是 NaN），所以页面在那一步之前停下。',
  'ch3.learn.divergedWhy':
    '原因：对这样的梯度来说，每一步都太长了。这里 ‖∂L/∂W‖ = {gradient}，所以一步 η = {eta} 倍梯度会让权重移动 {length}，而权重本身只有 ‖W‖ = {weights}。一步跨过了损失最低的地方，落到梯度更大的地方，下一步跨得更远。更小的数（输入、目标）或更小的 η 能让步子变短。',

  // Chapter 3, stage "Order and positions": positions and RoPE
  'ch3.title.positions': '给 X 加上位置：顺序开始起作用',
  'ch3.title.rope': 'RoPE：每对 (q, k) 转过 m·θ',
  'ch3.title.distance': '有了 RoPE，分数取决于距离',
  'ch3.order.positions': '位置向量',
  'ch3.positions.differ': '现在 Y′ 不再是 Y 换了顺序：某一行与它的词元原来的输出最多相差 {gap}。',
  'ch3.positions.add':
    '常见的做法是告诉每个词元它在哪里：给 X 的每一行加上一个位置向量，每个位置一个（同一位置总是同一个向量，无论那里是哪个词元）。',
  'ch3.positions.result':
    '同样的词元换了顺序，就会遇到别的位置向量，于是它们的查询、键和值都变了，输出也变了。（按原文顺序，位置也让输出最多变化 {changed}。）',
  'ch3.positions.learned':
    '在 GPT-2 这样的模型里，这些向量和其他权重一样是学出来的；页面为了易读，每个位置在一个特征上取 0.5。',
  'ch3.formula.positions': '学习的位置：给每个输入加一个向量',
  'ch3.narrate.positions': '加上位置后，打乱后的输出与换序后的输出最多相差 {gap}。',
  'ch3.rope.turned': '第 1–2 列，转到位置 m',
  'ch3.rope.axis': '第 {c} 列',
  'ch3.rope.legendQuery': '查询 {i}',
  'ch3.rope.legendKey': '键 {j}',
  'ch3.rope.lengths':
    '只有角度有意义：每个箭头按自己固定的长度画出（键的短一些），不是这对数的长度。',
  'ch3.rope.picture': '查询和键的第一对数画成箭头，各自按位置乘 θ 旋转',
  'ch3.rope.position': '位置 m = {m}',
  'ch3.rope.what':
    'RoPE（旋转位置编码，Llama 及之后的大多数模型都在用）不往 X 上加任何东西。它把每个查询和键的每一对数旋转一个角度：位置 m 乘以 θ。',
  'ch3.rope.pair':
    '这里 d_k = 3，所以页面只旋转一对，即第 1、2 列，每个位置 θ = 1 弧度（真实模型旋转每一对，各有自己的 θ），第 3 列保持不变。',
  'ch3.rope.module':
    '这些数来自模块的 ONNX RotaryEmbedding 算子 onnxRotaryEmbedding，余弦、正弦表来自 rotaryCaches。',
  'ch3.formula.rope': 'RoPE：把一对数旋转 m·θ',
  'ch3.narrate.rope': '查询和键的第一对数，按各自的位置旋转。',
  'ch3.rope.scores': '带 RoPE 的分数',
  'ch3.rope.plain': '没有位置时，无论两个词元在哪里，这个分数都是 {score}。',
  'ch3.rope.distance':
    '同样两个词元（查询 1 和键 2），距离为 0 到 4：每一行把查询放在位置 m（{starts}），键放在其后 d 个位置。分数随 d 变化。',
  'ch3.rope.relative':
    '两行完全相同：两个向量旋转同样的角度，点积不变，所以只有角度之差，即距离，才起作用。这就是 RoPE 被称为相对位置编码的原因。',
  'ch3.rope.noPair':
    'RoPE 旋转的是成对的数：d_k = 1（或只有一个词元）时没有可旋转的对。请给例子 2 个以上的键列和 2 个以上的词元。',
  'ch3.formula.relative': '只有距离 n − m 起作用',
  'ch3.narrate.distance': '有了 RoPE，同样两个词元的分数随距离变化。',

  // Chapter 3, stage "The rest of the block"
  'stage.block': '块的其余部分',
  'ch3.title.block-residual': '残差连接：X + attention(X)',
  'ch3.title.block-norm': 'LayerNorm：每行变为均值 0、标准差 1',
  'ch3.title.block-mlp': 'MLP，以及第二个残差',
  'ch3.block.name.x': '输入',
  'ch3.block.name.y': '注意力的输出',
  'ch3.block.name.residual': '残差和',
  'ch3.block.name.normed': '归一化后',
  'ch3.block.name.hidden': '隐藏层（ReLU 之后）',
  'ch3.block.name.mlp': 'MLP 输出',
  'ch3.block.name.output': '块的输出',
  'ch3.block.name.w1': 'MLP 输入权重（d → 隐藏）',
  'ch3.block.name.w2': 'MLP 输出权重（隐藏 → d）',
  'ch3.block.where':
    '注意力只是 Transformer 块的一部分。这里用第二章的数：那一层的输出 Y 已经和 X 形状相同（W_O 把它带回了 d_model 列）。',
  'ch3.block.residual':
    '块把 Y 加到 X 上，而不是替换 X：注意力只需学习对每个词元的改变，梯度也能经过“+”原样传到下面的层。',
  'ch3.block.why': '把鼠标移到 R 的格子上可看到它的和。',
  'ch3.block.norm':
    'LayerNorm 把每个词元的一行缩放为均值 0、标准差 1（再乘以学习到的缩放、加上偏移，这里为 1 和 0），这样无论堆多少块，数值都保持在下一层能用的范围内。',
  'ch3.block.normWhy': 'GPT-2 等模型在每个部分之前做归一化（pre-norm）：这里是在 MLP 之前。',
  'ch3.block.mlp':
    'MLP 对每个词元单独计算：W₁ 把它的 {d} 个数变成 {hidden} 个隐藏数（实际模型用 d 的 4 倍），ReLU 保留其中的正数，W₂ 再把它们变回 {d} 个。两个权重矩阵都在这一行里；这里的取值是为了便于阅读而选的，模型会自己学出它们。',
  'ch3.block.second':
    '第二个残差把 MLP 的输出加到 R 上：Z 就是块的输出。注意力在词元之间搬运信息；MLP 则单独变换每个词元。',
  'ch3.block.stack':
    'Z 与 X 的形状完全相同，所以它可以作为下一块的 X：这就是块能堆叠的原因，本章后面训练的模型就用了两块。',
  'ch3.block.noShape':
    '块的其余部分需要该层的输出与输入形状相同：请让第二章那一层的 W_O 有 d_model 列。',
  'ch3.formula.residual': '残差连接',
  'ch3.formula.norm': '一行 r 的 LayerNorm：均值 μ，标准差 σ',
  'ch3.formula.mlp': 'MLP 及其残差',
  'ch3.narrate.residual': '残差连接：输入加上注意力的输出。',
  'ch3.narrate.norm': 'LayerNorm：每行变为均值 0、标准差 1。',
  'ch3.narrate.mlp': '对每个词元做 MLP，再加第二个残差：块的输出。',

  // Chapter 3: Predict
  'ch3.ask.scoreSign': '∂L/∂s₁{sj}（查询 1 对键 {j} 的分数的梯度）是正还是负？输入 1 或 −1。',
  'ch3.hint.scoreSign':
    '穿过 softmax：∂L/∂s₁{sj} = a₁{sj}·(∂L/∂a₁{sj} − a₁·∂L/∂a₁)。比较 ∂L/∂a₁{sj} 与本行的加权平均。',
  'ch3.hint.signTyping': '正（或上升）输入 1，负（或下降）输入 −1。',
  'ch3.ask.direction':
    '这一步之后，W_V 的（第 {r} 行，第 {c} 列）项是变大还是变小？变大输入 1，变小输入 −1。',
  'ch3.hint.direction': '它的梯度是 {grad}，而这一步减去 η 乘以梯度。',
  'ch3.ask.shuffled': '打乱词元后，词元 {token} 排在第一。第一个输出行的第 1 项是多少？',
  'ch3.hint.shuffled': 'X′ 的第一行是词元 {token}：它的输出与原文顺序时相同，即 y{token}。',

  // Chapter 3: the cell inspector's titles
  'ch3.inspect.grad': '一个梯度，由它后面的梯度算出',
  'ch3.inspect.learn': '一步之后的权重：w − η·∂L/∂w',
  'ch3.inspect.later': '{steps} 步之后：{value}',
  'ch3.inspect.block': '这个格子的算式',
  // ---- 第三章 · “train” 阶段（现场训练一个小模型）----
  'stage.train': '现场训练一个小模型',
  'ch3.title.train': '在归纳任务上训练一个小模型',
  'ch3.narrate.train': '按“训练”：一个小模型学着接续一段重复的字母。看损失先停在平台上，然后骤降。',
  'ch3.train.explain':
    '每一行是：随机字母、一段字母、同一段字母再来一次、更多随机字母。在重复的那段里，下一个字母是可以预测的，但只能靠找到当前字母之前出现的位置，并抄下它后面的字母。训练就是本章的学习步骤一再重复：这里最多 {steps} 次，每次 {batch} 行。',
  'ch3.train.task':
    '任务（用字母表示）：随机字母、一段字母（下划线）、同一段再来一次（粗体）、更多随机字母。这段的长度和位置每行都不同。每行都以 ⟨s⟩ 开头，它是起始词元，不是字母。',
  'ch3.train.rowLabel': '一行：{p} 个随机字母之后是一段 {n} 个字母，然后这段再来一次',
  'ch3.train.train': '训练',
  'ch3.train.pause': '暂停',
  'ch3.train.reset': '重置',
  'ch3.train.positions': '位置',
  'ch3.train.positions.rope': 'RoPE',
  'ch3.train.positions.learned': '学习的位置向量',
  'ch3.train.positions.none': '无',
  'ch3.train.layers': '层数',
  'ch3.train.heads': '每层头数',
  'ch3.train.seed': '种子',
  'ch3.train.speed': '训练速度',
  'ch3.train.speed.fast': '快：每 50 步重画一次',
  'ch3.train.speed.slow': '慢：每 10 步暂停 ¼ 秒',
  'ch3.train.ready': '就绪：请按“训练”。',
  'ch3.train.starting': '正在启动 Worker…',
  'ch3.train.status': '第 {step} 步 · 损失 {loss}',
  'ch3.train.failed': '训练停止：{reason}',
  'ch3.train.curveLabel': '每个训练步的损失',
  'ch3.train.axisSteps': '训练步数',
  'ch3.train.dropMark': '第 {step} 步骤降',
  'ch3.train.dropped': '损失在第 {step} 步骤降，按下“训练”后 {seconds} 秒。',
  'ch3.train.droppedHeads':
    '损失在第 {step} 步骤降，按下“训练”后 {seconds} 秒。此时第 {prevLayer} 层的头 {prevHead} 看前一个词元（其权重的 {prev}），第 {layer} 层的头 {head} 看当前词元上一次出现之后的那个词元：骤降前占其权重的 {before}，骤降后 {after}。两者合起来就是归纳头。',
  'ch3.train.why.two':
    '两层：第 1 层的一个头可以把每个词元的前一个词元抄进它自己，第 2 层的一个头于是可以寻找“前一个词元是我的那个词元”。这就是归纳头；它突然形成，损失随之骤降。',
  'ch3.train.why.oneLayer':
    '一层学不会：归纳头要找“前一个词元是当前词元”的那个键，而一个键只有在更早一层的头把它前面的词元抄进来之后，才带着那个词元。位置信息（RoPE、学习的位置或没有）只告诉头一个词元在哪里，不告诉它前面是哪个词元。损失一直很高：一层能学到的（哪些字母常见、哪些字母在这一行里已经出现过）只能让损失降下一部分。',
  'ch3.train.gone':
    '已换成一个从种子开始的新模型：之前训练的模型（{step} 步）已丢弃。要保留模型，请在改开关之前复制它的链接或保存它的参数。',
  'ch3.train.why.none':
    '没有位置信息，注意力分不清顺序（本章第一阶段）：没有头能直接找到“紧挨在我前面的词元”。一个词元只能大致知道自己离开头有多远（在因果掩码下，它看得到前面有多少个词元），所以模型学得慢，也只学到一部分：没有骤降。',
  'ch3.train.headsTitle':
    '每个头在一行留出数据上的注意力（行：查询，列：键；两边标有字母），以及每个头在做什么',
  'ch3.train.headName': '第 {layer} 层 · 头 {head}',
  // ---- 第 3 章 · 一个头被读作什么（model/head-reading.mjs）、小模型及其损失 ----
  'ch3.read.previous': '前一个词元：其权重的 {share} 落在紧挨着的前一个词元上',
  'ch3.read.induction': '归纳：其权重的 {share} 落在当前词元上一次出现之后的那个词元上',
  'ch3.read.copy': '上一次出现：其权重的 {share} 落在当前词元上一次出现的位置上',
  'ch3.read.fixed': '固定词元：其权重的 {share} 落在 {token} 上，不管它在哪里',
  'ch3.read.self': '自身：其权重的 {share} 落在当前词元自己身上',
  'ch3.read.diffuse': '分散：分布在大约 {keys} 个词元上，没有偏向哪一个',
  'ch3.read.mixed': '没有单一模式：每个查询大约看 {keys} 个词元，但看的不是同一类词元',
  'ch3.kind.previous': '前一个词元',
  'ch3.kind.induction': '归纳',
  'ch3.kind.copy': '上一次出现',
  'ch3.kind.fixed': '固定词元 {token}',
  'ch3.kind.self': '自身',
  'ch3.kind.diffuse': '分散',
  'ch3.kind.mixed': '没有单一模式',
  'ch3.tables.reads': '读作',
  'ch3.train.droppedInduction':
    '损失在第 {step} 步骤降，按下“训练”后 {seconds} 秒。此时第 {layer} 层的头 {head} 看当前词元上一次出现之后的那个词元：骤降前占其权重的 {before}，骤降后 {after}。在它下面的层里，没有哪个头读作前一词元头。',
  'ch3.train.model':
    '模型：{layers} 层自注意力，每层 {heads} 个头，d_model = {dModel}（每个头处理其中 {dHead} 个数），没有 MLP。它共有 {parameters} 个参数：{vocab} 个词元各自的嵌入，每层一个 LayerNorm 和 W_Q、W_K、W_V、W_O，最后一个 LayerNorm，以及把一行变回 {vocab} 个 logits 的反嵌入{positions}。',
  'ch3.train.model.rope': '（RoPE 按位置旋转查询和键，不增加参数）',
  'ch3.train.model.learned': '，外加 {context} 个位置各一个学到的位置向量',
  'ch3.train.model.none': '（完全没有位置信息）',
  'ch3.train.loss':
    '训练降低的是下一个词元的交叉熵。在每个位置 t，模型给每个词元一个概率（它的 logits 经过 softmax）；损失是它给真正的下一个词元的概率取对数再取负，对 N 个计入的位置求平均（在重复段里，下一个字母是可以知道的）。对 16 个词元均匀瞎猜得 ln 16 ≈ 2.77；有把握地猜对得 0。',
  'ch3.formula.crossEntropy': '下一个词元的交叉熵：每个真实下一个词元的对数概率的平均值取负',
  'ch3.heads.noInductionHead':
    '模型预测下一个是 {token}。这个模型没有归纳头：在上一阶段的留出行上，没有哪个头把大部分权重放在当前词元上一次出现之后的那个词元上。所以没有头去复制上一次出现之后的内容；这个预测来自这个模型学到的其他东西。',
  'ch3.heads.relation.afterCopy': '上一个 {last} 之后的那个词元',
  'ch3.heads.relation.copy': '上一个 {last} 本身，而不是它之后的词元',
  'ch3.heads.relation.previous': '{last} 前面紧挨着的词元',
  'ch3.heads.relation.self': '最后一个词元自己',
  'ch3.heads.relation.start': '起始词元 ⟨s⟩',
  'ch3.heads.relation.other': '既不是上一个 {last}，也不是它之后的词元',
  'ch3.heads.copies': '预测的正是这个字母：模型复制了上一个 {last} 之后的内容。',
  'ch3.heads.notCopied': '但模型预测的是 {token}，不是它看向的 {key}：这里不是这个头单独决定的。',
  'ch3.heads.every':
    '每个头在你的序列上的注意力，下面写着它在做什么（在留出行上读出，与上一阶段相同）',
  // ---- 第三章 · “heads-learned” 阶段（头学到了什么）----
  'stage.heads-learned': '头学到了什么',
  'ch3.title.heads': '训练好的头看你的序列',
  'ch3.narrate.heads':
    '输入一个序列：上一阶段认出的前一词元头和归纳头显示每个词元看向哪里，模型接着续写这个序列。',
  'ch3.heads.explain':
    '每条线把一个词元（左）连到它关注的词元（右）；线越粗，权重越大。模型就是上一阶段训练的那个，处于当前状态。哪个头做什么是在上一阶段的留出行上读出的，所以两个阶段说的是同一个前一词元头和同一个归纳头；这里它们读的是你的序列。',
  'ch3.heads.inputLabel': '你的序列（字母 A 到 O）',
  'ch3.heads.help': '例如 A B C D A B C：空格可有可无。',
  'ch3.heads.emptyInput': '请至少输入一个字母。',
  'ch3.heads.badLetter': '这个模型的词元只有字母 A 到 O，没有“{letter}”。',
  'ch3.heads.tooLong': '模型的上下文最多放得下 {most} 个字母。',
  'ch3.heads.untrained': '请先在上一阶段训练模型：未训练的模型没有值得展示的头。',
  'ch3.heads.previous': '前一词元头：每个词元平均把 {score} 的权重给它前面紧挨着的词元。',
  'ch3.heads.induction':
    '归纳头：每个重复出现的词元平均把 {score} 的权重给它上一次出现之后的那个词元。',
  'ch3.heads.noRepeat': '你的序列里没有重复的字母，归纳头没有可找的东西。',
  'ch3.heads.prediction':
    '模型预测下一个是 {token}。它的归纳头——第 {layer} 层的头 {head}——从最后一个词元看向 {key}（位置 {position}，权重 {weight}）：{what}。',
  'ch3.heads.predictionNoCopy':
    '模型预测下一个是 {token}。最后一个词元 {last} 之前没有出现过，没有哪个头能照抄它后面的词元：这个预测只是猜测。',
  'ch3.heads.decoding': '用 KV 缓存逐个词元解码（训练了 {step} 步的模型）：',
  'ch3.ask.inductionNext':
    '在 ⟨s⟩ {sequence} 中，把 ⟨s⟩ 记为位置 0：归纳头从最后一个词元看向哪个位置？',
  'ch3.ask.waitTrained':
    '模型训练好之后，“预测”会在这里提问：请先在上一阶段（“现场训练一个小模型”）训练，再回来。',
  'ch3.hint.inductionTitle': '归纳头寻找当前词元上一次出现的地方。',
  'ch3.hint.inductionNext': '找到前面那个 C；这个头看的是紧跟在它后面的词元。它的位置是 ？',
  'ch3.train.loaded': '已载入一个训练了 {step} 步的模型：按“训练”继续。',
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
  'ch3.heads.loading': '正在从链接载入训练好的模型…',
  'ch3.panels.title': '这一步的数字',
  'ch3.panels.order':
    '顺序阶段的数字：原顺序的 X 与打乱后的 X′ 及它们的输出、位置向量 P，以及加上 P 之后的两者。它们由下面你的 X 和权重算出。',
  'ch3.panels.learn':
    '学习步骤的数字：损失对每个矩阵的梯度，从 ∂L/∂O 一路回到 ∂L/∂W_Q、∂L/∂W_K 和 ∂L/∂W_V，以及这一步之后的权重。它们由你的 X、权重和目标算出。',
  'ch3.panels.block':
    '整个块的数字：第二章那一层的输入 X 和输出 Y、残差和、LayerNorm、MLP（权重 W₁ 和 W₂）以及块的输出。请在下面第二章的编辑器里修改这一层。',
  'ch3.panels.train':
    '训练过程中的数字：每 100 步的损失，以及在最新快照的留出行上每个头在做什么（它在前一个词元上的平均权重、在当前词元上一次出现之后那个词元上的平均权重，以及它被读作什么）。开关在场景里；每一步的损失（CSV）和参数（JSON 或链接）也从那里保存。',
  'ch3.tables.loss': '损失',
  'ch3.tables.lossColumn': '损失',
  'ch3.tables.noSteps': '还没有训练步：请在场景里按“训练”。',
  'ch3.tables.heads': '每个头的平均权重，第 {step} 步',
  'ch3.tables.previous': '前一个词元',
  'ch3.tables.induction': '上一次出现之后',
  'ch3.tables.noHeads': '头的权重会随这个模型的第一个快照出现。',
  'ch3.panels.heads':
    '训练好的头在场景里读你的序列：每个词元看向哪里、预测和解码出的词元。模型就是上一阶段训练（或载入）的那个；这里不会改变它。',
  // ---- 第三章 · 每个头的热图存为文件（tools/export/heatmaps.mjs）----
  'ch3.files.heatmaps.png': '热图（PNG）',
  'ch3.files.heatmaps.svg': '热图（SVG）',
  'ch3.files.heatmaps.csv': '每个头的权重（CSV）',
  'ch3.files.heatmaps.after': '训练 {step} 步后',
  // ---- 第三章 · 学不会的模型，说明它学不会（model/plateau.mjs）----
  'ch3.fail.oneLayer':
    '训练了 {step} 步，损失没有骤降，仍是 {loss}；两层的模型在几百步之内就降到几乎为 0。一层学不会这个任务：归纳头要找“前一个词元是当前词元”的那个词元，而一个键只有在更早一层的头把前一个词元写进它之后，才带着它前面的词元。一层的模型没有更早的层；它能学到的（哪些字母常见、哪些字母在这一行里出现过）只能让损失降下一部分。',
  'ch3.fail.none':
    '训练了 {step} 步，损失没有骤降，只是慢慢爬到 {loss}；同样的两层用 RoPE 或学习的位置，在几百步之内就降到几乎为 0。没有位置信息，没有头能直接找“紧挨在我前面的词元”。一个词元只能大致知道自己离开头有多远（在因果掩码下，它看得到前面有多少个词元）：这是模糊的位置，模型学得慢，也只学到一部分。',
  // --- 页面布局、手机与成本（第四轮）：真实模型的名字、长度滑块、触屏
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
  'tables.intro.touch':
    '计算中的每个矩阵都以普通表格列出。轻点计算得到的单元格，可以看到它的算式。',
  'ch2.attention.onDemand.touch':
    '打开“数字”开关可在每个格子里显示分数和权重；轻点一个格子可看它背后的算式。',
  'ch3.learn.backwards.touch': '现在把第一章的各阶段倒过来走。轻点格子即可看到它的算式。',
  'ch3.learn.update.touch':
    '每个权重都逆着自己的梯度移动一点：移动 η = {eta} 倍梯度。轻点权重可看到旧值、梯度和新值。',
  'ch3.block.why.touch': '轻点 R 的格子可看到它的和。',
  'stages.toggle': '第{stage}阶段，共{total}个阶段：{name}',
  'transport.ticksOpen': '阶段：打开阶段列表',
  'app.scrollCue': '这个场景比屏幕宽：左右滑动它可以看到其余部分 →',
};
