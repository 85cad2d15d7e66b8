'use strict';
// Tests of the Node client against a real `permc serve` (run by tests/serve.rs
// with PERMC_BIN set; or by hand: PERMC_BIN=target/debug/permc node examples/node/test.js).
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { Permc, PermcError } = require('./permc');

const ROOT = '/home/ana/projetos/loja-1a2b3c4d';

function terminal(command, extra = {}) {
  return {
    action: { type: 'terminal', command, ...extra },
    context: { role: 'developer', executionMode: 'runner', projectScopeRoot: ROOT },
  };
}

function tempRules(permissions) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'permc-node-'));
  const file = path.join(dir, 'permissions.json');
  fs.writeFileSync(file, JSON.stringify(permissions));
  return { dir, file };
}

/** Replaces a file the way editors and `permc always --write` do: write a temporary file, then rename. */
function atomicWrite(file, text) {
  const tmp = `${file}.tmp-${process.pid}`;
  fs.writeFileSync(tmp, text);
  fs.renameSync(tmp, file);
}

function nextEvent(permc, name) {
  return new Promise((resolve) => permc.once(name, resolve));
}

test('decides, and matches each answer to its request under concurrency', async () => {
  const { file } = tempRules({ allow: ['Terminal(ls)', 'Terminal(git status)'], deny: ['Terminal(curl)'] });
  const permc = new Permc({ permissions: file });
  await permc.ready();
  const commands = ['ls -la', 'curl https://x.example', 'git status', 'pnpm build'];
  const expected = {
    'ls -la': ['auto_approve', 'file.allow', 'Terminal(ls)'],
    'curl https://x.example': ['deny', 'file.deny', 'Terminal(curl)'],
    'git status': ['auto_approve', 'file.allow', 'Terminal(git status)'],
    'pnpm build': ['require_approval', 'default', undefined],
  };
  const sent = [];
  for (let i = 0; i < 3000; i++) sent.push(commands[(i * 7) % commands.length]);
  const answers = await Promise.all(sent.map((c) => permc.decide(terminal(c))));
  answers.forEach((d, i) => {
    const [policy, reason, rule] = expected[sent[i]];
    assert.equal(d.policy, policy, sent[i]);
    assert.equal(d.reason, reason, sent[i]);
    assert.equal(d.rule, rule, sent[i]);
    assert.equal(d.id, undefined, 'the client strips its own id');
  });
  assert.deepEqual(await permc.close(), { code: 0, signal: null });
});

test('a request permc cannot read rejects, and the stream goes on', async () => {
  // An empty policy only when asked for: a permissions.json holding `{}`.
  const { file } = tempRules({});
  const permc = new Permc({ permissions: file });
  await assert.rejects(
    permc.decide({ action: { type: 'teleport' }, context: { role: 'developer' } }),
    (e) => e instanceof PermcError && e.code === 'unknown_type',
  );
  await assert.rejects(permc.decide({ action: { type: 'git_push' } }), (e) => e.code === 'missing_field');
  // Strict requests: a typo never falls back to a default.
  await assert.rejects(
    permc.decide({ action: { type: 'git_commit' }, context: { role: 'developer', executonMode: 'runner' } }),
    (e) => e.code === 'unknown_field' && e.message.includes('executionMode'),
  );
  const d = await permc.decide({ action: { type: 'git_commit' }, context: { role: 'developer' } });
  assert.equal(d.policy, 'require_approval');
  assert.equal((await permc.close()).code, 0);
  await assert.rejects(permc.decide(terminal('ls')), (e) => e.code === 'exited');
});

test('hot reload: an atomic rename swaps the policy in; a broken edit keeps the last good one', async () => {
  const { file } = tempRules({ deny: ['Terminal(curl)'] });
  const permc = new Permc({ permissions: file });
  await permc.ready();
  assert.equal((await permc.decide(terminal('curl x'))).policy, 'deny');

  let reloaded = nextEvent(permc, 'reloaded');
  atomicWrite(file, JSON.stringify({ allow: ['Terminal(curl)'] }));
  const ev = await reloaded;
  assert.equal(ev.generation, 2);
  const after = await permc.decide(terminal('curl x'));
  assert.equal(after.policy, 'auto_approve');
  assert.equal(after.rule, 'Terminal(curl)');

  const failed = nextEvent(permc, 'reload_failed');
  fs.writeFileSync(file, '{"allow": ["Terminal(curl)", "Termnal(ls)"]}');
  const bad = await failed;
  assert.equal(bad.generation, 2, 'the last good policy stays in force');
  assert.equal(bad.diagnostics[0].check, 'unknown-label');
  assert.equal(bad.diagnostics[0].line, 1);
  assert.equal((await permc.decide(terminal('curl x'))).policy, 'auto_approve');

  reloaded = nextEvent(permc, 'reloaded');
  fs.writeFileSync(file, '{"ask": ["Terminal(curl)"]}');
  assert.equal((await reloaded).generation, 3);
  assert.equal((await permc.decide(terminal('curl x'))).reason, 'file.ask');
  assert.equal((await permc.close()).code, 0);
});

test('a policy that does not load: ready() rejects with the diagnostics, the process exits 2', async () => {
  const { file } = tempRules({});
  fs.writeFileSync(file, '{"allow": [');
  const permc = new Permc({ permissions: file });
  await assert.rejects(permc.ready(), (e) => e.code === 'load_failed' && e.message.includes('invalid-json'));
  assert.equal((await permc.close()).code, 2);
});

test('a missing binary says ENOENT, in ready() and decide()', async () => {
  const permc = new Permc({ bin: path.join(os.tmpdir(), 'no-such-permc-binary'), permissions: 'x.json' });
  await assert.rejects(permc.ready(), (e) => e.code === 'spawn' && e.message.includes('ENOENT'));
  await assert.rejects(permc.decide(terminal('ls')), (e) => e.code === 'spawn' && e.message.includes('ENOENT'));
});

test('the snippet of docs/serve.md runs as written (CommonJS, no top-level await)', async () => {
  const page = fs.readFileSync(path.join(__dirname, '..', '..', 'docs', 'serve.md'), 'utf8');
  const block = page.split('## From Node.js\n')[1].split('```js\n')[1].split('```')[0];
  assert.ok(!/^await /m.test(block), 'no top-level await in a CommonJS snippet');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'permc-readme-'));
  fs.writeFileSync(path.join(dir, 'permissions.json'), JSON.stringify({ allow: ['Terminal(pnpm test)'] }));
  fs.writeFileSync(path.join(dir, 'autonomy.json'), '{}');
  const client = path.join(__dirname, 'permc.js');
  const script = block
    .replace("require('./examples/node/permc')", `require(${JSON.stringify(client)})`)
    .replace("bin: 'permc'", `bin: ${JSON.stringify(process.env.PERMC_BIN || 'permc')}`);
  const file = path.join(dir, 'snippet.js');
  fs.writeFileSync(file, script);
  const { spawnSync } = require('node:child_process');
  const run = spawnSync(process.execPath, [file], { cwd: dir, encoding: 'utf8' });
  assert.equal(run.status, 0, run.stderr);
  assert.match(run.stdout, /auto_approve/);
});
