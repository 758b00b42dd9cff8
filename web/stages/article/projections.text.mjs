// The sentences of projections.mjs, in English and Chinese (same keys in both).
export default {
  en: {
    'stage.projections': 'Keys, values, queries',
    'projection.row.keys':
      'Input {i} times {weight}: each entry of key {i} is the dot product of the input row with one column of the key weights.',
    'projection.row.values':
      'Input {i} times {weight}: each entry of value {i} is the dot product of the input row with one column of the value weights.',
    'projection.row.queries':
      'Input {i} times {weight}: each entry of query {i} is the dot product of the input row with one column of the query weights.',
    'projection.row.first':
      'Watch the frame sweep across the columns: one column, one number of the {role}.',
    'projection.row.same':
      'The same weights serve every input: input {i} gets its {role} from the same matrix.',
    'formula.projectionRow': '{role} {i} is input {i} times the weight matrix',
    'narrate.projectionRow': '{role} {i} = input {i} times {weight} = {vector}.',
    'projection.matrix.faster':
      'A faster way: stack the inputs into X and compute every row at once as one matrix product.',
    'projection.matrix.rows':
      'Row i of {symbol} is exactly the {role} of input i from the row-by-row steps.',
    'formula.projectionMatrix': '{symbol} equals X times {weight}',
    'narrate.projectionMatrix': 'All {role}s at once: {symbol} = X·{weight}.',
  },
  zh: {
    'stage.projections': '计算键、值和查询',
    'projection.row.keys':
      '针对输入{i}计算键：输入的这一行与{weight}的每一列做点积，得到键{i}的每一个元素。',
    'projection.row.values':
      '针对输入{i}计算值：输入的这一行与{weight}的每一列做点积，得到值{i}的每一个元素。',
    'projection.row.queries':
      '针对输入{i}计算查询：输入的这一行与{weight}的每一列做点积，得到查询{i}的每一个元素。',
    'projection.row.first': '请看方框扫过权重的每一列：每一列得到{role}的一个数字。',
    'projection.row.same': '接着使用同样的权重来为输入{i}计算对应的{role}。',
    'formula.projectionRow': '{role}{i}等于输入{i}乘以权重矩阵',
    'narrate.projectionRow': '{role}{i} = 输入{i}乘以{weight} = {vector}。',
    'projection.matrix.faster':
      '更快的方法是对合并上述操作进行矩阵运算：把所有输入叠成X，一次算出所有行。',
    'projection.matrix.rows': '{symbol}的第i行正是上面逐行算出的输入i的{role}。',
    'formula.projectionMatrix': '{symbol}等于X乘以{weight}',
    'narrate.projectionMatrix': '一次算出所有{role}：{symbol} = X·{weight}。',
  },
};
