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
