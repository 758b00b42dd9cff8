// Formatting is enforced, not hoped for: clang-format (C++) and prettier (JS, CSS, HTML)
// must leave every tracked source file as it is.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const root = new URL('..', import.meta.url).pathname;
const tracked = (patterns) =>
  execFileSync(
    'git',
    ['ls-files', '--cached', '--others', '--exclude-standard', '--', ...patterns],
    {
      cwd: root,
      encoding: 'utf8',
    },
  )
    .split('\n')
    .filter((file) => file && existsSync(new URL(file, `file://${root}`)));

test('C++ sources are clang-formatted', () => {
  const files = tracked(['*.cpp', '*.hpp', '*.h', '*.c']);
  assert.ok(files.length > 0, 'found C++ files');
  const result = spawnSync('clang-format', ['--dry-run', '--Werror', ...files], {
    cwd: root,
    encoding: 'utf8',
  });
  assert.equal(result.status, 0, `run clang-format -i on:\n${result.stderr.slice(0, 3000)}`);
});

test('JS, CSS and HTML are prettier-formatted', () => {
  const files = tracked(['*.js', '*.mjs', '*.ts', '*.css', '*.html', '*.json']).filter(
    (file) => file !== 'package-lock.json',
  );
  assert.ok(files.length > 0, 'found JS files');
  const result = spawnSync(`${root}node_modules/.bin/prettier`, ['--check', ...files], {
    cwd: root,
    encoding: 'utf8',
  });
  assert.equal(result.status, 0, `run prettier --write on:\n${result.stdout}${result.stderr}`);
});

// A function that holds half a file does several jobs: the rule is one job per function, and
// 150 lines is where a reader stops seeing one. TypeScript's parser reads the JS (no new
// dependency); every function, method, arrow and class body counts on its own.
test('no function in src/js or web/ runs over 150 lines', async () => {
  const { default: ts } = await import('typescript');
  const { readFileSync } = await import('node:fs');
  const MAX_LINES = 150;
  const files = tracked(['src/js/*.mjs', 'web/*.mjs', 'web/*.js']);
  assert.ok(files.length > 50, `found the JS files (${files.length})`);
  const long = [];
  for (const file of files) {
    const text = readFileSync(new URL(file, `file://${root}`), 'utf8');
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
    const line = (position) => source.getLineAndCharacterOfPosition(position).line + 1;
    const visit = (node) => {
      if (ts.isFunctionLike(node) && node.body) {
        const first = line(node.getStart(source));
        const lines = line(node.getEnd()) - first + 1;
        if (lines > MAX_LINES) {
          const name =
            node.name?.getText(source) ?? node.parent?.name?.getText(source) ?? '(anonymous)';
          long.push(`${file}:${first} ${name}: ${lines} lines`);
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  assert.deepEqual(long, [], `split these (at most ${MAX_LINES} lines each):\n${long.join('\n')}`);
});
