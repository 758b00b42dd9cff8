// The page's one registry of matrices and colour roles (web/roles.mjs), for every chapter:
// each matrix's role is a colour the styles define and both languages name, and no other file
// keeps a table of its own (a matrix drawn in a colour written out by hand drifts from it).
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { COLOUR_ROLES, ROLES, roleColour } from '../../web/roles.mjs';
import { LANGUAGES } from '../../web/i18n/index.mjs';

const root = dirname(dirname(dirname(fileURLToPath(import.meta.url))));
const web = join(root, 'web');
const tokens = readFileSync(join(web, 'styles/tokens.css'), 'utf8');

/** Every .mjs file under web/, as [path relative to web/, text]. */
function webModules(folder = web) {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return webModules(path);
    return entry.name.endsWith('.mjs') ? [[relative(web, path), readFileSync(path, 'utf8')]] : [];
  });
}

test('every colour role has its CSS variable, its class and a label in en and zh', () => {
  for (const role of COLOUR_ROLES) {
    const { cssVar, labelKey } = roleColour(role);
    assert.match(tokens, new RegExp(`${cssVar}:`), `${cssVar} is not defined in tokens.css`);
    assert.match(tokens, new RegExp(`\\.role-${role}\\s*[{,]`), `.role-${role} has no rule`);
    for (const [language, table] of Object.entries(LANGUAGES))
      assert.equal(typeof table[labelKey], 'string', `${labelKey} has no ${language} label`);
  }
});

test('every matrix of every chapter has a colour role, a symbol and a name in en and zh', () => {
  for (const [name, meta] of Object.entries(ROLES)) {
    assert.ok(COLOUR_ROLES.includes(meta.role), `${name}: role ${meta.role} is no colour role`);
    assert.ok(
      typeof meta.symbol === 'string' || (Array.isArray(meta.symbol) && meta.symbol.length === 2),
      `${name}: symbol ${meta.symbol}`,
    );
    for (const [language, table] of Object.entries(LANGUAGES))
      assert.equal(typeof table[meta.nameKey], 'string', `${name}: no ${language} name`);
  }
  // Chapter 2's W_O and chapter 3's block are in it, beside chapter 1's matrices.
  for (const name of ['x', 'keys', 'weights', 'wOut', 'concat', 'residual', 'mlp', 'w1'])
    assert.ok(ROLES[name], `${name} is not in the registry`);
});

test('no file but the registry writes a matrix colour role out by hand', () => {
  const literal = new RegExp(`\\brole:\\s*'(${COLOUR_ROLES.join('|')})'`);
  const offenders = webModules()
    .filter(([path, text]) => path !== 'roles.mjs' && literal.test(text))
    .map(([path, text]) => `${path}: ${text.match(literal)[0]}`);
  assert.deepEqual(offenders, []);
});
