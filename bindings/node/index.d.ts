// permc in process from TypeScript: SPEC §10.1 requests, §10.2 decisions.

// The unions below are the Rust enums' names (permc-runtime's
// codes::vocabulary); test/types.test.mjs keeps them equal.

/** SPEC §1's action types. */
export type ActionType =
  | "terminal"
  | "git_commit"
  | "write_file"
  | "git_push"
  | "pr_open"
  | "git_repo_create"
  | "git_branch_create"
  | "git_branch_protect"
  | "open_adr_pr"
  | "open_infra_pr"
  | "git_merge"
  | "instruction_patch"
  | "parallelize"
  | "raise_max_parallel"
  | "propose_execution_plan"
  | "assess_implementability"
  | "container_start"
  | "container_stop"
  | "container_remove"
  | "spend";

/** SPEC §1's roles. */
export type Role =
  | "viewer"
  | "developer"
  | "maintainer"
  | "owner";

/**
 * A decision's policy (SPEC §10.2). The loaded policy is the class
 * `Policy` (its type `LoadedPolicy`).
 */
export type DecisionPolicy =
  | "auto_approve"
  | "require_approval"
  | "deny";

/** @deprecated The name of the class too: use `DecisionPolicy` (removed in the next release). */
export type Policy = DecisionPolicy;

/** A decision's reason (SPEC §5.3). */
export type Reason =
  | "iam.min_role"
  | "builtin.deny"
  | "autonomy.deny"
  | "file.deny"
  | "default"
  | "container.floor"
  | "autonomy.auto_approve"
  | "autonomy.require_approval"
  | "file.ask"
  | "file.allow"
  | "scope.cd"
  | "compound.uncovered"
  | "unknown.word"
  | "ceiling.external_effect"
  | "ceiling.privileged"
  | "ceiling.unparsed"
  | "ceiling.typed_external"
  | "ceiling.protected_merge"
  | "ceiling.instruction_patch"
  | "ceiling.parallelism"
  | "ceiling.container_remove"
  | "ceiling.scope"
  | "ceiling.protected_path";

/** A `PermcError`'s code: one vocabulary with the CLI and `permc serve` (docs/error-codes.md). */
export type ErrorCode =
  | "invalid_json"
  | "invalid_request"
  | "missing_field"
  | "unknown_type"
  | "unknown_role"
  | "invalid_field"
  | "unknown_field"
  | "duplicate_key"
  | "request_too_large"
  | "line_too_long"
  | "unreadable"
  | "rejected"
  | "invalid_artifact"
  | "invalid_argument"
  | "internal_error"
  | "panic";

/** The fields of a request's `action` (SPEC §10.1). */
export interface ActionFields {
  command?: string | null;
  cwd?: string | null;
  agent?: string | null;
  /** Read for `git_merge`; known and ignored for other types. */
  targetBranch?: string | null;
  /** `write_file`: the file written (SPEC §10.1); with it, `projectScopeRoot` is required. */
  path?: string | null;
}

/** A request's `context` (SPEC §10.1). */
export interface Context {
  role: Role;
  /** Default `container`. */
  executionMode?: "container" | "mounted" | "runner" | null;
  /** Default `false`. */
  containerRunning?: boolean | null;
  projectScopeRoot?: string | null;
}

/** A terminal request: `context.projectScopeRoot` is required (absolute, not `/`). */
export interface TerminalRequest {
  action: ActionFields & { type: "terminal" };
  context: Context & { projectScopeRoot: string };
  /** Echoed in the decision. */
  id?: unknown;
}

/** A request for any other action type. */
export interface OtherRequest {
  action: ActionFields & { type: Exclude<ActionType, "terminal"> };
  context: Context;
  /** Echoed in the decision. */
  id?: unknown;
}

/** SPEC §10.1's request: a union discriminated by `action.type`. */
export type Request = TerminalRequest | OtherRequest;

export interface Decision {
  policy: DecisionPolicy;
  reason: Reason;
  rule?: string;
  source?: string;
  autonomyOrigin?: string;
  scopeRoot?: string;
  message: string;
  id?: unknown;
}

/** A diagnostic, as `permc check --format json` gives it (`null` positions: the whole file, e.g. `unreadable-file`). */
export interface Diagnostic {
  check: string;
  severity: "error" | "warning" | "info";
  file: string;
  line: number | null;
  column: number | null;
  endLine: number | null;
  endColumn: number | null;
  message: string;
  help: string | null;
  related: { file: string; line: number; column: number; message: string }[];
}

/** What every function throws (`instanceof PermcError`): `code` is SPEC §10.1's for a request, `rejected`, `unreadable` or `invalid_artifact` for a load; `diagnostics` the rule files' errors of a rejected load; `version` is the diagnostics' JSON version (1). */
export declare class PermcError extends Error {
  constructor(code: ErrorCode, message: string, diagnostics?: Diagnostic[], version?: number);
  readonly name: "PermcError";
  readonly code: ErrorCode;
  readonly version: number;
  readonly diagnostics: Diagnostic[];
}

export interface Tokens {
  unparsed: boolean;
  why: { condition: string; offset: number; message: string }[];
  segments: { words: string[]; redirects: { op: string; target: string }[]; nested: boolean; context: "line" | "function-body" | "loop-body" | "case-arm" }[];
}

