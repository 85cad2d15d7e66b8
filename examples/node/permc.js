'use strict';
// A client for `permc serve` (docs/serve.md):
// one long-running permc process, requests written as JSON Lines with an
// `id`, answers matched back to their promises. Node's standard library only.
//
//   const { Permc } = require('./permc');
//   const permc = new Permc({ permissions: 'permissions.json', autonomy: 'autonomy.json' });
//   const d = await permc.decide({ action: {...}, context: {...} });
//   // d.policy: 'auto_approve' | 'require_approval' | 'deny'
//   permc.on('reloaded', (ev) => log(ev)); permc.on('reload_failed', (ev) => alert(ev.diagnostics));
//   await permc.close(); // → { code: 0, signal: null }
//
// Fail closed: a rejected promise (a request permc could not read, or the
// process gone) must be treated like `require_approval` or `deny`, never as
// an approval.

const { spawn } = require('node:child_process');
const { EventEmitter } = require('node:events');

/**
 * A request permc answered with `{"error": {code, message}}` (`unknown_field`
 * and `duplicate_key` included: requests are read strictly), or a failure of
 * the process itself.
 */
class PermcError extends Error {
  constructor(code, message) {
    super(message);
    this.name = 'PermcError';
    this.code = code;
  }
}

/** Calls `onLine` for each complete line of a readable stream (UTF-8). */
function eachLine(stream, onLine) {
  let rest = '';
  stream.setEncoding('utf8');
  stream.on('data', (chunk) => {
    rest += chunk;
    let nl;
    while ((nl = rest.indexOf('\n')) !== -1) {
      const line = rest.slice(0, nl);
      rest = rest.slice(nl + 1);
      if (line.trim() !== '') onLine(line);
    }
  });
}

class Permc extends EventEmitter {
  /**
   * Starts `permc serve`.
   * @param {object} options
   * @param {string} [options.bin] the permc executable (default: $PERMC_BIN or `permc` on the PATH)
   * @param {string} [options.permissions] permissions.json
   * @param {string} [options.autonomy] autonomy.json
   * @param {string} [options.policy] a compiled artifact (`permc compile`)
   * @param {string[]} [options.args] more arguments for `permc serve`
   */
  constructor(options = {}) {
    super();
    const bin = options.bin || process.env.PERMC_BIN || 'permc';
    const args = ['serve'];
    if (options.permissions) args.push('--permissions', options.permissions);
    if (options.autonomy) args.push('--autonomy', options.autonomy);
    if (options.policy) args.push('--policy', options.policy);
    args.push(...(options.args || []));

    this._nextId = 1;
    this._pending = []; // answers come in request order: a FIFO of {id, resolve, reject}
    this._failure = null;
    this.child = spawn(bin, args, { stdio: ['pipe', 'pipe', 'pipe'] });

    this._exited = new Promise((resolve) => {
      this.child.on('close', (code, signal) => {
        this._fail(new PermcError('exited', `permc serve exited (code ${code}, signal ${signal})`));
        resolve({ code, signal });
      });
    });
    this._ready = new Promise((resolve, reject) => {
      this.once('ready', resolve);
      this.once('load_failed', (ev) => reject(new PermcError('load_failed', JSON.stringify(ev.diagnostics))));
      // A binary that could not be started says why (ENOENT: not found),
      // rather than only that it exited.
      this._exited.then(() =>
        reject(
          this._failure && this._failure.code === 'spawn'
            ? this._failure
            : new PermcError('exited', 'permc serve exited before it was ready'),
        ),
      );
    });
    this._ready.catch(() => {}); // a caller that never awaits ready() is told through decide()

    // Not started (ENOENT: no such binary, EACCES…): the first failure,
    // so ready() and decide() reject with the reason, not just 'exited'.
    this.child.on('error', (err) => {
      const e = new PermcError('spawn', `cannot run ${bin}: ${err.message}`);
      e.cause = err;
      this._fail(e);
    });
    // A write after the process is gone fails with EPIPE: the pending
    // promises are rejected by the 'close' handler.
    this.child.stdin.on('error', () => {});
    eachLine(this.child.stdout, (line) => this._answer(line));
    eachLine(this.child.stderr, (line) => this._event(line));
  }

  /** Resolves once the policy is loaded (the `ready` event); rejects if it does not load. */
  ready() {
    return this._ready;
  }

  /**
   * Decides one request (SPEC §10.1). Resolves with the decision (SPEC
   * §10.2); rejects with a PermcError when permc cannot read the request or
   * the process is gone. Any `id` of the request is replaced by the client's.
   */
  decide(request) {
    if (this._failure) return Promise.reject(this._failure);
    const id = this._nextId++;
    const line = JSON.stringify({ ...request, id }) + '\n';
    return new Promise((resolve, reject) => {
      this._pending.push({ id, resolve, reject });
      this.child.stdin.write(line);
    });
  }

  /** Ends the input: permc answers what it has, then exits. Resolves with {code, signal}. */
  close() {
    this.child.stdin.end();
    return this._exited;
  }

  _answer(line) {
    const waiting = this._pending.shift();
    let answer;
    try {
      answer = JSON.parse(line);
    } catch (e) {
      return this._protocolError(`an answer is not JSON: ${line.slice(0, 200)}`, waiting);
    }
    if (!waiting) return this._protocolError('an answer came for no request', waiting);
    // Answers are in request order; the id is a check of it. An answer to a
    // line permc could not parse carries no id, and still comes in order.
    if ('id' in answer && answer.id !== waiting.id) {
      return this._protocolError(`answer for id ${answer.id} where ${waiting.id} was expected`, waiting);
    }
    delete answer.id;
    if (answer.error) waiting.reject(new PermcError(answer.error.code, answer.error.message));
    else waiting.resolve(answer);
  }

  _event(line) {
    let ev;
    try {
      ev = JSON.parse(line);
    } catch (e) {
      ev = { event: 'stderr', line };
    }
    this.emit('event', ev);
    // permc's own `error` event (a failed read or write, exit 2 follows) is
    // only given as 'event': emitting 'error' with no listener would throw.
    if (typeof ev.event === 'string' && ev.event !== 'error') this.emit(ev.event, ev);
  }

  _protocolError(message, waiting) {
    const err = new PermcError('protocol', message);
    if (waiting) waiting.reject(err);
    this._fail(err);
    this.child.kill('SIGTERM');
  }

  _fail(err) {
    if (!this._failure) this._failure = err;
    const pending = this._pending;
    this._pending = [];
    for (const p of pending) p.reject(err);
  }
}

module.exports = { Permc, PermcError };
