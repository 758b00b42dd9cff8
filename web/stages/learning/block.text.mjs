// The sentences of block.mjs, in English and Chinese (same keys in both).
export default {
  en: {
    'stage.block': 'The rest of the block',
    'ch3.block.where':
      'Attention is one part of a Transformer block. These are chapter 2’s numbers: its layer’s output Y already has X’s shape (W_O brought it back to d_model columns).',
    'ch3.block.residual':
      'The block adds Y to X instead of replacing X: attention only has to learn a change to each token, and the gradient reaches the layers below through the + unchanged.',
    'ch3.block.why': 'Hover over a cell of R to see its sum.',
    'ch3.block.norm':
      'LayerNorm rescales each token’s row to mean 0 and standard deviation 1 (then a learned scale and shift, here 1 and 0), so the numbers stay in a range the next layer can use, however many blocks are stacked.',
    'ch3.block.normWhy':
      'Models such as GPT-2 normalise before each part (pre-norm): here, before the MLP.',
    'ch3.block.mlp':
      'The MLP works on each token alone: W₁ turns its {d} numbers into {hidden} hidden ones (real models use 4 times d), a ReLU keeps the positive ones, and W₂ brings them back to {d}. Both weight matrices are in the row; here they are chosen to be readable, a model learns them.',
    'ch3.block.second':
      'A second residual adds the MLP’s output to R: Z is the block’s output. Attention moves information between tokens; the MLP transforms each token on its own.',
    'ch3.block.stack':
      'Z has exactly X’s shape, so it can be the next block’s X: that is why blocks stack, and the model trained later in this chapter uses two of them.',
    'ch3.block.noShape':
      'The rest of the block needs the layer’s output to have the inputs’ shape: give chapter 2’s layer W_O with d_model columns.',
    'ch3.formula.residual': 'The residual connection',
    'ch3.formula.norm': 'LayerNorm of a row r: mean μ, standard deviation σ',
    'ch3.formula.mlp': 'The MLP, with its residual',
    'ch3.narrate.residual': 'The residual connection: the inputs plus attention’s output.',
    'ch3.narrate.norm': 'LayerNorm: each row to mean zero and standard deviation one.',
    'ch3.narrate.mlp': 'The MLP on each token, and the second residual: the block’s output.',
    'ch3.panels.block':
      'The block’s numbers: chapter 2’s layer input X and output Y, the residual sum, LayerNorm, the MLP (its weights W₁ and W₂) and the block’s output. Edit the layer in chapter 2’s editors below.',
    'ch3.block.why.touch': 'Tap a cell of R to see its sum.',
  },
  zh: {
    'stage.block': '块的其余部分',
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
    'ch3.panels.block':
      '整个块的数字：第二章那一层的输入 X 和输出 Y、残差和、LayerNorm、MLP（权重 W₁ 和 W₂）以及块的输出。请在下面第二章的编辑器里修改这一层。',
    'ch3.block.why.touch': '轻点 R 的格子可看到它的和。',
  },
};