export type AlwaysOutcome =
  | { outcome: "patterns"; patterns: string[]; added: string[]; explanations: string[] }
  | { outcome: "autonomy"; agent: string; type: string; mode: string; message: string }
  | { outcome: "refused"; reason: "teto_do_sempre_permitir"; message: string };

/** `permc explain --format json`'s object. */
export interface Explanation {
  action: { type: ActionType; command?: string; cwd?: string; agent?: string; targetBranch?: string };
  context: { role: Role; executionMode: "container" | "mounted" | "runner"; containerRunning: boolean; projectScopeRoot?: string };
  /** With a command: its segments (SPEC §4.2) and why it is unparsed, if it is. */
  segments?: { words: string[]; nested: boolean }[];
  unparsed?: string[];
  /** Every step of SPEC §5.3 that ran: `1. IAM`, `6. Segment`, `7a. ceiling.external_effect`… */
  steps: { step: string; outcome: string }[];
  decision: Decision;
  /** The compiled engine and the reference interpreter agree (always, or it is a bug). */
  enginesAgree: boolean;
}

/** A policy loaded by `load` or `loadArtifact`: immutable, shared by any number of callers. */
export interface LoadedPolicy {
  /** Throws a PermcError when the request cannot be read (never a decision). */
  decide(request: Request): Decision;
  /**
   * The policy and reason alone, for a hot path that needs nothing else
   * (the decision's strings are never built). Throws as `decide` does.
   */
  decideBrief(request: Request): { policy: DecisionPolicy; reason: Reason };
  /**
   * Many requests in one call, each answered in its slot: the decision, or
   * the PermcError `decide` would throw for that request (returned, not
   * thrown). Throws a PermcError (`invalid_argument`) when not given an array.
   */
  decideMany(requests: readonly Request[]): Array<Decision | PermcError>;
  /**
   * The answer line `permc decide` prints for a request given as JSON
   * text (a decision, or `{"error": …}`), byte for byte; Elixir's
   * `decide_json/2`. Throws a PermcError only when `line` is no string.
   */
  decideJson(line: string): string;
  /** The text of `permc explain`. */
  explain(request: Request): string;
  /** `permc explain --format json`: the steps of SPEC §5.3 as data. */
  explainData(request: Request): Explanation;
  /** What always-allowing the action would record; nothing is written. */
  always(request: Request): AlwaysOutcome;
  /** The policy as an artifact's bytes: post them to a worker and `loadArtifact(bytes)` there (a policy itself cannot be posted). */
  artifact(): Uint8Array;
}

/** The class of loaded policies, for `instanceof`; made by `load`, never by `new`. */
export declare const Policy: (abstract new (native: never) => LoadedPolicy) & { readonly prototype: LoadedPolicy };

/** A rule file's text: a string (UTF-8 when bytes). */
export type RuleText = string | Uint8Array;

/** Loads and compiles permissions.json and autonomy.json, and permc.toml's `[[command]]` rows when a config is given: their paths, or their text already in memory. */
export declare function load(
  files:
    | { permissions: string; autonomy?: string | null; config?: string | null }
    | { permissionsText: RuleText; autonomyText?: RuleText | null; configText?: RuleText | null },
): LoadedPolicy;
/** `watch()`'s policy: follows its rule files, swapping atomically; broken files keep the last good one. */
export declare class LivePolicy {
  private constructor();
  /** The policy in force now. */
  readonly policy: LoadedPolicy;
  /** 1 for the first load, one more at each reload. */
  readonly generation: number;
  decide(request: Request): Decision;
  decideBrief(request: Request): { policy: DecisionPolicy; reason: Reason };
  decideMany(requests: readonly Request[]): Array<Decision | PermcError>;
  decideJson(line: string): string;
  explain(request: Request): string;
  explainData(request: Request): Explanation;
  always(request: Request): AlwaysOutcome;
  artifact(): Uint8Array;
  /** Loads the files now, as on a change. */
  reload(): Promise<void>;
  /** Stops watching. */
  close(): void;
  on(event: "reload", listener: (e: { generation: number }) => void): this;
  on(event: "reject", listener: (e: PermcError) => void): this;
  once(event: "reload", listener: (e: { generation: number }) => void): this;
  once(event: "reject", listener: (e: PermcError) => void): this;
  off(event: "reload" | "reject", listener: (...args: any[]) => void): this;
}

/** Watches the rule files and permc.toml when `config` is given (polled every `interval` ms, default 500; `persistent`, default true, keeps the process alive until `close()`); throws when they are broken now. */
export declare function watch(
  files: { permissions: string; autonomy?: string | null; config?: string | null },
  options?: { interval?: number; persistent?: boolean },
): LivePolicy;
/** `load({permissions, autonomy})` off the main thread (compiled on libuv's thread pool). */
export declare function loadAsync(files: { permissions: string; autonomy?: string | null; config?: string | null }): Promise<LoadedPolicy>;
/** Compiles rule files held in memory (diagnostics name them permissions.json and autonomy.json). */
export declare function loadText(files: { permissions: RuleText; autonomy?: RuleText | null; config?: RuleText | null }): LoadedPolicy;
/** Loads an artifact written by `permc compile`: its path, or its bytes. */
export declare function loadArtifact(artifact: string | Uint8Array): LoadedPolicy;
export declare function tokens(command: string): Tokens;
